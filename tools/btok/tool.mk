LDLIBS_btok += -lutf8proc
# btok starts in a few milliseconds from its compiled cache, less than the
# dynamic loader alone would take on a loaded machine: the program is linked
# statically when the build is not sanitized (the sanitizers need dynamic
# linking) and every library of its ordinary link (LDLIBS_btok, then
# LDLIBS_ALL: the pkg-config list of PKGS and the rest) has its archive
# installed, as lib<name>.a or, where Debian ships it under that name,
# lib<name>_s.a (yajl), and libc's too.  The same flags, in the same order,
# with each -l<name> replaced by its archive: a library libctx.a gains is
# linked here as soon as the Makefile names it, and the linker takes from
# an archive only the members btok uses.  Otherwise, and always for its
# unit tests and the fuzz targets, btok links as every other program does.
btok_flags := $(LDLIBS_btok) $(LDLIBS_ALL)
btok_libs := $(patsubst -l%,%,$(filter -l%,$(btok_flags)))
# btok_a_<name>: the archive of library <name>, or nothing ($(CC) echoes a
# bare name it does not find); asked once per library.
$(foreach l,$(sort $(btok_libs) c),$(eval btok_a_$(l) := $(firstword \
    $(filter /%,$(foreach a,lib$(l).a lib$(l)_s.a,\
    $(shell $(CC) -print-file-name=$(a) 2>/dev/null))))))
btok_archives := $(foreach l,$(sort $(btok_libs) c),$(btok_a_$(l)))
ifeq ($(words $(btok_archives)),$(words $(sort $(btok_libs) c)))
ifeq ($(findstring -fsanitize,$(CFLAGS) $(LDFLAGS)),)
LINK_btok := -static $(foreach f,$(btok_flags),\
    $(if $(filter -l%,$(f)),$(btok_a_$(patsubst -l%,%,$(f))),$(f)))
endif
endif
