# mk/cosim.mk - RTL co-simulation (DESIGN.md "RTL co-simulation"): Verilator
# turns rtl-cosim/rtl/*.sv into C++ models; gtsim-cosim is the gtsim CLI with
# the Verilated kinds in its lookup; gtsim-cosim-tests runs the co-simulation
# tests. Everything here is behind `make cosim`: `make all` and `make test` do
# not need Verilator.
#
# Stages as in Verilator's examples: VERILATE (verilator --cc), BUILD (the
# generated Makefile builds the model archive and the Verilator runtime), LINK.
# A flags stamp rebuilds the models when the Verilator options change.

VERILATOR      ?= verilator
CXX            ?= g++
VL_ROOT         = $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
# COSIM_COVERAGE=1 (make cosim-coverage): the same binaries in $(BUILD)/cosim-cov
# with Verilator's line and toggle coverage; each model writes its counts at exit
# when GTSIM_COSIM_COVERAGE_DIR is set (verilated_model.h).
COSIM_DIR      := $(BUILD)/cosim$(if $(filter 1,$(COSIM_COVERAGE)),-cov)
COSIM_VFLAGS   := --cc --trace-fst -Wall --x-assign fast --x-initial fast -O3
ifeq ($(COSIM_COVERAGE),1)
COSIM_VFLAGS   += --coverage-line --coverage-toggle
endif
COSIM_COV_RT   := $(if $(filter 1,$(COSIM_COVERAGE)),verilated_cov.o)
COSIM_VMAKE    := OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2
COSIM_CXXFLAGS  = -std=c++17 -g -O2 -Wall -Wno-unused-parameter -I. -I$(GEN) -I$(COSIM_DIR)/Vcs_alu \
                  -I$(COSIM_DIR)/Vcs_alu_broken -I$(COSIM_DIR)/Vl3_slice -I$(COSIM_DIR)/Vl3_slice_broken \
                  -I$(COSIM_DIR)/Vfpu_pipe -I$(COSIM_DIR)/Vfpu_pipe_broken \
                  -I$(COSIM_DIR)/Vom_pixel -I$(COSIM_DIR)/Vom_pixel_broken \
                  -I$(COSIM_DIR)/Vqpu_alu -I$(COSIM_DIR)/Vqpu_alu_broken \
                  -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd \
                  -DVM_TRACE=1 -DVM_TRACE_FST=1 -MMD -MP \
                  $(if $(filter 1,$(COSIM_COVERAGE)),-DVM_COVERAGE=1)

COSIM_RTL      := rtl-cosim/rtl/cs_alu.sv rtl-cosim/rtl/l3_slice.sv rtl-cosim/rtl/fpu_pipe.sv \
                  rtl-cosim/rtl/om_pixel.sv rtl-cosim/rtl/qpu_alu.sv
COSIM_MODEL     := $(COSIM_DIR)/Vcs_alu/Vcs_alu__ALL.a $(COSIM_DIR)/Vl3_slice/Vl3_slice__ALL.a \
                   $(COSIM_DIR)/Vfpu_pipe/Vfpu_pipe__ALL.a $(COSIM_DIR)/Vom_pixel/Vom_pixel__ALL.a \
                   $(COSIM_DIR)/Vqpu_alu/Vqpu_alu__ALL.a
COSIM_MODEL_BAD := $(COSIM_DIR)/Vcs_alu_broken/Vcs_alu_broken__ALL.a \
                   $(COSIM_DIR)/Vl3_slice_broken/Vl3_slice_broken__ALL.a \
                   $(COSIM_DIR)/Vfpu_pipe_broken/Vfpu_pipe_broken__ALL.a \
                   $(COSIM_DIR)/Vom_pixel_broken/Vom_pixel_broken__ALL.a \
                   $(COSIM_DIR)/Vqpu_alu_broken/Vqpu_alu_broken__ALL.a
COSIM_VLRT     := $(addprefix $(COSIM_DIR)/Vcs_alu/,verilated.o verilated_fst_c.o verilated_threads.o \
                  $(COSIM_COV_RT))
COSIM_CXX_OBJS := $(COSIM_DIR)/obj/cs_alu_rtl.o $(COSIM_DIR)/obj/l3_rtl.o $(COSIM_DIR)/obj/fpu_rtl.o \
                  $(COSIM_DIR)/obj/om_rtl.o $(COSIM_DIR)/obj/qpu_alu_rtl.o
