# ctxbench - paired benchmark of language models on website documentation.
#
# The two commands a user needs: `make demo` and `make check`.  Both run
# `make deps` first, which installs what is missing on a Debian machine.
#
# Layout: common/*.c form build/lib/libctx.a; each tools/NAME/ is one program
# (main.c plus files only it needs, built into build/lib/libNAME.a so unit
# tests and fuzz targets can link them); tools/NAME/tool.mk may add
# LDLIBS_NAME, and may set LINK_NAME: the libraries and flags of the
# program's own link, in place of LDLIBS_NAME and the common ones.  Unit
# tests tests/NAME/unit-*.c become build/tests/NAME/unit-* and are run from
# the .t scripts.  Fuzz targets are tests/fuzz/*.c.

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
SHAREDIR ?= $(PREFIX)/share/ctxbench
MANPREFIX ?= $(PREFIX)/share/man
DESTDIR  ?=
BUILD    ?= build

CC       ?= cc
PKGS      = libcurl libxml-2.0 jansson yajl gsl zlib libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wshadow -Wno-unused-parameter -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wvla
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
            -DCTX_VERSION='"$(VERSION)"' \
            -DCTX_SHAREDIR='"$(SHAREDIR)"' \
            -Icommon $(PKG_CFLAGS) $(WARN) $(CFLAGS) $(CPPFLAGS)
