LDLIBS_btok += -lutf8proc
# btok starts in a few milliseconds from its compiled cache, less than the
# dynamic loader alone would take on a loaded machine: the program is linked
# statically when every archive it needs is installed (libc6-dev,
# libjansson-dev, libutf8proc-dev, libssl-dev, libyajl-dev ship them) and the build is
# not sanitized (AddressSanitizer needs dynamic linking).  Its unit tests
# and the fuzz targets link as every other program's do.
btok_archives := $(foreach l,c m jansson utf8proc crypto yajl_s,\
    $(filter /%,$(shell $(CC) -print-file-name=lib$(l).a 2>/dev/null)))
ifeq ($(words $(wildcard $(btok_archives))),6)
ifeq ($(findstring -fsanitize,$(CFLAGS) $(LDFLAGS)),)
LINK_btok = -static -ljansson -lutf8proc -lcrypto -lyajl_s -lm -lpthread
endif
endif
