/* units/om/om_depth.h - late depth/stencil in the pixel back end: the test and
 * update for the pixels of PS threads WM could not test early.
 *
 * When the PS kills pixels, computes depth, writes oMask, or Early
 * Depth/Stencil Control is PSEXEC (seed 003 L15709-15775; WM_INT Kill Pixel
 * L15298-15317), the depth/stencil test follows the PS: in the colour
 * calculator's order (L16420-16431) after alpha to coverage, oMask and alpha
 * test, before blending. WM marks such threads (eu_thread_context.pixel_flags
 * EU_PIXEL_LATE_DEPTH_STENCIL, units/common/thread_msg.h); the test itself is
 * units/common/depth_stencil.h on the same surfaces WM tests early.
 *
 * State (forwarded by WM in order): 3DSTATE_WM_DEPTH_STENCIL,
 * 3DSTATE_DEPTH_BUFFER, 3DSTATE_STENCIL_BUFFER and the CC viewport's depth
 * range (3DSTATE_VIEWPORT_STATE_POINTERS_CC). The WM_INT enables are folded
 * as WM folds them (L15428-15468).
 *
 * Source depth: sZ of the RT write when sent (shader-computed depth), else the
 * primitive's depth plane at the pixel (eu_thread_context.setup, the same
 * arithmetic as WM's payload source depth).
 *
 * Several RT writes of one thread (multiple render targets): every message
 * tests (the stored values cannot change between them: the pixel scoreboard
 * keeps other threads off the pixels) and only the message with Last Render
 * Target Select updates the buffers and counts the passes, so a pixel is
 * tested and written once.
 *
 * HiZ (3DSTATE_DEPTH_BUFFER Hierarchical Depth Buffer Enable with
 * 3DSTATE_HIER_DEPTH_BUFFER, forwarded by WM; the record is
 * units/common/depth_stencil.h's): the late path keeps the HiZ buffer right
 * as WM's early path does: a CLEARED block is materialised (its clear value
 * written to its pixels, the block RANGE) before a pixel of it is read or
 * written, and every depth write widens the block's bound. The late path
 * never rejects blocks by HiZ (the PS runs first).
 *
 * Multisampled depth/stencil (3DSTATE_MULTISAMPLE's Number of Multisamples,
 * which the depth and stencil buffers inherit, seed 003 L15605; the
 * interleaved layout of units/common/depth_stencil.h): each sample the
 * render target write still covers (WM's coverage, alpha to coverage, oMask,
 * alpha test) is tested and updated on its own, "nX output merge" (Table 3,
 * L15658-15667), its source depth the plane at the sample's position (the
 * thread's sample_position[] under pattern rasterization, else the pixel
 * location) or the shader's computed depth for every sample; the samples
 * that pass are those written, and the thread end's passes count samples
 * ("each pixel (or sample)", L16766).
 *
 * The shader's output stencil (oS, 3DSTATE_PS_EXTRA Pixel Shader Computes
 * Stencil; the RT write's oS register, seed 003 L7856-7950, SIMD8 only,
 * L7960): when the message carries it, its low 8 bits are the pixel's
 * stencil reference, for the test and the REPLACE op, for both faces, in
 * place of the state's Stencil Reference Value. The seed does not spell the
 * use out; it is the API's (GL ARB_shader_stencil_export, D3D11.3 SV_StencilRef:
 * public specifications) and what Mesa's brw sends it for (FS_OPCODE_FB_WRITE
 * with a stencil source, one byte a slot). WM tests such pixels late
 * (units/wm/wm.h). A message that carries oS for a thread WM tested early
 * is counted (late.stencil_export_ignored).
 */
#ifndef GTSIM_UNITS_OM_OM_DEPTH_H
#define GTSIM_UNITS_OM_OM_DEPTH_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"
#include "spec_common.h"
#include "units/common/depth_stencil.h"
#include "units/common/thread_msg.h"
#include "units/om/om_color.h"

#define OM_DEPTH_VIEWPORTS 16u

struct om_depth {
    struct spec_3DSTATE_WM_DEPTH_STENCIL ds_packet;
    uint32_t surface_type, format, min_array;
    bool buffer_write, buffer_stencil_write;
    struct ds_surface depth, stencil;
    bool hiz_enable;
    struct hiz_surface hiz;
    uint32_t samples;               /* 3DSTATE_MULTISAMPLE's, 1-16 */
    bool cc_valid;
    float cc_min[OM_DEPTH_VIEWPORTS], cc_max[OM_DEPTH_VIEWPORTS];
    /* stats */
    uint64_t tested, passed, depth_failed, stencil_failed, depth_writes, stencil_writes;
    uint64_t faults, bad_buffers, stencil_export_ignored, stencil_exported;
    uint64_t hiz_filled, hiz_widened, hiz_faults;
    /* the test's arithmetic (om_color.h struct om_datapath, its depth hook);
     * NULL: ds_test. Kept by om_depth_reset. */
    const struct om_datapath *datapath;
};

void om_depth_reset(struct om_depth *d);
void om_depth_take_ds(struct om_depth *d, const struct spec_3DSTATE_WM_DEPTH_STENCIL *v);
void om_depth_take_depth_buffer(struct om_depth *d, const struct spec_3DSTATE_DEPTH_BUFFER *v);
void om_depth_take_hier_depth_buffer(struct om_depth *d,
                                     const struct spec_3DSTATE_HIER_DEPTH_BUFFER *v);
void om_depth_take_stencil_buffer(struct om_depth *d, const struct spec_3DSTATE_STENCIL_BUFFER *v);
/* CC_VIEWPORT as read from memory (Minimum, Maximum Depth per viewport); valid
 * false when unreadable. */
void om_depth_take_cc_viewport(struct om_depth *d, const float *min_max, bool valid);

/* The depth and stencil buffers' samples per pixel (3DSTATE_MULTISAMPLE). */
void om_depth_take_samples(struct om_depth *d, uint32_t samples);
/* Samples per pixel of the depth/stencil buffers (1 when single-sampled). */
uint32_t om_depth_samples(const struct om_depth *d);

/* The source depth of pixel (x, y) from the thread's depth plane. */
float om_depth_source(const struct eu_thread_context *c, uint32_t x, uint32_t y);
/* ... at sample `sample`'s position when the thread was rasterized with
 * more than one sample position (c->sample_count), else the pixel's. */
float om_depth_source_sample(const struct eu_thread_context *c, uint32_t x, uint32_t y,
                             uint32_t sample);

/* Late test of sample `sample` (0 when single-sampled) of one pixel of a
 * marked thread; `update`: write the buffers (the thread's last RT write).
 * `stencil_reference`: the shader's output stencil (oS, 0-255) as the
 * stencil reference of both faces, or -1 for the state's.
 * True when the sample survives. */
bool om_depth_test(struct om_depth *d, struct gpu_address_space *as,
                   const struct eu_thread_context *c, uint32_t x, uint32_t y, uint32_t sample,
                   uint32_t rt_array_index, float source_depth, int32_t stencil_reference,
                   bool update);

#endif
