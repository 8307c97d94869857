# sphereceti — build, test, install.  Out-of-tree: everything goes to $(BUILD).
# Parallel developers can use separate build folders: make BUILD=build-x check
#
# Distribution builds: CPPFLAGS, CFLAGS and LDFLAGS reach every compile and
# link (dpkg-buildflags' hardening flags included); warnings are errors only
# for development and CI (DEVELOPER=1, which `make check` sets).  Install
# paths: prefix, bindir, libexecdir, mandir, datadir, bashcompdir, DESTDIR;
# `make uninstall`.

BUILD   ?= build
PREFIX  ?= /usr/local
prefix     ?= $(PREFIX)
bindir     ?= $(prefix)/bin
libexecdir ?= $(prefix)/libexec
mandir     ?= $(prefix)/share/man
datadir    ?= $(prefix)/share
# Where bash-completion looks, under our datadir (its pkg-config file says
# ${datadir}/bash-completion/completions).
bashcompdir ?= $(shell pkg-config --define-variable=datadir='$(datadir)' --variable=completionsdir bash-completion 2>/dev/null || echo '$(datadir)/bash-completion/completions')
CC      ?= cc
CFLAGS  ?= -O2 -g
SAN     ?=
DEVELOPER ?=
VERSION := 0.1.0

YAJL_CFLAGS  := $(shell pkg-config --cflags yajl 2>/dev/null)
YAJL_LIBS    := $(shell pkg-config --libs yajl 2>/dev/null || echo -lyajl)
# The sandbox's seccomp filter is compiled to BPF once, at build time
# (common/gen/seccomp-bpf.c): only that helper and the unit tests link
# libseccomp, no program does.
SECCOMP_CFLAGS := $(shell pkg-config --cflags libseccomp 2>/dev/null)
SECCOMP_LIBS   := $(shell pkg-config --libs libseccomp 2>/dev/null || echo -lseccomp)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

