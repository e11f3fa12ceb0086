# mk/workloads_ubench.mk - the peak-rate microbenchmarks (issue 17 item 6):
# kernels written by workloads/kernels/gen_ubench.py, AUBs by gtsim-workload
# (the rules of mk/workloads.mk), run by `make microbench`
# (tools/microbench/microbench.c; not part of `make test`).

UB_NAMES := flops l3bw slmbw drambw texrate
UB_AUBS  := $(patsubst %,$(GEN)/workloads/ubench-%.gen9.aub.gz,$(UB_NAMES))
UB_BIN   := $(BUILD)/gtsim-microbench
UB_OBJS  := $(BUILD)/obj/tools/microbench/microbench.o $(BUILD)/obj/tools/dispatch_stats.o

# the pixel fill rate: a 3D workload (workloads/workload3d.h) whose pixel
# shader is hand-written (workloads/kernels/ubench-fill.gen9.g4a; the
# explicit rule keeps the generated-kernel rule below from claiming it);
# the blend variant uses the same shader
UB_FILL_AUBS := $(GEN)/workloads/ubench-fill.gen9.aub.gz $(GEN)/workloads/ubench-fill-blend.gen9.aub.gz
UB_AUBS  += $(UB_FILL_AUBS)

$(GEN)/workloads/ubench-fill.gen9.hex: workloads/kernels/ubench-fill.gen9.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g 9 -o $@ $<

$(GEN)/workloads/ubench-fill-blend.gen9.aub.gz: $(GEN)/workloads/ubench-fill.gen9.hex $(WL_BIN)
	$(WL_BIN) ubench-fill-blend 9 $< $@

# the same shader assembled for Gen7: the opaque fill as a Gen7 capture of our
# own (issue 14; the mk/workloads.mk rule writes the AUB, run by the test)
UB_FILL_GEN7 := $(GEN)/workloads/ubench-fill.gen7.aub.gz

$(GEN)/workloads/ubench-fill.gen7.hex: workloads/kernels/ubench-fill.gen9.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g 7 -o $@ $<

# and the blended one (om takes Gen7's BLEND_STATE form)
UB_FILL_GEN7 += $(GEN)/workloads/ubench-fill-blend.gen7.aub.gz

$(GEN)/workloads/ubench-fill-blend.gen7.aub.gz: $(GEN)/workloads/ubench-fill.gen7.hex $(WL_BIN)
	$(WL_BIN) ubench-fill-blend 7 $< $@

TEST_DEPS += $(UB_FILL_GEN7)
workloads: $(UB_FILL_GEN7)

$(GEN)/workloads/ubench-%.gen9.g4a: workloads/kernels/gen_ubench.py
	@mkdir -p $(@D)
	$(PYTHON) $< $* 9 $@

$(GEN)/workloads/ubench-%.gen9.hex: $(GEN)/workloads/ubench-%.gen9.g4a
	intel-gen4asm -g 9 -o $@ $<

.SECONDARY: $(UB_AUBS:.aub.gz=.hex) $(UB_AUBS:.aub.gz=.g4a) $(UB_FILL_GEN7:.aub.gz=.hex)

# the CUnit test runs the workloads (tests/integration/test_ubench.c)
TEST_DEPS += $(UB_AUBS)
workloads: $(UB_AUBS)

$(UB_BIN): $(UB_OBJS) $(BUILD)/libgtsim.a
	@echo "  LD      $@"
	@$(CC) $(LDOPT) -o $@ $(UB_OBJS) $(BUILD)/libgtsim.a $(LDLIBS)

.PHONY: microbench
## microbench: peak-rate microbenchmarks on Gen9 GT2 against the seed's figures
microbench: $(UB_BIN) $(UB_AUBS)
	$(UB_BIN)
