# mk/workloads.mk - the project's own GPGPU workloads (workloads/workload.h):
# kernels workloads/kernels/<name>.gen<N>.g4a assembled by intel-gen4asm
# (Debian intel-gpu-tools) into build/gen/workloads/<name>.gen<N>.hex, then
# written as AUBs build/gen/workloads/<name>.gen<N>.aub.gz by gtsim-workload,
# which the integration tests (tests/integration/test_workloads.c) run.
# (eu_gen_of comes from mk/eu.mk.)

WL_SRCS := $(sort $(wildcard workloads/*.c))
WL_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(WL_SRCS))
WL_BIN  := $(BUILD)/gtsim-workload
WL_G4A  := $(sort $(wildcard workloads/kernels/*.g4a))
WL_HEX  := $(patsubst workloads/kernels/%.g4a,$(GEN)/workloads/%.hex,$(WL_G4A))
WL_AUBS := $(WL_HEX:.hex=.aub.gz)

$(GEN)/workloads/%.hex: workloads/kernels/%.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g $(call eu_gen_of,$<) -o $@ $<

$(GEN)/workloads/%.aub.gz: $(GEN)/workloads/%.hex $(WL_BIN)
	$(WL_BIN) $(firstword $(subst ., ,$*)) $(call eu_gen_of,$<) $< $@

$(WL_BIN): $(WL_OBJS) $(BUILD)/libgtsim.a
	@echo "  LD      $@"
	@$(CC) $(LDSAN) -o $@ $(WL_OBJS) $(BUILD)/libgtsim.a $(LDLIBS)

TEST_DEPS += $(WL_AUBS)

.PHONY: workloads
## workloads: assemble the workload kernels and write their AUBs (build/gen/workloads)
workloads: $(WL_AUBS)
.SECONDARY: $(WL_HEX)
