/* units/clip/clip_gen4.h - the Gen4 (965G) forms the CLIP unit takes (issue 14
 * items 3 and 6): CLIP_STATE through 3DSTATE_PIPELINED_POINTERS, the
 * hardware's VertexClipTest / ClipDetermination / ClipMode, and the CLIP
 * thread that runs the driver's clip kernel. A library of units/clip, not a
 * unit kind; clip.c hands it the primitives once a Gen4 3DSTATE_PIPELINED_
 * POINTERS arrived.
 *
 * Seed 001 (notes/001-gen4.md §4.6):
 *  - 3DSTATE_PIPELINED_POINTERS DW3 (L1298-1318): Pointer to CLIP State
 *    (General State offset) and CLIP Enable; disabled, CLIP passes every
 *    primitive on unchanged (L1222-1226: only GS and CLIP can be disabled).
 *  - CLIP_STATE (L9274-9910): the kernel (DW0-DW3: Kernel Start Pointer, GRF
 *    Register Count, Single Program Flow, Floating Point Mode, exception
 *    enables, scratch, Dispatch GRF Start Register For URB Data, Vertex and
 *    Constant URB Entry Read Offset/Length), DW4 Maximum Number of Threads
 *    (+1), URB Entry Allocation Size, Number of URB Entries, Clipper
 *    Statistics Enable (bit 10), GS Output Object Statistics Enable (bit 9,
 *    read from the dword: the reference genxml puts both at bit 10); DW5 API
 *    Mode, Vertex Position Space (NDC / screen), Viewport XY / Viewport Z /
 *    Guardband ClipTest Enables, UserClipFlags MustClip Enable, the
 *    UserClipFlags ClipTest Enable Bitmask, Clip Mode; DW6 Clipper Viewport
 *    State Pointer; DW7-DW10 the screen-space viewport. CLIP_VIEWPORT
 *    (L9985-10069): 16 elements of 4 dwords (the guardband of each viewport),
 *    read when the state is (an element outside memory reads as invalid:
 *    its vertices test against the viewport, counted).
 *  - VertexClipTest (L10070-10341) on the read-back Vertex Header (D2
 *    Viewport Index, low 4 bits (L1520); D3[7:0] UserClipFlags; D4-D7 X, Y,
 *    Z, RHW): BAD = NaN RHW; a negative RHW (negative zero included) sets
 *    every VP and GB outcode (the 965G is "Pre-DevBW-E0": the E0 ECO is the
 *    G35's, notes §4.6); VP XY against [-1, 1] (NDC) or the screen-space
 *    viewport, VP Z against [-1, 1] (OGL) or [0, 1] (D3D), GB against the
 *    viewport's CLIP_VIEWPORT; a disabled VP/GB set copies the enabled one;
 *    NaN X/Y/Z set their outcodes when the tests are on; the UserClipFlags
 *    masked by the bitmask.
 *  - ClipDetermination (L10395-10486, pre-CTG: no NEGW) and ClipMode
 *    (L10509-10542: NORMAL, ALL, CLIP_NON_REJECTED, REJECT_ALL, ACCEPT_ALL;
 *    5-7 reserved on Gen4: counted, taken as NORMAL).
 *  - Object staging (L10342-10363, L10652-10838): the objects of each
 *    topology in the seed's CLIP order (no reordering; strip triangles typed
 *    TRISTRIP / TRISTRIP_REVERSE alternately; adjacency removed); partial
 *    LINESTRIP / TRISTRIP objects removed; LINELOOP, QUADLIST, QUADSTRIP
 *    ("not supported after GS") dropped and counted.
 *  - The CLIP thread (L10839-11067): one per SPAWN object, once a CLIP-region
 *    URB entry (urb_fence, URB_OP_CONFIGURE from CLIP_STATE's Number of URB
 *    Entries / Allocation Size) is held and fewer than Maximum Number of
 *    Threads run; payload (Table 6-1): R0.0 Handle ID (22:16) and URB Return
 *    Handle (8:0), R0.2 the object's outcodes ORed over its vertices (31-13),
 *    Edge Indicators (9:8, POLYGON objects), Primitive Topology Type (4:0),
 *    R0.3-R0.5 the common fields (units/common/stage_thread.h), then from
 *    Dispatch GRF Start Register For URB Data the constants (Constant URB
 *    Entry Read Offset/Length of the CONSTANT_BUFFER, read from memory as SF
 *    does) and each object vertex's Vertex URB Entry Read Length rows from
 *    its Read Offset, one after the other. The input vertices are consumed
 *    at spawn (L9256-9265). The thread's URB_WRITEs with Complete and Used
 *    hand the stage its output VUEs (EU_TD_URB_OUTPUT from urb_fence, with
 *    M0.2's PrimType (6:2), PrimStart (1) and PrimEnd (0): Mesa's
 *    brw_eu_defines.h layout, the seed's URB chapter is absent); when the
 *    thread ends they go to SF as primitives, PrimStart to PrimEnd, flagged
 *    PRIM_CLIPPED, after the objects before them and before those after
 *    (L11103-11111).
 *  - URB_FENCE: CLIP tells the urb_fence unit (URB_OP_FENCE) when it reaches
 *    one, after the allocations of the work before it: the CLIP region takes
 *    the fence in CLIP's command order (units/urb_fence/urb_fence.h).
 *  - The watchdog (issue 14 bad input, like SF's): a thread not ended
 *    `thread_timeout` cycles after dispatch is given up: its object is
 *    dropped (counted), its entry and any outputs dereferenced; later
 *    notices of it are counted as late and their entries freed.
 *  - Statistics (L11145-11171): CL_INVOCATION_COUNT +1 per CLIP thread
 *    spawned with Clipper Statistics Enable (pre-CTG); GS_PRIMITIVES_COUNT
 *    (counted here, not a register of the model) +1 per complete object with
 *    GS Output Object Statistics Enable.
 *
 * Not modelled: the readback of thread-written vertex headers (SF reads the
 * headers itself), the DevBW-E0/CTG/ILK variants of the tests, overlap of one
 * packet's threads with the next packet's (a packet's objects are all done
 * before the next packet starts), the retained-handle limits (L2675-2688),
 * line stipple restarts of pass-through strip segments (each leaves with
 * PrimStart), the clipper's own latency (the URB's and the thread's only).
 */
