# mk/eu_exec.mk - kernels the EU execution tests run (tests/units/test_eu.c),
# assembled by intel-gen4asm (Debian intel-gpu-tools) at build time:
#   tests/data/eu/exec/<name>.gen<N>.g4a -> build/gen/eu/exec/<name>.gen<N>.hex
# (eu_gen_of comes from mk/eu.mk.)

EU_EXEC_G4A := $(sort $(wildcard tests/data/eu/exec/*.g4a))
EU_EXEC_HEX := $(patsubst tests/data/eu/exec/%.g4a,$(GEN)/eu/exec/%.hex,$(EU_EXEC_G4A))

$(GEN)/eu/exec/%.hex: tests/data/eu/exec/%.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g $(call eu_gen_of,$<) -o $@ $<

TEST_DEPS += $(EU_EXEC_HEX)
