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

# Control-list records (Sec 9 of seed 002): codes, lengths, field positions, value names.
$(GEN)/vc4_packets.h $(GEN)/vc4_packets.c &: spec/vc4/gen_vc4_packets.py spec/vc4/gen_vc4_tables.py \
		spec/vc4/packets.txt
	@mkdir -p $(GEN)
	$(PYTHON) spec/vc4/gen_vc4_packets.py spec/vc4/packets.txt $(GEN)/vc4_packets.h $(GEN)/vc4_packets.c

GEN_HEADERS += $(GEN)/vc4_packets.h
GEN_SOURCES += $(GEN)/vc4_packets.c

.PHONY: check-vc4-packets
## check-vc4-packets: compare spec/vc4/packets.txt with Mesa's v3d_packet_v21.xml (../shared/reference/vc4)
check-vc4-packets:
	$(PYTHON) spec/vc4/gen_vc4_packets.py --check spec/vc4/packets.txt ../shared/reference/vc4/v3d_packet_v21.xml