ALL_LDFLAGS = $(LDFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lutf8proc -lm -lpthread

ifeq ($(V),1)
Q =
say =
else
Q = @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

TOOLS     := $(patsubst tools/%/,%,$(sort $(dir $(wildcard tools/*/main.c))))
-include $(wildcard tools/*/tool.mk)

COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o)
LIBCTX     := $(BUILD)/lib/libctx.a
BINS       := $(TOOLS:%=$(BUILD)/bin/%)

UNIT_SRC   := $(wildcard tests/*/unit-*.c)
UNITS      := $(UNIT_SRC:tests/%.c=$(BUILD)/tests/%)
FUZZ_SRC   := $(wildcard tests/fuzz/*.c)
FUZZ_BINS  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
MANPAGES   := $(wildcard man/*.[1-9])

tool_src  = $(filter-out tools/$(1)/main.c,$(wildcard tools/$(1)/*.c))
tool_obj  = $(patsubst %.c,$(BUILD)/%.o,$(call tool_src,$(1)))
tool_lib  = $(BUILD)/lib/lib$(1).a
TOOL_LIBS := $(foreach t,$(TOOLS),$(call tool_lib,$(t)))
TOOL_LDLIBS := $(foreach t,$(TOOLS),$(LDLIBS_$(t)))

.PHONY: all check unit deps deps-servers demo bench fuzz fuzz-long torture torture-build lint asan clean install uninstall
.DEFAULT_GOAL := all

# The example documentation site the demo and the tests serve, built from
# its sources (examples/site/build.py, standard Python only).
SITE       := $(BUILD)/site
# the same site some months later (build.py --version 2): bctx drift's example
SITE2      := $(BUILD)/site-v2
SITE_SRC   := examples/site/build.py $(wildcard examples/site/src/*.md examples/site/src/*/*.md)

all: $(LIBCTX) $(BINS) $(UNITS) $(SITE)/llms.txt $(SITE2)/llms.txt $(BUILD)/torture/torture.so

$(SITE)/llms.txt: $(SITE_SRC)
	$(call say,SITE,$(SITE))python3 examples/site/build.py $(SITE)
$(SITE2)/llms.txt: $(SITE_SRC)
	$(call say,SITE,$(SITE2))python3 examples/site/build.py --version 2 $(SITE2)

$(BUILD)/%.o: %.c
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIBCTX): $(COMMON_OBJ)
	$(call say,AR,$@)mkdir -p $(@D) && rm -f $@ && $(AR) rcs $@ $^

define TOOL_RULES
$(call tool_lib,$(1)): $(call tool_obj,$(1))
	$$(call say,AR,$$@)mkdir -p $$(@D) && rm -f $$@ && $$(AR) rcs $$@ $$^ $$(if $$^,,$$(BUILD)/lib/empty.o)
$(BUILD)/bin/$(1): $(BUILD)/tools/$(1)/main.o $(call tool_lib,$(1)) $(LIBCTX)
	$$(call say,LD,$$@)mkdir -p $$(@D) && $$(CC) $$(ALL_CFLAGS) $$(ALL_LDFLAGS) -o $$@ $$^ \
	    $$(or $$(LINK_$(1)),$$(LDLIBS_$(1)) $$(LDLIBS_ALL))
endef
$(foreach t,$(TOOLS),$(eval $(call TOOL_RULES,$(t))))

$(BUILD)/lib/empty.o:
	$(Q)mkdir -p $(@D) && printf 'static int ctx_empty;\n' | $(CC) -x c -c - -o $@

# A unit test links its own directory's tool library (if any) and libctx.
$(BUILD)/tests/%: tests/%.c $(TOOL_LIBS) $(LIBCTX)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -Itests/lib $(ALL_LDFLAGS) -MMD -MP -o $@ $< \
	    $(wildcard $(BUILD)/lib/lib$(firstword $(subst /, ,$*)).a) $(LIBCTX) \
	    $(LDLIBS_$(firstword $(subst /, ,$*))) $(LDLIBS_ALL)

# ---------------------------------------------------------------- tests
PROVE ?= prove
PROVE_FLAGS ?= -j2
TESTS ?= tests

check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/$(BUILD) LC_ALL=C \
	    $(PROVE) $(PROVE_FLAGS) -r $(TESTS)

unit: $(UNITS)
	$(Q)CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/$(BUILD) $(PROVE) tests/common

deps:
	$(Q)sh tests/lib/deps.sh

# llama.cpp's llama-server and a tiny model for binfer's protocol tests,
# built once per machine into the cache (long on a small machine).
deps-servers: deps
	$(Q)sh tests/binfer/deps-servers.sh

# ---------------------------------------------------------------- demo, bench
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/$(BUILD) \
	    QUESTION="$(QUESTION)" LIMIT="$(LIMIT)" VARIANTS="$(VARIANTS)" sh examples/demo.sh

# btok's side of tests/bench/btok.sh, timed in process, linked as btok is.
$(BUILD)/bench/btok-time: tests/bench/btok-time.c $(call tool_lib,btok) $(LIBCTX)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -Itools/btok $(ALL_LDFLAGS) \
	    -o $@ $< $(call tool_lib,btok) $(LIBCTX) $(or $(LINK_btok),$(LDLIBS_btok) $(LDLIBS_ALL))

bench: deps
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/bench/btok-time
	$(Q)set -e; for b in $(sort $(wildcard tests/bench/*.sh)); do \
	    echo "== $$b"; CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/$(BUILD) sh $$b; done

# ---------------------------------------------------------------- sanitizers
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined

asan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" all
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/build-asan CTXBENCH_ASAN=1 LC_ALL=C \
	    $(PROVE) $(PROVE_FLAGS) -r $(TESTS)

FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer

fuzz: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" fuzz-build
	$(Q)set -e; for f in $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%); do \
	    n=$$(basename $$f); mkdir -p build-fuzz/corpus/$$n; \
	    seeds=; [ -d tests/fuzz/seeds/$$n ] && seeds=tests/fuzz/seeds/$$n; \
	    opts=; [ -f tests/fuzz/$$n.options ] && opts=$$(cat tests/fuzz/$$n.options); \
	    echo "== $$n ($(FUZZ_SECONDS) s)"; \
	    $$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	        -print_final_stats=1 $$opts build-fuzz/corpus/$$n $$seeds 2>build-fuzz/$$n.log \
	        || { tail -n 60 build-fuzz/$$n.log; exit 1; }; \
	    grep -E '^(stat::number_of_executed_units|Done)' build-fuzz/$$n.log || true; \
	done

fuzz-build: $(FUZZ_BINS)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(TOOL_LIBS) $(LIBCTX)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	    $(TOOL_LIBS) $(LIBCTX) $(TOOL_LDLIBS) $(LDLIBS_ALL)

# ---------------------------------------------------------------- torture
# Faults of the environment (tests/torture/run.sh, ctxbench(7) FAULTS): the
# Nth allocation, the Nth output operation (ENOSPC, EIO), SIGKILL, four
# bfetch processes on one archive.  The shim is preloaded into the programs,
# never linked into them.  The programs are built with UndefinedBehavior-
# Sanitizer into build-torture (it leaves malloc alone, so the shim still
# replaces it; AddressSanitizer cannot run beside the shim), and a run
# whose stderr holds a sanitizer report is a violation.  TORTURE_MODES
# picks modes (alloc io kill lock), TORTURE_PROGS programs.  The sampling:
# every N up to TORTURE_BOUND (100), then TORTURE_SAMPLES (100) spread up
# to the command's count of allocations or output operations, and
# TORTURE_KILLS (10) kills; each N is a run of a program, and these keep
# the whole check to minutes (each summary line gives its time).
TORTURE_MODES ?=
TORTURE_FLAGS = -O1 -g -fsanitize=undefined -fno-omit-frame-pointer

$(BUILD)/torture/torture.so: tests/torture/shim.c
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) -std=c11 -O2 -g -fPIC -shared $(WARN) \
	    -o $@ $< -ldl

torture: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-torture CFLAGS="$(TORTURE_FLAGS)" \
	    LDFLAGS="-fsanitize=undefined" torture-build
	$(Q)UBSAN_OPTIONS=print_stacktrace=1 \
	    CTXBENCH_TOP=$(CURDIR) CTXBENCH_BUILD=$(CURDIR)/build-torture \
	    sh tests/torture/run.sh $(TORTURE_MODES)

torture-build: $(LIBCTX) $(BINS) $(SITE)/llms.txt $(BUILD)/torture/torture.so

# Every fuzz target for FUZZ_LONG_SECONDS (default 600) with its corpus kept
# in fuzz/corpus/NAME between runs (seeds from tests/fuzz/seeds/NAME); a
# crash, a time-out or running out of memory leaves its input in
# fuzz/crashes/ and stops the run.  A target whose loaders die by longjmp
# (-detect_leaks=0 in its options, see tests/fuzz/fuzz.h) leaves each dying
# run's memory behind, which over minutes adds up to the memory limit
# though no one input needs it: such a target runs in libFuzzer's fork mode
# (-fork=1), a fresh process for each job of the run, and still stops at
# the first crash, time-out or out-of-memory.
FUZZ_LONG_SECONDS ?= 600
FUZZ_TARGETS ?= $(FUZZ_SRC:tests/fuzz/%.c=%)

fuzz-long: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" fuzz-build
	$(Q)set -e; mkdir -p fuzz/crashes; for n in $(FUZZ_TARGETS); do \
	    f=build-fuzz/fuzz/$$n; mkdir -p fuzz/corpus/$$n; \
	    seeds=; [ -d tests/fuzz/seeds/$$n ] && seeds=tests/fuzz/seeds/$$n; \
	    opts=; [ -f tests/fuzz/$$n.options ] && opts=$$(cat tests/fuzz/$$n.options); \
	    case " $$opts " in *" -detect_leaks=0 "*) \
	        opts="$$opts -fork=1 -ignore_crashes=0 -ignore_ooms=0 -ignore_timeouts=0";; \
	    esac; \
	    echo "== $$n ($(FUZZ_LONG_SECONDS) s)"; \
	    $$f -max_total_time=$(FUZZ_LONG_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	        -print_final_stats=1 -artifact_prefix=fuzz/crashes/$$n- $$opts \
	        fuzz/corpus/$$n $$seeds >build-fuzz/$$n-long.log 2>&1 \
	        || { tail -n 60 build-fuzz/$$n-long.log; exit 1; }; \
	    grep -E '^(stat::number_of_executed_units|Done)' build-fuzz/$$n-long.log || \
	        grep -E '^#[0-9]+: cov:' build-fuzz/$$n-long.log | tail -n 1; \
	    echo "corpus: $$(ls fuzz/corpus/$$n | wc -l) inputs"; \
	done

# ---------------------------------------------------------------- lint
lint:
	$(Q)sh tests/lib/lint.sh

# ---------------------------------------------------------------- install
install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)
	for t in $(TOOLS); do cp -f $(BUILD)/bin/$$t $(DESTDIR)$(BINDIR)/ && chmod 755 $(DESTDIR)$(BINDIR)/$$t; done
	cp -R share/. $(DESTDIR)$(SHAREDIR)/
	for m in $(MANPAGES); do s=$${m##*.}; mkdir -p $(DESTDIR)$(MANPREFIX)/man$$s; \
	    cp -f $$m $(DESTDIR)$(MANPREFIX)/man$$s/ && chmod 644 $(DESTDIR)$(MANPREFIX)/man$$s/$${m##*/}; done

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$$t; done
	rm -rf $(DESTDIR)$(SHAREDIR)
	for m in $(MANPAGES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANPREFIX)/man$$s/$${m##*/}; done

clean:
	rm -rf build build-asan build-fuzz build-torture

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
