/* rtl-cosim/om_rtl.h - the Verilated pixel back-end datapath (rtl/om_pixel.sv)
 * behind the C block's own calls (units/om/om_color.h om_color_compute,
 * om_color_bits; units/common/depth_stencil.h ds_test): each call drives one
 * request and gives the RTL the two clocks it takes (registered inputs, the
 * datapath, registered outputs). Waveform time: RTL clock n is [n*10, n*10+10)
 * with the rising edge at +5; the wave window counts RTL clocks too. */
#ifndef GTSIM_RTL_COSIM_OM_RTL_H
#define GTSIM_RTL_COSIM_OM_RTL_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/depth_stencil.h"
#include "units/om/om_color.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OM_RTL_CLOCKS_PER_OP 2u     /* in_valid on edge n, out_valid after edge n + 1 */

struct om_rtl;

struct om_rtl *om_rtl_create(bool broken, bool trace);
void om_rtl_destroy(struct om_rtl *r);
void om_rtl_reset(struct om_rtl *r);
/* The FST of RTL clocks from..to; -1 when it cannot be written (or trace was
 * false at create). */
int om_rtl_trace_open(struct om_rtl *r, const char *path, uint64_t from, uint64_t to);
void om_rtl_trace_window(struct om_rtl *r, uint64_t from, uint64_t to);
void om_rtl_trace_close(struct om_rtl *r);
uint64_t om_rtl_clocks(const struct om_rtl *r);

/* As om_color_compute. */
bool om_rtl_color(struct om_rtl *r, const struct om_color_request *rq, float out[4]);
/* As om_color_bits. */
uint32_t om_rtl_bits(struct om_rtl *r, bool logic, uint32_t op, uint32_t source,
                     uint32_t destination, uint32_t keep);
/* As ds_test. */
uint32_t om_rtl_depth(struct om_rtl *r, const struct ds_state *st, bool back_facing,
                      uint32_t depth_format, float source_depth, uint32_t *depth,
                      uint8_t *stencil);
/* The RTL's outputs after the last call: false when out_valid was low (the
 * RTL did not answer in its two clocks). */
bool om_rtl_answered(const struct om_rtl *r);
/* After the last request: every output of the other two kinds reads 0 (the
 * RTL's output registers zero them, om_pixel.sv L517-522; the calls above read
 * only the request's own kind, so nothing else would see them). */
bool om_rtl_others_zero(const struct om_rtl *r);
/* Resets the RTL, then gives it `clocks` clocks with in_valid low: how many
 * times out_valid was high (after the reset and after each clock; 0 is right:
 * no answer without a request). The calls above read out_valid only when an
 * answer is due, so they would not see a spurious one. */
unsigned om_rtl_idle_after_reset(struct om_rtl *r, unsigned clocks);

#ifdef __cplusplus
}
#endif

#endif
