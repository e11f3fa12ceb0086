/* units/math/math.h - the Gen4 (965G) extended math shared function ("math
 * box", SFID 1): EU threads SEND it operands and get the results written back.
 *
 * The seed of Gen4 (001) names the unit only: "Extended Math (EM) ... performs
 * more complex math operations on behalf of several EUs" (L280-L281) and lists
 * it among the shared functions EUs send messages to (L530-L533); the Gen4 EU
 * volume with its message layout is not a seed. The message format comes from
 * public facts (reference/eu/opcodes.txt [sfid] and [message-descriptors],
 * from Mesa's Gen4 emitter), the function definitions from the Gen6+ math
 * instruction of seed 003 (L24065-24295), which has the same function codes:
 *
 *  - descriptor (the send's DWord 3): function 3:0 (1 INV, 2 LOG, 3 EXP,
 *    4 SQRT, 5 RSQ, 6 SIN, 7 COS, 8 SINCOS, 10 POW, 11 INT DIV quotient and
 *    remainder, 12 INT DIV quotient, 13 INT DIV remainder), signed integer 4,
 *    precision 5 (1 = partial), saturate 6, data type 7 (1 = scalar),
 *    rlen 19:16, mlen 23:20;
 *  - payload: operand 0, then operand 1 for POW and INT DIV, each in
 *    mlen / (number of operands) registers of 8 channels (float, or D/UD for
 *    INT DIV by the signed bit);
 *  - reply: the result (SINCOS: sines then cosines; INT DIV quotient and
 *    remainder: quotients then remainders), rlen registers, the rest zeros.
 * Semantics: INV 1/x, LOG log2 x, EXP 2^x, SQRT, RSQ 1/sqrt x, SIN, COS (radians),
 * POW x^y, INT DIV with the quotient's sign the xor of the operands' and the
 * remainder's the numerator's (003 L24244). Saturate clamps float results to
 * [0, 1] (NaN to 0). Scalar data: channel 0's result is replicated (inferred).
 * Bad programming (a reserved function code, too few payload registers for the
 * operands) is counted and answered with zeros; an integer division by zero
 * gives all ones / the numerator, counted (the seed leaves it undefined).
 * Not modelled: partial precision (computed at full precision), ALT float mode
 * (not carried by the message), the pipelining inside the unit beyond one
 * `latency` per message and `per_cycle` messages accepted per cycle.
 *
 * Two layers, as units/cs_alu: a pure function (math_gen4_execute) and the
 * unit kind "math".
 * Ports: "eu"[n] in (MSG_SEND, an open array: one per linked EU), "eu_reply"[n]
 * out (MSG_WRITEBACK to the EU of the same index).
 * Stats: messages, replies, divide_by_zero, bad_messages, reply_stalls.
 */
#ifndef GTSIM_UNITS_MATH_H
#define GTSIM_UNITS_MATH_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"

#define MATH_REG_BYTES 32

/* The function codes are DESC_MATH_* of msg_desc.h (generated from spec/eu/opcodes.txt
 * [math-function]); the Gen4 ones are those the table marks for gen4. */

struct math_gen4_status {
    bool bad;               /* reserved function or payload too short: zeros returned */
    bool divide_by_zero;    /* an integer division by zero in an enabled channel */
};

/* Computes the reply of one Gen4 math message: desc (function control in
 * 7:0), mlen payload registers, rlen reply registers written to out, channels
 * enabled in exec_mask (results are computed for every channel; the mask only
 * decides what counts as a division by zero). */
void math_gen4_execute(uint32_t desc, const uint8_t (*payload)[MATH_REG_BYTES], unsigned mlen,
                       uint32_t exec_mask, uint8_t (*out)[MATH_REG_BYTES], unsigned rlen,
                       struct math_gen4_status *status);

extern const struct unit_ops math_ops;

#endif