#ifndef GTSIM_UNITS_CLIP_CLIP_GEN4_H
#define GTSIM_UNITS_CLIP_CLIP_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/state_packet.h"

struct sim;
struct clip;
struct unit;
struct msg;

#define CLIP_GEN4_VIEWPORTS 16u

/* What CLIP takes from CLIP_STATE and its CLIP_VIEWPORTs. */
struct clip_gen4_state {
    /* the kernel */
    uint64_t kernel_start;                  /* General State offset */
    uint32_t grf_blocks, binding_table_entries;
    bool single_program_flow, alternate_fp, illegal_opcode_exception, software_exception;
    uint32_t per_thread_scratch;
    uint64_t scratch_base;
    uint32_t dispatch_grf_start, vertex_read_offset, vertex_read_length;
    uint32_t constant_read_offset, constant_read_length;
    uint32_t maximum_threads;               /* + 1 applied */
    uint32_t urb_entries, urb_entry_units;  /* Number of URB Entries; Allocation Size + 1 */
    bool statistics, gs_output_statistics;
    /* the tests */
    uint32_t mode;                          /* enum clip_gen4_mode */
    bool api_d3d, screen_space, viewport_xy, viewport_z, guardband, ucf_must_clip;
    uint8_t ucf_mask;
    float vp_xmin, vp_xmax, vp_ymin, vp_ymax;       /* DW7-DW10 (screen space only) */
    bool gb_valid[CLIP_GEN4_VIEWPORTS];
    float gb_xmin[CLIP_GEN4_VIEWPORTS], gb_xmax[CLIP_GEN4_VIEWPORTS];
    float gb_ymin[CLIP_GEN4_VIEWPORTS], gb_ymax[CLIP_GEN4_VIEWPORTS];
};

