/* units/vc4_sfu/vc4_sfu.h - the VideoCore IV special function unit of a slice (SFU).
 *
 * What it models (seed 002): "the SFU can perform reciprocal, reciprocal square root,
 * logarithm and exponential functions" (recip/recipsqrt/log/exp, @43385, and the register map
 * SFU_RECIP 52, SFU_RECIPSQRT 53, SFU_EXP 54, SFU_LOG 55, Table 14 @91738; the SQRT of @64904
 * is a seed inconsistency, notes §8 item 1). A QPU writes the operand (each element) to one of
 * those registers; "the result ... is ready for use by the 3rd instruction after the write"
 * in r4 (@64904). EXP is 2^x and LOG is log2(x) (the QPU has no other base; Mesa's vc4 uses
 * them for exp2/log2 [ext]).
 *
 * Precision. The seed gives none. Measurements on hardware [ext: Y. Sugizaki, "Raspberry Pi
 * QPU における逆数計算と精度補正" (qiita.com/ysugi/items/e3118ada915d2a6485eb, 2017): 16
 * SFU_RECIP results read back from a Pi 2, every one with its low 8 bits zero] show the SFU
 * returns only the top 15 fraction bits. The unit computes the function in double
 * precision and truncates the float32 result to 15 fraction bits (vc4_sfu_compute):
 * relative error below 2^-15 (3.1e-5), the measured format. The hardware's own approximation
 * error inside those bits is not modelled (no published table). Denormal inputs are flushed
 * to zero (qpu_float_flush); recip/rsqrt of +-0 give +-inf, log2(0) -inf, log2 of a negative
 * number and rsqrt of a negative number a NaN (0x7fc00000) [chosen: the seed is silent; VC4CL
 * notes "NaN is not supported", so programs must not rely on it]; exp2 overflows to +inf and
 * underflows to 0.
 *
 * Timing: each write is answered `latency` cycles after it arrives (default 8: with 1-cycle
 * links the result is in r4 10 cycles after the write issued, within the 12 cycles of "the
 * 3rd instruction after the write" at 4 clocks per instruction, @64904, @43385), at most
 * `per_cycle` requests accepted per cycle (the seed gives no throughput; one per clock keeps
 * up with four QPUs issuing once every 4 clocks).
 *
 * Ports: "qpu"[n] in (MSG_QPU_IO writes of 52-55 from each QPU of the slice, an open array),
 * "result"[n] out (MSG_QPU_RESULT with to_r4 = 1, to the QPU of the same index).
 * Stats: requests, by function (recip, rsqrt, exp, log), bad_messages, reply_stalls.
 * Not modelled: the SFU's internal pipeline beyond the fixed latency; lanes not written
 * (lane_mask) get a result too (r4 is written whole on hardware).
 */
#ifndef GTSIM_UNITS_VC4_SFU_H
#define GTSIM_UNITS_VC4_SFU_H

#include <stdint.h>

#include "fabric/unit.h"

/* One SFU function of one element: waddr 52-55 (RECIP, RECIPSQRT, EXP, LOG), x as float32
 * bits; the float32 bits written to r4. */
uint32_t vc4_sfu_compute(unsigned waddr, uint32_t x);

extern const struct unit_ops vc4_sfu_ops;

#endif