WARN = -Wall -Wextra $(if $(DEVELOPER),-Wvla -Wshadow -Werror)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Icommon -I$(BUILD) \
             $(YAJL_CFLAGS) $(SECCOMP_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(SAN)
ALL_LDFLAGS = $(SAN) $(LDFLAGS)

# common/ in layer folders (common/README): includes name the folder,
# "util/strbuf.h"; gen/ holds build-time helpers, not library code.
COMMON_SRC := $(filter-out common/gen/%,$(wildcard common/*/*.c))
COMMON_HDR := $(wildcard common/*/*.h)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o)
COMMON_LIB := $(BUILD)/libsccommon.a

# Every cmd/X.c is an executable X.  The standalone programs run between
# GNU time and the candidate: the host step (sc-confine), the sandbox's
# PID 1 (sc-pid1) and the self-test's probe, its command (sc-sandbox-probe).
# They are static, with nothing of the library but its one argv number
# parser and error line, because they run inside the sandbox or right
# before it: nothing they load can come from what candidate code touched.
# They go to libexec, not bin.
STANDALONE     := sc-confine sc-pid1 sc-sandbox-probe
STANDALONE_LIB := common/util/die.c common/util/decimal.c common/util/fdkeep.c
CMD_SRC   := $(filter-out $(STANDALONE:%=cmd/%.c),$(wildcard cmd/*.c))
CMD_BIN   := $(CMD_SRC:cmd/%.c=$(BUILD)/%)
LIBEXEC_BIN := $(patsubst cmd/%.c,$(BUILD)/%,$(wildcard $(STANDALONE:%=cmd/%.c)))
UNIT_SRC  := $(wildcard t/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:t/unit/%.c=$(BUILD)/t/unit/%)
MAN_SRC   := $(wildcard man/*.1)
# sc-profile-run(1) is sphereceti(1) under the program's own name, written at
# build time: a `.so` alias in man/ could not be rendered from the source tree.
MAN_PAGES := $(MAN_SRC:man/%=$(BUILD)/man/man1/%) $(BUILD)/man/man1/sc-profile-run.1
# The pages' footer date: SOURCE_DATE_EPOCH (reproducible builds), else the
# last commit, else today.
MAN_DATE  := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)

.PHONY: all check check-unit check-bats check-lint check-workflows check-layers check-shape check-load check-asan check-valgrind check-fuzz \
        bench demo install uninstall clean fixture deps man check-mutants check-recipe
all: $(CMD_BIN) $(LIBEXEC_BIN) man

# Every compile depends on the flags it used: a build with other CFLAGS (or
# DEVELOPER=1) recompiles instead of mixing objects.
$(BUILD)/build-flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# Pages with the version and date in their footer; `sphereceti help` reads
# them here in the build tree.
man: $(MAN_PAGES)
$(BUILD)/man/man1/%.1: man/%.1 Makefile
	@mkdir -p $(@D)
	@sed -e 's/@VERSION@/$(VERSION)/g' -e 's/@DATE@/$(MAN_DATE)/g' $< > $@.tmp && mv $@.tmp $@
$(BUILD)/man/man1/sc-profile-run.1: man/sphereceti.1 Makefile
	@mkdir -p $(@D)
	@sed -e 's/@VERSION@/$(VERSION)/g' -e 's/@DATE@/$(MAN_DATE)/g' $< > $@.tmp && mv $@.tmp $@

$(BUILD)/version.h: Makefile
	@mkdir -p $(@D)
	@printf '#define SC_VERSION "%s"\n' '$(VERSION)' > $@.tmp && mv $@.tmp $@

# Where install puts sc-pid1 (and its siblings) and the pages, for the programs that look
# there when the relative layout (../libexec, ../share/man) does not hold.
$(BUILD)/paths.h: FORCE
	@mkdir -p $(@D)
	@printf '#define SC_LIBEXECDIR "%s"\n#define SC_MANDIR "%s"\n' '$(libexecdir)' '$(mandir)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/sphereceti $(BUILD)/sc-sandbox-exec: $(BUILD)/paths.h

$(BUILD)/common/%.o: common/%.c $(COMMON_HDR) $(BUILD)/version.h $(BUILD)/build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(COMMON_LIB): $(COMMON_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%: cmd/%.c $(COMMON_LIB) $(COMMON_HDR) $(BUILD)/version.h $(BUILD)/build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(COMMON_LIB) $(YAJL_LIBS) $(ALL_LDFLAGS)

# The standalone programs: no sanitizer runtime, static so that they need
# nothing from the sandbox's /usr; of common/ they include only util/die,
# util/decimal, util/fdkeep and the header-only protocol words and mount
# points (contract/initproto.h, contract/scratch.h).
$(LIBEXEC_BIN): $(BUILD)/%: cmd/%.c $(STANDALONE_LIB) $(STANDALONE_LIB:.c=.h) common/contract/initproto.h common/contract/scratch.h $(BUILD)/version.h $(BUILD)/build-flags
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -Icommon -I$(BUILD) $(CPPFLAGS) $(CFLAGS) -static -o $@ $< $(STANDALONE_LIB) $(LDFLAGS)

# The profiler's own source tree ID, embedded in sc-plan (profile.tooling).
# Recomputed on every make; the header is replaced only when the ID changes,
# so unchanged sources rebuild nothing.
$(BUILD)/gen/srctree-id: common/gen/srctree-id.c $(COMMON_LIB) $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(COMMON_LIB) $(YAJL_LIBS) $(ALL_LDFLAGS)

$(BUILD)/srctree-id.h: $(BUILD)/gen/srctree-id FORCE
	@$(BUILD)/gen/srctree-id > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/sc-plan $(BUILD)/sc-setup: $(BUILD)/srctree-id.h
FORCE:

# The CI recipe that `sphereceti init` writes into a project, carried in
# sc-setup itself: its text is this build's.
$(BUILD)/gen/embed: common/gen/embed.c $(COMMON_LIB) $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(COMMON_LIB) $(ALL_LDFLAGS)

$(BUILD)/workflows.h: $(BUILD)/gen/embed contrib/github/profile.yml contrib/github/deps.yml
	$(BUILD)/gen/embed sc_workflow_profile=contrib/github/profile.yml \
	    sc_workflow_deps=contrib/github/deps.yml > $@.tmp && mv $@.tmp $@

$(BUILD)/sc-setup: $(BUILD)/workflows.h

# The seccomp filter's BPF, from the rule table (sandbox/seccomp_rules.c),
# built by libseccomp for this machine's architecture.
$(BUILD)/gen/seccomp-bpf: common/gen/seccomp-bpf.c common/sandbox/seccomp_rules.c \
                          common/sandbox/seccomp_rules.h $(BUILD)/build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ common/gen/seccomp-bpf.c common/sandbox/seccomp_rules.c $(SECCOMP_LIBS) $(ALL_LDFLAGS)

$(BUILD)/seccomp-bpf.h: $(BUILD)/gen/seccomp-bpf
	$(BUILD)/gen/seccomp-bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/common/sandbox/seccomp.o: $(BUILD)/seccomp-bpf.h

$(BUILD)/t/unit/%: t/unit/%.c $(COMMON_LIB) $(COMMON_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(COMMON_LIB) $(YAJL_LIBS) $(SECCOMP_LIBS) $(CHECK_LIBS) $(ALL_LDFLAGS)

-include t/fixture/fixture.mk
-include t/fuzz/fuzz.mk

# On a fresh Debian machine, as root, `make check` first installs what is
# missing; the inner make then sees the installed libraries' flags.
check: deps
	$(MAKE) DEVELOPER=1 check-lint check-layers check-shape check-unit check-bats

# Test shapes that cannot fail, sleep-ordering, checkout paths (t/lint/lint.py).
# contrib/github's workflows replayed on a root shaped like GitHub's
# ubuntu-24.04 runner (t/recipe/check.sh); root only.
check-recipe: all fixture
	BUILD=$(abspath $(BUILD)) bash t/recipe/check.sh

check-lint:
	/usr/bin/python3 t/lint/lint.py
	/usr/bin/python3 t/lint/doccite.py

# `make check` three times beside two CPU burners; fails if any run fails
# (LOAD_RUNS=N runs, LOAD_TARGET=check-asan the sanitizer suite instead).
check-load:
	MAKE='$(MAKE)' bash t/check-load.sh BUILD=$(BUILD)

# actionlint and shellcheck on contrib/github/*.yml (t/lint/workflows.py;
# t/github.bats runs it too).
check-workflows:
	/usr/bin/python3 t/lint/workflows.py

# common/'s include direction and no include cycle (t/lint/layers.py).
check-layers:
	/usr/bin/python3 t/lint/layers.py

# cmd/ files short, functions short, one option table (t/lint/shape.py).
check-shape:
	/usr/bin/python3 t/lint/shape.py

deps:
	@if [ "$$(id -u)" = 0 ] && command -v dpkg-query >/dev/null; then bash contrib/install-deps.sh all; fi

check-unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; CK_FORK=yes $$t; done

# The suites side by side: BATS_JOBS files at once (GNU parallel), the
# heaviest first so that no long file starts last.  Within a file, tests run
# one at a time: bats 1.8's in-file scheduler polls a semaphore (a find, a
# flock and a bash per test, a `sleep 1` while the slots are full), which
# cost a quarter of a CPU-second per test, a sixth of the suite (t/README).
# BATS_WITHIN_FILE=1 also runs BATS_JOBS tests of each file at once (a file
# unsafe within itself sets BATS_NO_PARALLELIZE_WITHIN_FILE): the load pass
# (t/check-load.sh) runs so, to show every file stays safe beside itself.
# BATS_JOBS=1: one test at a time.
# Without GNU parallel (bats --jobs needs it) one test at a time.
BATS_JOBS ?= $(if $(shell command -v parallel 2>/dev/null),$(shell nproc 2>/dev/null || echo 1),1)
BATS_HEAVY = t/profile-run.bats t/faults.bats t/report.bats t/sandbox.bats t/fixture.bats t/replay.bats t/github.bats t/plan.bats
BATS_FILES = $(BATS_HEAVY) $(filter-out $(BATS_HEAVY),$(sort $(wildcard t/*.bats)))
check-bats: all fixture
	SC_BIN=$(abspath $(BUILD)) SC_FIXTURE=$(abspath $(BUILD))/fixture SC_MAN=$(abspath $(BUILD))/man \
	    bats $(if $(filter-out 1,$(BATS_JOBS)),--jobs $(BATS_JOBS) $(if $(filter 1,$(BATS_WITHIN_FILE)),,--no-parallelize-within-files)) \
	    $(BATS_FLAGS) $(BATS_FILES)

# Same suite, own build folder, sanitizers on; leaks are errors too.
check-asan:
	$(MAKE) BUILD=$(BUILD)-asan SAN='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 check

# Memcheck: the unit tests, then the CLI suites with each tool replaced by a
# script of the same name that execs valgrind on the real binary (SC_BIN
# points at those scripts).  A tool finds its sibling stages through
# /proc/self/exe, i.e. in the real build folder, so stages started by a tool
# (profile-run's, the dispatcher's exec) run natively: each tool is checked
# where a test calls it directly.  The standalone programs are static and
# run around or inside bwrap: they stay native.  Errors and definite leaks make valgrind exit 99 (the
# test fails) and leave a log in $(BUILD)-vg/logs, which must stay empty.
# SC_VALGRIND=1 tells the tests that memory and time bounds are valgrind's.
VALGRIND ?= valgrind
VG_FLAGS := --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
            --show-leak-kinds=definite
VG_DIR = $(abspath $(BUILD))-vg

check-valgrind: all fixture $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== valgrind $$t"; \
	    CK_FORK=no $(VALGRIND) $(VG_FLAGS) $$t; done
	@rm -rf $(VG_DIR) && mkdir -p $(VG_DIR)/logs
	@for b in $(abspath $(CMD_BIN)); do \
	    n=$$(basename $$b); \
	    printf '#!/bin/sh\nexec %s %s --log-file=%s/logs/%s.%%p.log %s "$$@"\n' \
	        '$(VALGRIND)' '$(VG_FLAGS)' '$(VG_DIR)' "$$n" "$$b" >$(VG_DIR)/$$n; \
	    chmod +x $(VG_DIR)/$$n; \
	done
	@rc=0; SC_VALGRIND=1 SC_BIN=$(VG_DIR) SC_FIXTURE=$(abspath $(BUILD))/fixture SC_MAN=$(abspath $(BUILD))/man \
	    bats $(BATS_FLAGS) t/*.bats || rc=$$?; \
	 echo "$$(ls $(VG_DIR)/logs | wc -l) tool runs under valgrind"; \
	 find $(VG_DIR)/logs -type f -empty -delete; \
	 if [ -n "$$(ls -A $(VG_DIR)/logs)" ]; then cat $(VG_DIR)/logs/*; \
	     echo "valgrind found errors or leaks (logs in $(VG_DIR)/logs)"; exit 1; fi; \
	 exit $$rc

# Each rule of Documentation/ broken once, in a scratch copy: some listed test
# must notice (t/mutants/mutants.tsv; MUTANTS=regex runs only those).
check-mutants:
	bash t/mutants/run.sh '$(MUTANTS)'

bench: all fixture
	@set -e; for b in t/bench/*.sh; do echo "== $$b"; SC_BIN=$(abspath $(BUILD)) SC_FIXTURE=$(abspath $(BUILD))/fixture bash $$b; done

demo:
	bash contrib/demo.sh

# sc-sandbox-exec finds the standalone programs (sc-pid1 and its siblings) at
# ../libexec/sphereceti/ from its own folder, else in
# $(libexecdir)/sphereceti; `sphereceti help` the pages at
# ../share/man/man1/, else in $(mandir)/man1, else on man's own path.  Both
# paths are built in: give the same libexecdir and mandir to make and to
# make install.
install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libexecdir)/sphereceti $(DESTDIR)$(mandir)/man1
	install -m 755 $(CMD_BIN) $(DESTDIR)$(bindir)/
	$(if $(LIBEXEC_BIN),install -m 755 $(LIBEXEC_BIN) $(DESTDIR)$(libexecdir)/sphereceti/)
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(mandir)/man1/
	install -d $(DESTDIR)$(bashcompdir)
	install -m 644 contrib/completion/sphereceti.bash $(DESTDIR)$(bashcompdir)/sphereceti
	for p in $(filter-out sphereceti,$(notdir $(CMD_BIN))); do ln -sf sphereceti $(DESTDIR)$(bashcompdir)/$$p; done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,$(notdir $(CMD_BIN))) \
	      $(addprefix $(DESTDIR)$(libexecdir)/sphereceti/,$(notdir $(LIBEXEC_BIN))) \
	      $(addprefix $(DESTDIR)$(mandir)/man1/,$(notdir $(MAN_PAGES))) \
	      $(addprefix $(DESTDIR)$(bashcompdir)/,$(notdir $(CMD_BIN)))
	-rmdir $(DESTDIR)$(libexecdir)/sphereceti

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-vg
