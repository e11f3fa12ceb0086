# mk/vc4.mk - the VideoCore IV QPU ISA: tables generated from spec/vc4/qpu.txt
# (field positions, codes, register map, Mesa disassembly names) for isa/vc4/.

$(GEN)/vc4_qpu_spec.h $(GEN)/vc4_qpu_spec.c &: spec/vc4/gen_vc4_tables.py spec/vc4/qpu.txt
	@mkdir -p $(GEN)
	$(PYTHON) spec/vc4/gen_vc4_tables.py spec/vc4/qpu.txt $(GEN)/vc4_qpu_spec.h $(GEN)/vc4_qpu_spec.c

GEN_HEADERS += $(GEN)/vc4_qpu_spec.h
GEN_SOURCES += $(GEN)/vc4_qpu_spec.c
