# mk/workloads.mk - the project's own GPGPU workloads (workloads/workload.h):
# kernels workloads/kernels/<name>.gen<N>.g4a assembled by intel-gen4asm
# (Debian intel-gpu-tools) into build/gen/workloads/<name>.gen<N>.hex, then
# written as AUBs build/gen/workloads/<name>.gen<N>.aub.gz by gtsim-workload,
# which the integration tests (tests/integration/test_workloads.c) and the
# SGEMM bench (tools/bench/bench_sgemm.c) run. The Gen7 compute kernels
# (cs-*.gen7.g4a, workloads/workload7.c) go through the same rules. The SGEMM kernel is generated
# first (its K loop unrolled: intel-gen4asm has no macros) by
# workloads/kernels/gen_sgemm.py. (eu_gen_of comes from mk/eu.mk.)

WL_SRCS := $(sort $(wildcard workloads/*.c))
WL_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(WL_SRCS))
WL_BIN  := $(BUILD)/gtsim-workload
WL_G4A  := $(sort $(wildcard workloads/kernels/*.g4a))
WL_HEX  := $(patsubst workloads/kernels/%.g4a,$(GEN)/workloads/%.hex,$(WL_G4A)) \
           $(GEN)/workloads/sgemm.gen8.hex $(GEN)/workloads/sgemm.gen9.hex \
           $(GEN)/workloads/sgemm256.gen9.hex
WL_AUBS := $(WL_HEX:.hex=.aub.gz) $(GEN)/workloads/histogram-indirect.gen9.aub.gz

$(GEN)/workloads/histogram-indirect.gen9.aub.gz: $(GEN)/workloads/histogram.gen9.hex $(WL_BIN)
	$(WL_BIN) histogram-indirect 9 $< $@

$(GEN)/workloads/sgemm.gen%.g4a: workloads/kernels/gen_sgemm.py
	@mkdir -p $(@D)
	$(PYTHON) $< $* 64 $@ 64

$(GEN)/workloads/sgemm.gen%.hex: $(GEN)/workloads/sgemm.gen%.g4a
	intel-gen4asm -g $* -o $@ $<

# the bench's large problem: N = 256 columns (workloads/workload.h "sgemm256")
$(GEN)/workloads/sgemm256.gen%.g4a: workloads/kernels/gen_sgemm.py
	@mkdir -p $(@D)
	$(PYTHON) $< $* 64 $@ 256

$(GEN)/workloads/sgemm256.gen%.hex: $(GEN)/workloads/sgemm256.gen%.g4a
	intel-gen4asm -g $* -o $@ $<

$(GEN)/workloads/%.hex: workloads/kernels/%.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g $(call eu_gen_of,$<) -o $@ $<

$(GEN)/workloads/%.aub.gz: $(GEN)/workloads/%.hex $(WL_BIN)
	$(WL_BIN) $(firstword $(subst ., ,$*)) $(call eu_gen_of,$<) $< $@

# the ext suite's compute_big at its full size (1,048,576 floats, cs-big's
# kernel; workloads/workload.h "cs-big-full"): written and run by test-slow
WL_BIG_FULL := $(GEN)/workloads/cs-big-full.gen7.aub.gz
$(WL_BIG_FULL): $(GEN)/workloads/cs-big.gen7.hex $(WL_BIN)
	$(WL_BIN) cs-big-full 7 $< $@

.PHONY: test-slow
## test-slow: the tests kept out of test-release for their size (Gen7 compute_big, 1M floats)
test-slow: $(TESTS) $(GTSIM) $(TEST_DEPS) $(WL_BIG_FULL)
	GTSIM=$(GTSIM) $(TESTS) workloads "Gen7 compute_big, 1048576 floats (make test-slow)"

# the Gen4 ext counterparts (workloads/workload3d.h): instanced,
# blend-stencil, multi-rt and fill-heavy run strip-fan's kernels
WL_GEN4 := $(GEN)/workloads/instanced.gen4.aub.gz $(GEN)/workloads/blend-stencil.gen4.aub.gz \
	$(GEN)/workloads/multi-rt.gen4.aub.gz $(GEN)/workloads/fill-heavy.gen4.aub.gz
$(WL_GEN4): $(GEN)/workloads/%.gen4.aub.gz: $(GEN)/workloads/strip-fan.gen4.hex $(WL_BIN)
	$(WL_BIN) $* 4 $< $@
TEST_DEPS += $(WL_GEN4)
workloads: $(WL_GEN4)

# the Gen4 mipmap scene (workloads/workload3d.h "mipmap") runs strip-fan's VS:
# its two kernels follow strip-fan's six in one assembled file
$(GEN)/workloads/mipmap.gen4.hex: workloads/kernels/strip-fan.gen4.g4a workloads/kernels/mipmap.gen4.g4a
	@mkdir -p $(@D)
	cat $^ > $(GEN)/workloads/mipmap.gen4.joined.g4a
	intel-gen4asm -g 4 -o $@ $(GEN)/workloads/mipmap.gen4.joined.g4a

$(WL_BIN): $(WL_OBJS) $(BUILD)/libgtsim.a
	@echo "  LD      $@"
	@$(CC) $(LDOPT) -o $@ $(WL_OBJS) $(BUILD)/libgtsim.a $(LDLIBS)

.SECONDARY: $(WL_HEX) $(WL_HEX:.hex=.g4a)

TEST_DEPS += $(WL_AUBS)

.PHONY: workloads
## workloads: assemble the workload kernels and write their AUBs (build/gen/workloads)
workloads: $(WL_AUBS)

# make bench runs the SGEMM workload too (tools/bench/bench_sgemm.c)
bench: $(GEN)/workloads/sgemm.gen9.aub.gz $(GEN)/workloads/sgemm256.gen9.aub.gz

# the Gen7 ext scene blend-stencil runs strip-fan's shaders
# (workloads/workload3d.h "blend-stencil")
WL_BLEND_STENCIL := $(GEN)/workloads/blend-stencil.gen7.aub.gz
$(WL_BLEND_STENCIL): $(GEN)/workloads/strip-fan.gen7.hex $(WL_BIN)
	$(WL_BIN) blend-stencil 7 $< $@
TEST_DEPS += $(WL_BLEND_STENCIL)
workloads: $(WL_BLEND_STENCIL)

# the Gen7 ext scene fill-heavy runs strip-fan's shaders
# (workloads/workload3d.h "fill-heavy")
WL_FILL_HEAVY := $(GEN)/workloads/fill-heavy.gen7.aub.gz
$(WL_FILL_HEAVY): $(GEN)/workloads/strip-fan.gen7.hex $(WL_BIN)
	$(WL_BIN) fill-heavy 7 $< $@
TEST_DEPS += $(WL_FILL_HEAVY)
workloads: $(WL_FILL_HEAVY)
