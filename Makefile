# gtsim - unit-level hardware model of GPUs.  `make help` lists the targets.
#
# Layout of the build (nothing generated is committed):
#   build/release/   optimised build: libgtsim.a, gtsim, gtsim-tests, gtsim-bench
#   build/san/       the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   build/gen/       generated C (spec pack/unpack, EU tables), shared by both
#
# Modules that generate code or need extra rules add a fragment in mk/*.mk; a
# fragment may append to GEN_HEADERS, GEN_SOURCES and TEST_DEPS and add rules.

SHELL      := /bin/bash
CC         ?= cc
# an archive of LTO objects needs the linker plugin: gcc-ar, not ar
AR         := gcc-ar
PYTHON     ?= python3
SAN        ?= 0
ifeq ($(SAN),1)
BUILD      ?= build/san
# gcc's "undefined" leaves out float-cast-overflow (a float converted to an
# integer type that cannot hold it), which clang's fuzz builds include
OPT        := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow \
              -fno-sanitize-recover=all
LDOPT      := -fsanitize=address,undefined,float-cast-overflow
else ifeq ($(SAN),thread)
BUILD      ?= build/tsan
OPT        := -O1 -fno-omit-frame-pointer -fsanitize=thread
LDOPT      := -fsanitize=thread
else
BUILD      ?= build/release
# Link-time optimisation: the EU, the data port and the CS are split into
# files by concern, and their hot paths cross files (scheduling -> execution
# -> accounting); without LTO that costs about 7% more host instructions on
# SGEMM (callgrind), with it the split costs under 2%.
OPT        := -O2 -flto=auto
LDOPT      := -O2 -flto=auto
endif
GEN        := build/gen

CPPFLAGS   := -I. -I$(GEN) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS     := -std=c11 -g $(OPT) -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wno-format-truncation -fno-strict-aliasing -MMD -MP
LDLIBS     := -lconfig -lz -lm -pthread
TEST_LDLIBS:= -lcunit

GEN_HEADERS :=
GEN_SOURCES :=
TEST_DEPS   :=

-include $(sort $(wildcard mk/*.mk))

LIB_SRCS   := $(sort $(shell find fabric spec isa units -name '*.c' 2>/dev/null))
CLI_SRCS   := $(sort $(wildcard tools/*.c))
BENCH_SRCS := $(sort $(wildcard tools/bench/*.c))
TEST_SRCS  := $(sort $(wildcard tests/*/test_*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJS   := $(call obj,$(LIB_SRCS)) $(patsubst $(GEN)/%.c,$(BUILD)/obj/gen/%.o,$(GEN_SOURCES))
CLI_OBJS   := $(call obj,$(CLI_SRCS))
BENCH_OBJS := $(call obj,$(BENCH_SRCS))
# tests/units/test_eu_disasm.c drives the disasm command itself; the geometry capture
# test builds machines as `gtsim run` does (tools/machine.c); the PNG and images
# writers of `gtsim run --images` are tested directly (tools/png.c, tools/images.c); the fuzz
# targets' regression test runs their findings through fuzz/fuzz_common.c
TEST_OBJS  := $(call obj,$(TEST_SRCS) tests/test_main.c $(wildcard tests/support/*.c) tools/cmd_disasm.c tools/machine.c tools/png.c tools/images.c tools/dispatch_stats.c fuzz/fuzz_common.c)

LIB   := $(BUILD)/libgtsim.a
GTSIM := $(BUILD)/gtsim
TESTS := $(BUILD)/gtsim-tests
BENCH := $(BUILD)/gtsim-bench

.PHONY: all deps run test test-release test-san test-tsan test-slurm bench help clean
.DEFAULT_GOAL := all

all: $(GTSIM) $(TESTS) $(BENCH)

## deps: install the Debian packages gtsim needs (idempotent; apt-get as root)
deps:
	@scripts/install-deps.sh

## run: install deps, build, and run the default workload on configs/gen9-skl-gt2.cfg
run: deps
	@$(MAKE) --no-print-directory $(GTSIM)
	$(GTSIM) run -o out/default

## test: install deps, run every test (RTL co-simulation, then the CUnit suites, then again under ASan + UBSan)
test: deps
	@$(MAKE) --no-print-directory test-cosim
	@$(MAKE) --no-print-directory test-release
	@$(MAKE) --no-print-directory test-san

## test-release: the CUnit suites in the optimised build
test-release: $(TESTS) $(GTSIM) $(TEST_DEPS)
	GTSIM=$(GTSIM) $(TESTS)

## test-san: the CUnit suites under AddressSanitizer + UndefinedBehaviorSanitizer
test-san:
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/san build/san/gtsim-tests build/san/gtsim
	GTSIM=build/san/gtsim ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/san/gtsim-tests

## test-tsan: the host-thread suites under ThreadSanitizer (a data race fails them; ~4 min)
# The suites that tick units on several host threads: the fabric's own
# (sim_threads, in the test process) and the ones that run `gtsim run` at
# 1, 2 and 4 threads and in shuffled tick order (threads, determinism),
# with the ThreadSanitizer gtsim. A race halts the run with a nonzero exit.
TSAN_SUITES := sim_threads threads determinism
test-tsan:
	@$(MAKE) --no-print-directory SAN=thread BUILD=build/tsan build/tsan/gtsim-tests build/tsan/gtsim
	@for suite in $(TSAN_SUITES); do \
	    GTSIM=build/tsan/gtsim TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	        build/tsan/gtsim-tests $$suite || exit 1; \
	done

## test-slurm: gtsim sweep --slurm on a one-node SLURM cluster on localhost (root; installs slurm-wlm, munge)
test-slurm: $(GTSIM)
	scripts/test-slurm.sh $(GTSIM)

## bench: build optimised and print the benchmark figures (targets in the output)
bench: $(BENCH)
	$(BENCH)

## help: this list
help:
	@echo "gtsim make targets:"
	@grep -h '^## ' $(MAKEFILE_LIST) | sed 's/^## //' | awk -F': ' '{ printf "  %-14s %s\n", $$1, $$2 }'

## clean: remove build/ and out/
clean:
	rm -rf build out

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	@echo "  AR      $@"
	@$(AR) rcs $@ $^

$(GTSIM): $(CLI_OBJS) $(LIB)
	@echo "  LD      $@"
	@$(CC) $(LDOPT) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(BENCH): $(BENCH_OBJS) $(LIB)
	@echo "  LD      $@"
	@$(CC) $(LDOPT) -o $@ $(BENCH_OBJS) $(LIB) $(LDLIBS)

# The test runner finds its suites through a generated list: tests/x/test_foo.c
# defines `const struct test_suite test_suite_foo`.
$(BUILD)/tests/suites.h: $(TEST_SRCS) Makefile
	@mkdir -p $(@D)
	@for f in $(TEST_SRCS); do b=$$(basename $$f .c); echo "SUITE(test_suite_$${b#test_})"; done > $@.tmp
	@if ! cmp -s $@.tmp $@; then mv $@.tmp $@; else rm $@.tmp; fi

$(BUILD)/obj/tests/test_main.o: $(BUILD)/tests/suites.h
$(BUILD)/obj/tests/test_main.o: CPPFLAGS += -I$(BUILD)/tests

$(TESTS): $(TEST_OBJS) $(LIB)
	@echo "  LD      $@"
	@$(CC) $(LDOPT) -o $@ $(TEST_OBJS) $(LIB) $(LDLIBS) $(TEST_LDLIBS)

$(BUILD)/obj/%.o: %.c | $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/gen/%.o: $(GEN)/%.c | $(GEN_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
