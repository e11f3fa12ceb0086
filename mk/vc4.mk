# mk/vc4.mk - VideoCore IV: the QPU ISA tables generated from spec/vc4/qpu.txt
# (field positions, codes, register map, Mesa disassembly names) for isa/vc4/.

$(GEN)/vc4_qpu_spec.h $(GEN)/vc4_qpu_spec.c &: spec/vc4/gen_vc4_tables.py spec/vc4/qpu.txt
	@mkdir -p $(GEN)
	$(PYTHON) spec/vc4/gen_vc4_tables.py spec/vc4/qpu.txt $(GEN)/vc4_qpu_spec.h $(GEN)/vc4_qpu_spec.c

GEN_HEADERS += $(GEN)/vc4_qpu_spec.h
GEN_SOURCES += $(GEN)/vc4_qpu_spec.c

# The V3D control registers (Sec 10 of seed 002): offsets, fields, performance-counter sources.
$(GEN)/vc4_v3d_regs.h $(GEN)/vc4_v3d_regs.c &: spec/vc4/gen_v3d_registers.py spec/vc4/gen_vc4_tables.py \
		spec/vc4/v3d_registers.txt
	@mkdir -p $(GEN)
	$(PYTHON) spec/vc4/gen_v3d_registers.py spec/vc4/v3d_registers.txt $(GEN)/vc4_v3d_regs.h $(GEN)/vc4_v3d_regs.c

GEN_HEADERS += $(GEN)/vc4_v3d_regs.h
GEN_SOURCES += $(GEN)/vc4_v3d_regs.c
