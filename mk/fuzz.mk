# mk/fuzz.mk - libFuzzer targets (fuzz/, issue 18) built with clang under
# AddressSanitizer + UndefinedBehaviorSanitizer into build/fuzz/.
#   make fuzz         every target for FUZZ_SECONDS (default 300) each, one at a
#                     time (-jobs=1), then per target: executions, cov/ft, findings
#   make fuzz-smoke   every target for FUZZ_SMOKE_SECONDS (default 5) each
# Seeds come from tests/data (small files, or the first 64 KiB of a capture)
# and configs/, made at run time by fuzz/run.sh; findings land in
# build/fuzz/findings/<target>/. The library is compiled again by clang
# (no LTO); the generated sources are the shared build/gen ones.
# .ci/run runs fuzz-smoke after `make test` (compiling the library again under
# clang with the sanitizers takes a few minutes; scripts/install-deps.sh
# installs clang and its fuzzer runtime).

FUZZ_CC        ?= clang
FUZZ_BUILD     := build/fuzz
FUZZ_SECONDS   ?= 300
FUZZ_SMOKE_SECONDS ?= 5
# fuzz-smoke mutates from a fixed seed (fuzz/run.sh FUZZ_SEED): CI's short run
# is then the same inputs on every machine, and a finding there can be
# replayed here; make fuzz takes a new seed each run
FUZZ_SMOKE_SEED ?= 1
FUZZ_TARGETS   := aub machine cs_batch config eu_decode eu_exec eu_fast recording qpu vc4_dump sweep threads
FUZZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS    := -std=c11 -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -Wall -Wextra \
                  -Wno-unused-command-line-argument -Wno-unknown-warning-option -Wno-unknown-pragmas \
                  -fno-strict-aliasing -MMD -MP

# Prerequisites name LIB_SRCS and GEN_SOURCES, which the Makefile and later
# fragments finish after this one is read: expanded a second time.
.SECONDEXPANSION:
fuzz_obj = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(1))
FUZZ_LIB_OBJS   = $(call fuzz_obj,$(LIB_SRCS)) $(patsubst $(GEN)/%.c,$(FUZZ_BUILD)/obj/gen/%.o,$(GEN_SOURCES))
FUZZ_SUPPORT_OBJS := $(call fuzz_obj,fuzz/fuzz_common.c tools/machine.c tests/support/eu_rig.c \
                       tests/support/probes.c)
# the front end's commands (not its main) for fuzz_sweep's sweep_file_check; an
# archive, so a target takes only the members it needs
FUZZ_TOOLS_OBJS = $(call fuzz_obj,$(filter-out tools/gtsim.c tools/machine.c,$(CLI_SRCS)))
FUZZ_BINS      := $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-smoke fuzz-build
# the objects are not intermediates to delete
.PRECIOUS: $(FUZZ_BUILD)/obj/%.o $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o

## fuzz-build: build the libFuzzer targets (clang) into build/fuzz/
fuzz-build: $(FUZZ_BINS) $(FUZZ_BUILD)/gen_dict

## fuzz: run every fuzz target FUZZ_SECONDS (300) each; per target executions, coverage, findings
fuzz: fuzz-build
	@fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## fuzz-smoke: run every fuzz target a few seconds (FUZZ_SMOKE_SECONDS, 5)
fuzz-smoke: fuzz-build
	@FUZZ_SEED=$(FUZZ_SMOKE_SEED) fuzz/run.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

$(FUZZ_BUILD)/libgtsim-fuzz.a: $$(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

$(FUZZ_BUILD)/libgtsim-fuzz-tools.a: $$(FUZZ_TOOLS_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_SUPPORT_OBJS) $(FUZZ_BUILD)/libgtsim-fuzz-tools.a $(FUZZ_BUILD)/libgtsim-fuzz.a
	@echo "  LD      $@"
	@$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LDLIBS)

$(FUZZ_BUILD)/gen_dict: $(FUZZ_BUILD)/obj/fuzz/gen_dict.o $(FUZZ_BUILD)/libgtsim-fuzz.a
	@echo "  LD      $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ $(LDLIBS)

$(FUZZ_BUILD)/obj/fuzz/fuzz_%.o: fuzz/fuzz_%.c | $$(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/obj/gen/%.o: $(GEN)/%.c | $$(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/obj/%.o: %.c | $$(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
