# mk/eu.mk - the EU ISA: tables generated from spec/eu/*.txt, and the kernels the
# EU tests assemble with intel-gen4asm (Debian intel-gpu-tools) at build time.

EU_SPEC_TXT := $(wildcard spec/eu/*.txt)

# msg_desc.h: the SFID message-descriptor accessors and constants (spec/eu/gen_msg_desc.py).
$(GEN)/eu_spec.h $(GEN)/eu_spec.c $(GEN)/msg_desc.h &: spec/eu/gen_eu_tables.py \
		spec/eu/gen_msg_desc.py $(EU_SPEC_TXT)
	@mkdir -p $(GEN)
	$(PYTHON) spec/eu/gen_eu_tables.py spec/eu $(GEN)/eu_spec.h $(GEN)/eu_spec.c $(GEN)/msg_desc.h

GEN_HEADERS += $(GEN)/eu_spec.h $(GEN)/msg_desc.h
GEN_SOURCES += $(GEN)/eu_spec.c

# Test kernels: tests/data/eu/<name>.gen<N>.g4a -> build/gen/eu/<name>.gen<N>.hex
# (intel-gen4asm hex text) -> .dis (intel-gen4disasm's listing of the same words) ->
# .norm (normalised fields, by scripts/eu_normalize.py; independent of our decoder).
EU_G4A   := $(sort $(wildcard tests/data/eu/*.g4a))
EU_HEX   := $(patsubst tests/data/eu/%.g4a,$(GEN)/eu/%.hex,$(EU_G4A))
EU_DIS   := $(EU_HEX:.hex=.dis)
EU_NORM  := $(EU_HEX:.hex=.norm)
EU_AUBK  := $(sort $(wildcard tests/data/eu/aub/*.aubinator.txt))
EU_AUBN  := $(patsubst tests/data/eu/aub/%.aubinator.txt,$(GEN)/eu/aub/%.norm,$(EU_AUBK))

eu_gen_of = $(patsubst gen%,%,$(lastword $(subst ., ,$(basename $(notdir $(1))))))

$(GEN)/eu/%.hex: tests/data/eu/%.g4a
	@mkdir -p $(@D)
	intel-gen4asm -g $(call eu_gen_of,$<) -o $@ $<

$(GEN)/eu/%.dis: $(GEN)/eu/%.hex
	intel-gen4disasm -g $(call eu_gen_of,$<) -o $@ $<

$(GEN)/eu/%.norm: $(GEN)/eu/%.dis scripts/eu_normalize.py
	$(PYTHON) scripts/eu_normalize.py gen4disasm $(call eu_gen_of,$<) $< $@

$(GEN)/eu/aub/%.norm: tests/data/eu/aub/%.aubinator.txt scripts/eu_normalize.py
	@mkdir -p $(@D)
	$(PYTHON) scripts/eu_normalize.py aubinator $(call eu_gen_of,$*.x) $< $@

TEST_DEPS += $(EU_HEX) $(EU_DIS) $(EU_NORM) $(EU_AUBN)
