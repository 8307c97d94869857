# Fuzz harnesses: every t/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput
# and is built with clang + libFuzzer + ASan/UBSan against common/.  Seed
# corpora live in t/fuzz/corpus/<name>/.  make check-fuzz runs each for
# FUZZ_SECONDS on a scratch copy of its corpus (the tree is never written).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 20
FUZZ_SRC     := $(wildcard t/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:t/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror -Icommon -I$(BUILD) \
                $(YAJL_CFLAGS) -fno-sanitize-recover=all
FUZZ_SAN     := address,undefined
# common/ is compiled once, instrumented for every harness.
FUZZ_OBJ     := $(COMMON_SRC:%.c=$(BUILD)/fuzz/%.o)

$(BUILD)/fuzz/common/%.o: common/%.c $(COMMON_HDR) $(BUILD)/version.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c -o $@ $<

$(BUILD)/fuzz/common/sandbox/seccomp.o: $(BUILD)/seccomp-bpf.h

$(BUILD)/fuzz/%: t/fuzz/%.c $(FUZZ_OBJ)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< $(FUZZ_OBJ) $(YAJL_LIBS) $(SECCOMP_LIBS)

check-fuzz: $(FUZZ_BIN)
	@set -e; for f in $(abspath $(FUZZ_BIN)); do \
	    name=$$(basename $$f); name=$${name#fuzz_}; \
	    work=$$(mktemp -d); mkdir -p $$work/corpus; \
	    if [ -d t/fuzz/corpus/$$name ]; then cp -r t/fuzz/corpus/$$name/. $$work/corpus/; fi; \
	    echo "== fuzz $$name for $(FUZZ_SECONDS)s"; \
	    (cd $$work && $$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 corpus >log 2>&1) \
	        || { tail -40 $$work/log; echo "fuzz $$name: crash (input kept in $$work)"; exit 1; }; \
	    tail -1 $$work/log; rm -rf $$work; \
	done
