/* rtl-cosim/qpu_cosim.h - the QPU ALUs' RTL (rtl/qpu_alu.sv) in the fabric, picked by `impl`
 * on a unit of kind "qpu" (units/qpu/qpu.h):
 *
 *   qpu:rtl        the C unit runs inside the adapter (fabric/unit.h unit_create_inner: its
 *                  ports, params, messages, memory, timing) with the datapath of its ALU and
 *                  load-immediate instructions (isa/vc4/qpu_exec.h struct qpu_alu_datapath,
 *                  qpu_set_alu_datapath) answered by the Verilated block: unpacks, add and
 *                  mul ALUs, packs, write conditions, flags.
 *   qpu:lockstep   the C datapath answers every instruction and the RTL computes the same
 *                  request beside it; the answers are compared: every element's add and mul
 *                  value (bit for bit), the elements written, the Z, N and C flags. A mismatch
 *                  line names the unit, the block's port, the instruction number, the fabric
 *                  cycle, the RTL clock, the element and field, both values and the request.
 *   qpu:rtl_broken, qpu:lockstep_broken
 *                  the same with `define BROKEN (fmul truncates instead of rounding).
 *
 * The datapath is inside the QPU, not on its ports, so the comparison is per instruction;
 * the unit's ports, timing and stats are the C unit's in every mode. An RTL that does not
 * answer a quad on time (out_valid low or the wrong tag) is reported (`no_answer`, naming
 * block qpu_alu, port out_valid) and the C answer is used, so a broken RTL never hangs a run.
 * Params and ports: qpu's own tables (qpu_ops; joined by the lookup,
 * cosim_kinds.h), LOCKSTEP_PARAMS and record_datapath; wave_from, wave_to, wave_after count RTL clocks (six an
 * instruction), and so does the first mismatch's "cycle".
 * Stats: every qpu stat (the C unit's table), then rtl.instructions, rtl.clocks, compared,
 * mismatches, no_answer.
 */
#ifndef GTSIM_RTL_COSIM_QPU_COSIM_H
#define GTSIM_RTL_COSIM_QPU_COSIM_H

#include "fabric/unit.h"
#include "rtl-cosim/lockstep.h"

extern const struct lockstep_desc qpu_cosim_desc;
extern const struct unit_ops qpu_rtl_ops;
extern const struct unit_ops qpu_lockstep_ops;
extern const struct unit_ops qpu_rtl_broken_ops;
extern const struct unit_ops qpu_lockstep_broken_ops;

#endif