enum clip_gen4_mode {
    CLIP_GEN4_NORMAL = 0,
    CLIP_GEN4_ALL = 1,
    CLIP_GEN4_CLIP_NON_REJECTED = 2,
    CLIP_GEN4_REJECT_ALL = 3,
    CLIP_GEN4_ACCEPT_ALL = 4,
};

/* Reads CLIP_STATE at general_state_base + offset and its CLIP_VIEWPORTs.
 * 0: read; 1: CLIP_STATE outside memory (st zeroed); 2: viewport element 0
 * outside memory (no guardband valid). */
int clip_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                         uint64_t general_state_base, uint64_t offset, struct clip_gen4_state *st);

/* Outcodes, at their R0.2 bit positions (Table 6-1). */
enum clip_gen4_outcode {
    CLIP_GEN4_OC_VP_XMIN = 1u << 31,
    CLIP_GEN4_OC_VP_XMAX = 1u << 30,
    CLIP_GEN4_OC_VP_YMIN = 1u << 29,
    CLIP_GEN4_OC_VP_YMAX = 1u << 28,
    CLIP_GEN4_OC_VP_ZMIN = 1u << 27,
    CLIP_GEN4_OC_VP_ZMAX = 1u << 26,
    CLIP_GEN4_OC_GB_XMIN = 1u << 25,
    CLIP_GEN4_OC_GB_XMAX = 1u << 24,
    CLIP_GEN4_OC_GB_YMIN = 1u << 23,
    CLIP_GEN4_OC_GB_YMAX = 1u << 22,
    CLIP_GEN4_OC_UC0 = 1u << 14,            /* UC0..UC7 at bits 14..21 */
    CLIP_GEN4_OC_BAD = 1u << 13,
};
#define CLIP_GEN4_OC_VP_XY 0xf0000000u
#define CLIP_GEN4_OC_VP_Z 0x0c000000u
#define CLIP_GEN4_OC_GB 0x03c00000u
#define CLIP_GEN4_OC_UC 0x003fc000u

/* VertexClipTest of one read-back Vertex Header (D0-D7). *bad_viewport is
 * set when the guardband test used a viewport never read. */
uint32_t clip_gen4_vertex_test(const struct clip_gen4_state *st, const uint32_t header[8],
                               bool *bad_viewport);

struct clip_gen4_determination {
    bool trivial_reject, trivial_accept, must_clip, bad;
};

/* ClipDetermination over an object's n (1-3) vertex outcodes. */
struct clip_gen4_determination clip_gen4_determine(const uint32_t *outcodes, uint32_t n,
                                                   bool ucf_must_clip);

enum clip_gen4_action { CLIP_GEN4_PASSTHRU = 0, CLIP_GEN4_DISCARD, CLIP_GEN4_SPAWN };

/* ClipMode: the action for a determination; a reserved mode acts as NORMAL. */
enum clip_gen4_action clip_gen4_mode_action(uint32_t mode, struct clip_gen4_determination d);

/* The unit's side (clip.c): the packet at the head while Gen4 state is in
 * force (ff_stage work()), URB replies, and the thread notices. */
int clip_gen4_work_primitive(struct clip *s, struct unit *u, struct msg *m);
void clip_gen4_take_urb_reply(struct clip *s, struct unit *u, struct msg *m);
void clip_gen4_take_notices(struct clip *s, struct unit *u);
void clip_gen4_take_state(struct clip *s, const struct cs_state_packet *p);
void clip_gen4_clear(struct clip *s, struct unit *u);

#endif
