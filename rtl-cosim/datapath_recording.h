/* rtl-cosim/datapath_recording.h - recordings of the datapath hooks of the
 * blocks that sit inside a C unit rather than on its ports: the pixel back
 * end's datapath (units/om/om_color.h struct om_datapath: colour, bits, late
 * depth/stencil; rtl/om_pixel.sv) and the QPU ALUs (isa/vc4/qpu_exec.h struct
 * qpu_alu_datapath; rtl/qpu_alu.sv). Port recordings (fabric/recording.h) do
 * not see these requests, so the adapters om:rtl/om:lockstep and
 * qpu:rtl/qpu:lockstep write them with their `record_datapath` param, and
 * `gtsim-cosim datapath-replay` (datapath_replay.h) drives them into the RTL.
 *
 * Format (text, one record a line, every number hexadecimal without 0x):
 *   gtsim-datapath-recording 1
 *   block om_pixel                     or qpu_alu
 *   unit gpu.slice0.om                 the adapter that recorded it
 *   color CYCLE W.. = A..              a request's words, '=', the C block's answer
 *   bits CYCLE W.. = A..
 *   depth CYCLE W.. = A..
 *   alu CYCLE W.. = A..                (qpu_alu)
 * CYCLE is the fabric cycle of the request. The words of each kind, in order
 * (b: a bool, 0 or 1; c: 8 bits; h: 16 bits; w: 32 bits; f: a float's bits):
 *   color request (28): blend pre_clamp post_clamp independent_alpha (b),
 *         source/destination_factor function source/destination_alpha_factor
 *         alpha_function (w), lo hi (f), src[4] src1[4] dst[4] constant[4] (f);
 *         answer (5): ok (b), out[4] (f)
 *   bits request (5): logic (b), op source destination keep (w); answer (1): w
 *   depth request (27): depth_test depth_write (b), depth_function (w),
 *         stencil_test stencil_write double_sided (b), front and back: function
 *         fail_op depth_fail_op pass_op (w) test_mask write_mask reference (c),
 *         min_depth max_depth (f), back_facing (b), format (w), source_depth (f),
 *         stored depth (w), stored stencil (c); answer (3): flags depth (w),
 *         stencil (c)
 *   alu request (145): op_add op_mul add_a add_b mul_a mul_b pm unpack pack
 *         cond_add cond_mul (c), sf add_pack_a mul_pack_a (b), flag_z flag_n
 *         flag_c (h), add_operand[2][16] mul_operand[2][16] add_old[16]
 *         mul_old[16] (w); answer (37): add_value[16] mul_value[16] (w),
 *         add_lanes mul_lanes flag_z flag_n flag_c (h)
 * A reader checks everything: the header, the kind against the block, the
 * number of words, each word's range; a bad line is an error naming the file
 * and line, never a crash. */
#ifndef GTSIM_RTL_COSIM_DATAPATH_RECORDING_H
#define GTSIM_RTL_COSIM_DATAPATH_RECORDING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "isa/vc4/qpu_exec.h"
#include "units/common/depth_stencil.h"
#include "units/om/om_color.h"

enum dp_kind { DP_COLOR, DP_BITS, DP_DEPTH, DP_ALU, DP_KINDS };

#define DP_MAX_REQUEST 145
#define DP_MAX_ANSWER 37

struct dp_record {
    enum dp_kind kind;
    uint64_t cycle;
    uint32_t request[DP_MAX_REQUEST], answer[DP_MAX_ANSWER];
};

/* The block a kind belongs to: "om_pixel" or "qpu_alu". */
const char *dp_block_of(enum dp_kind kind);

/* Writing: the header, then one line a record. Every '@' of the path pattern
 * is replaced by the unit's name (a config template sets the param of every
 * unit it makes: "q.@.dprec" gives q.gpu.slice0.qpu0.dprec, ...). NULL (with
 * err) when the file cannot be created. */
FILE *dp_recording_create(const char *pattern, const char *block, const char *unit,
                          struct gt_error *err);
void dp_recording_write(FILE *f, const struct dp_record *r);

/* The records of each request. */
void dp_om_color(struct dp_record *r, uint64_t cycle, const struct om_color_request *rq, bool ok,
                 const float out[4]);
void dp_om_bits(struct dp_record *r, uint64_t cycle, bool logic, uint32_t op, uint32_t source,
                uint32_t destination, uint32_t keep, uint32_t answer);
void dp_om_depth(struct dp_record *r, uint64_t cycle, const struct ds_state *st, bool back_facing,
                 uint32_t format, float source_depth, uint32_t stored_depth, uint8_t stored_stencil,
                 uint32_t flags, uint32_t depth, uint8_t stencil);
void dp_qpu_alu(struct dp_record *r, uint64_t cycle, const struct qpu_alu_request *rq,
                const struct qpu_alu_result *answer);

/* Back from a record (read and checked by dp_reader_next). */
struct dp_om_color_record {
    struct om_color_request rq;
    bool ok;
    float out[4];
};
struct dp_om_bits_record {
    bool logic;
    uint32_t op, source, destination, keep, answer;
};
struct dp_om_depth_record {
    struct ds_state st;
    bool back_facing;
    uint32_t format, stored_depth, flags, depth;
    float source_depth;
    uint8_t stored_stencil, stencil;
};
void dp_om_color_of(const struct dp_record *r, struct dp_om_color_record *out);
void dp_om_bits_of(const struct dp_record *r, struct dp_om_bits_record *out);
void dp_om_depth_of(const struct dp_record *r, struct dp_om_depth_record *out);
void dp_qpu_alu_of(const struct dp_record *r, struct qpu_alu_request *rq,
                   struct qpu_alu_result *answer);

struct dp_reader {
    FILE *f;
    char *line;
    size_t capacity;
    uint64_t line_number;
    char path[512];
    char block[32], unit[256];
};

/* Opens and reads the header; -1 (err names the file and line) on failure. */
int dp_reader_open(struct dp_reader *rd, const char *path, struct gt_error *err);
/* 1: a record; 0: the end; -1: a malformed line (err: file, line, what). */
int dp_reader_next(struct dp_reader *rd, struct dp_record *r, struct gt_error *err);
void dp_reader_close(struct dp_reader *rd);

#endif