# The C side of the co-simulation builds like the rest of gtsim (the Makefile's
# $(BUILD)/obj/%.o rule, its CFLAGS and dependency files).
COSIM_C_SRCS   := $(sort $(wildcard rtl-cosim/*.c))
COSIM_C_OBJS   := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out rtl-cosim/gtsim_cosim.c,$(COSIM_C_SRCS)))
COSIM_MAIN_OBJ := $(BUILD)/obj/rtl-cosim/gtsim_cosim.o
COSIM_TEST_OBJ := $(BUILD)/obj/rtl-cosim/tests/cosim_tests.o
COSIM_CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out tools/gtsim.c,$(wildcard tools/*.c)))
COSIM_RT_OBJS  := $(COSIM_CXX_OBJS) $(COSIM_MODEL) $(COSIM_MODEL_BAD) $(COSIM_VLRT)
COSIM_LDLIBS   := -lconfig -lz -lm -pthread

COSIM_BIN      := $(COSIM_DIR)/gtsim-cosim
COSIM_TESTS    := $(COSIM_DIR)/gtsim-cosim-tests

.PHONY: cosim test-cosim cosim-bench cosim-lint cosim-coverage cosim-mutate cosim-coverage-probe

## cosim: verilate rtl-cosim/rtl and build gtsim-cosim and gtsim-cosim-tests (needs verilator)
cosim: $(COSIM_BIN) $(COSIM_TESTS)

## test-cosim: co-simulation tests (1M+ random ALU ops, 300k L3 messages, the slice L3 in real machines, 1M FPU ops in lockstep, 1M QPU ALU instructions and GPU_FFT in lockstep, BROKEN RTLs caught, replay)
test-cosim: cosim $(GEN)/workloads/sgemm.gen9.aub.gz
	@echo "-- RUN --"
	$(COSIM_TESTS)

## cosim-bench: co-simulation throughput (ALU ops/s, L3 requests/s, SGEMM GPU cycles/s with the L3 RTL, QPU ALU instructions/s and GPU_FFT cycles/s with the QPU RTL, om, FPU ops/s) against the C units alone
cosim-bench: cosim $(GEN)/workloads/sgemm.gen9.aub.gz
	$(COSIM_BIN) bench

## cosim-coverage: line and toggle coverage of every RTL block under the co-simulation tests ($(BUILD)/cosim-cov/report.txt)
cosim-coverage: $(GEN)/workloads/sgemm.gen9.aub.gz
	@$(MAKE) --no-print-directory COSIM_COVERAGE=1 cosim
	@rm -rf $(BUILD)/cosim-cov/data && mkdir -p $(BUILD)/cosim-cov/data
	GTSIM_COSIM_COVERAGE_DIR=$(BUILD)/cosim-cov/data $(BUILD)/cosim-cov/gtsim-cosim-tests $(COSIM_COVERAGE_SUITE)
	@cd $(BUILD)/cosim-cov/data && ls | xargs verilator_coverage --write ../merged.dat
	@rm -rf $(BUILD)/cosim-cov/annotated
	@verilator_coverage --annotate $(BUILD)/cosim-cov/annotated --annotate-min 1 \
	    $(BUILD)/cosim-cov/merged.dat > /dev/null
	@python3 rtl-cosim/tools/coverage_report.py $(BUILD)/cosim-cov/merged.dat \
	    | tee $(BUILD)/cosim-cov/report.txt

## cosim-coverage-probe: does this Verilator count a function's case arms that end in a return? (rtl-cosim/tools/coverage_return_arms.sv; cosim-coverage's "uncountable" lines)
COSIM_PROBE_DIR := $(BUILD)/cosim-coverage-probe
cosim-coverage-probe:
	@rm -rf $(COSIM_PROBE_DIR) && mkdir -p $(COSIM_PROBE_DIR)
	@$(VERILATOR) $(filter-out --trace-fst,$(COSIM_VFLAGS)) --coverage-line --coverage-toggle \
	    --exe --build -j 1 -Mdir $(COSIM_PROBE_DIR)/obj $(COSIM_VMAKE:%=-MAKEFLAGS %) \
	    $(CURDIR)/rtl-cosim/tools/coverage_return_arms.cpp rtl-cosim/tools/coverage_return_arms.sv >/dev/null
	$(COSIM_PROBE_DIR)/obj/Vcoverage_return_arms $(COSIM_PROBE_DIR)/coverage.dat

## cosim-mutate: mutation testing of the RTL blocks, one schemata build a block (MUTANTS per block or all, BLOCKS=om_pixel,..., MUTATE_FLAGS=--one-build-per-mutant for the old path): score per block ($(BUILD)/cosim-mutate/report.txt)
MUTANTS ?= 150
BLOCKS  ?= qpu_alu,om_pixel,cs_alu,fpu_pipe,l3_slice
MUTATE_FLAGS ?=
cosim-mutate: cosim
	nice python3 rtl-cosim/tools/mutate.py --build $(BUILD) --blocks $(BLOCKS) --mutants $(MUTANTS) \
	    --out $(BUILD)/cosim-mutate $(MUTATE_FLAGS)

# What rtl-cosim/tools/mutate.py needs to relink gtsim-cosim around a mutant.
cosim-link-vars:
	@echo "CXX=$(CXX)"
	@echo "CXXFLAGS=$(COSIM_CXXFLAGS)"
	@echo "VFLAGS=$(COSIM_VFLAGS)"
	@echo "VMAKE=$(COSIM_VMAKE)"
	@echo "COSIM_DIR=$(COSIM_DIR)"
	@echo "OBJS=$(COSIM_MAIN_OBJ) $(COSIM_C_OBJS) $(COSIM_CLI_OBJS)"
	@echo "CXX_OBJS=$(COSIM_CXX_OBJS)"
	@echo "MODELS=$(COSIM_MODEL) $(COSIM_MODEL_BAD)"
	@echo "MODELS_BAD=$(COSIM_MODEL_BAD)"
	@echo "COSIM_C_OBJS=$(COSIM_C_OBJS)"
	@echo "VLRT=$(COSIM_VLRT)"
	@echo "LIBS=$(BUILD)/libgtsim.a $(COSIM_LDLIBS)"
	@echo "LDOPT=$(LDOPT)"
.PHONY: cosim-link-vars

## cosim-lint: verilator --lint-only -Wall on the RTL, as written and with BROKEN
cosim-lint:
	for f in $(COSIM_RTL); do $(VERILATOR) --lint-only -Wall $$f && \
	    $(VERILATOR) --lint-only -Wall -DBROKEN $$f || exit 1; done

$(COSIM_DIR)/vflags.stamp: FORCE_COSIM_STAMP
	@command -v $(VERILATOR) >/dev/null || { echo "make cosim: '$(VERILATOR)' not found;" \
	    "install it with make deps (Debian package verilator)" >&2; exit 1; }
	@mkdir -p $(@D)
	@printf '%s\n' "$(COSIM_VFLAGS) $(COSIM_VMAKE)" > $@.tmp
	@if ! cmp -s $@.tmp $@; then mv $@.tmp $@; else rm $@.tmp; fi
.PHONY: FORCE_COSIM_STAMP

# $(1): prefix, $(2): extra verilator flags, $(3): extra targets of the generated Makefile,
# $(4): the source
define COSIM_VERILATE
$(COSIM_DIR)/$(1)/$(1)__ALL.a $(if $(3),$(addprefix $(COSIM_DIR)/$(1)/,$(3))) &: $(4) $(COSIM_DIR)/vflags.stamp
	@echo "-- VERILATE -- $(1)"
	@rm -rf $(COSIM_DIR)/$(1)
	@$(VERILATOR) $(COSIM_VFLAGS) $(2) --prefix $(1) -Mdir $(COSIM_DIR)/$(1) $(4)
	@echo "-- BUILD -- $(1)"
	@$$(MAKE) --no-print-directory -s -C $(COSIM_DIR)/$(1) -f $(1).mk $(COSIM_VMAKE) $(1)__ALL.a $(3) >/dev/null
endef
$(eval $(call COSIM_VERILATE,Vcs_alu,,verilated.o verilated_fst_c.o verilated_threads.o $(COSIM_COV_RT),rtl-cosim/rtl/cs_alu.sv))
$(eval $(call COSIM_VERILATE,Vcs_alu_broken,-DBROKEN,,rtl-cosim/rtl/cs_alu.sv))
$(eval $(call COSIM_VERILATE,Vl3_slice,,,rtl-cosim/rtl/l3_slice.sv))
$(eval $(call COSIM_VERILATE,Vl3_slice_broken,-DBROKEN,,rtl-cosim/rtl/l3_slice.sv))
$(eval $(call COSIM_VERILATE,Vfpu_pipe,,,rtl-cosim/rtl/fpu_pipe.sv))
$(eval $(call COSIM_VERILATE,Vfpu_pipe_broken,-DBROKEN,,rtl-cosim/rtl/fpu_pipe.sv))
$(eval $(call COSIM_VERILATE,Vom_pixel,,,rtl-cosim/rtl/om_pixel.sv))
$(eval $(call COSIM_VERILATE,Vom_pixel_broken,-DBROKEN,,rtl-cosim/rtl/om_pixel.sv))
$(eval $(call COSIM_VERILATE,Vqpu_alu,,,rtl-cosim/rtl/qpu_alu.sv))
$(eval $(call COSIM_VERILATE,Vqpu_alu_broken,-DBROKEN,,rtl-cosim/rtl/qpu_alu.sv))

$(COSIM_DIR)/obj/%.o: rtl-cosim/%.cpp $(COSIM_MODEL) $(COSIM_MODEL_BAD)
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	@$(CXX) $(COSIM_CXXFLAGS) -c -o $@ $<

$(COSIM_BIN): $(COSIM_MAIN_OBJ) $(COSIM_C_OBJS) $(COSIM_CLI_OBJS) $(COSIM_RT_OBJS) $(BUILD)/libgtsim.a
	@echo "-- LINK -- $@"
	@$(CXX) $(LDOPT) -o $@ $(COSIM_MAIN_OBJ) $(COSIM_C_OBJS) $(COSIM_CLI_OBJS) $(COSIM_RT_OBJS) \
	    $(BUILD)/libgtsim.a $(COSIM_LDLIBS)

$(COSIM_TESTS): $(COSIM_TEST_OBJ) $(COSIM_C_OBJS) $(COSIM_RT_OBJS) $(BUILD)/libgtsim.a
	@echo "-- LINK -- $@"
	@$(CXX) $(LDOPT) -o $@ $(COSIM_TEST_OBJ) $(COSIM_C_OBJS) $(COSIM_RT_OBJS) \
	    $(BUILD)/libgtsim.a $(COSIM_LDLIBS) -lcunit

-include $(wildcard $(COSIM_DIR)/obj/*.d)
