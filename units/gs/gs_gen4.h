/* units/gs/gs_gen4.h - the Gen4 (965G) GS: GS_STATE through
 * 3DSTATE_PIPELINED_POINTERS and the GS threads that run the driver's GS
 * kernel (issue 14 item 3). A library of units/gs, not a unit kind: gs.c
 * hands it state, objects, URB replies and thread notices while a Gen4
 * 3DSTATE_PIPELINED_POINTERS with GS Enable is in force.
 *
 * Seed 001 (notes/001-gen4.md §4.5):
 *  - 3DSTATE_PIPELINED_POINTERS DW2 (L1277-1287): GS_STATE (General State
 *    offset) and GS Enable; disabled, objects pass through (L6428-6430; the
 *    Vertex Header readback is not needed by the model: CLIP reads the
 *    headers itself).
 *  - GS_STATE (L6534-7159): the kernel (DW0-DW3, the common layout of §3.6),
 *    DW4 Maximum Number of Threads (Pre-ILK [0,1] = 1..2), URB Entry
 *    Allocation Size, Number of URB Entries ([1,32] when enabled), GS
 *    Statistics Enable (bit 10); DW5 Sampler State Pointer and Count; DW6
 *    Reorder Enable (30), Discard Adjacency (29), Maximum VPIndex (3:0).
 *    The GS region's entries are configured in the urb_fence unit
 *    (URB_OP_CONFIGURE) from Number of URB Entries / Allocation Size.
 *  - Object staging (L7160-7395, gs_gen4_stage_objects): one thread per
 *    object, the object's vertices in the table's order and its
 *    PrimTopologyType, TRISTRIP objects reordered (Reorder Enable) and
 *    typed TRISTRIP / TRISTRIP_REV, POLYGON objects with their Edge
 *    Indicators. VF already splits topologies into objects (units/vf): a
 *    lone strip triangle carries its parity in PRIM_STRIP_ODD (primitive.h),
 *    a lone POLYGON triangle its first/last place in PRIM_START / PRIM_END.
 *  - The thread (L2112-2170 spawn preconditions, Table 5-1 payload
 *    L7396-7584): once fewer than Maximum Number of Threads run, one GS
 *    entry is allocated (URB_OP_ALLOC; waits at the fence), the object's
 *    vertices read from the URB (Vertex URB Entry Read Offset / Length), and
 *    the thread dispatched with R0.0 Handle ID (22:16, the unit's job slot)
 *    and URB Return Handle (8:0, the entry), R0.2 Edge Indicators (9:8) and
 *    Primitive Topology Type (4:0), R0.3-R0.5 the common fields
 *    (stage_thread.h), then from Dispatch GRF Start Register For URB Data
 *    the constants (Constant URB Entry Read Offset / Length of the
 *    CONSTANT_BUFFER, read from memory as CLIP and SF do) and the vertices,
 *    Vertex URB Entry Read Length rows each, one after the other ("Vertex 1
 *    DWord 0 immediately follows the last DWord of Vertex 0"). The input
 *    vertices' references are dropped at dispatch (the payload holds them).
 *  - Output (L8302-8374, L8532-8552): the thread's URB_WRITEs with Complete
 *    and Used hand the unit its output VUEs (urb_fence's EU_TD_URB_OUTPUT
 *    notice: the handle and M0.2 PrimType 6:2, PrimStart 1, PrimEnd 0);
 *    once the thread ended and every earlier thread's output left, they go
 *    to CLIP as primitives, PrimStart to PrimEnd (vertices outside such a
 *    run are freed and counted: "downstream FF units will correctly handle
 *    any dangling vertices"); topologies a GS thread may not output
 *    (L8311-8335: *_ADJ, LINELOOP, QUADLIST, QUADSTRIP) are dropped, counted.
 *  - URB_FENCE: the GS tells the urb_fence unit (URB_OP_FENCE) when it
 *    reaches one (state waits for the GS's threads): the GS region takes the
 *    fence in the GS's command order (units/urb_fence/urb_fence.h).
 *  - Watchdog (issue 14 bad input, as CLIP's): a thread not ended
 *    `thread_timeout` cycles after dispatch is given up: its object is
 *    dropped (counted), its entry and outputs dereferenced; later notices of
 *    it are counted as late and their entries freed.
 *  - Statistics: GS_INVOCATION_COUNT +1 per object dispatched with GS
 *    Statistics Enable (L8566-8573); GS_PRIMITIVES_COUNT is CLIP's on Gen4
 *    (L8579-8586).
 *
 * VF hands QUADLIST and QUADSTRIP objects on as 4-vertex POLYGONs (already
 * in the table's vertex order, (0,1,2,3) and (0,1,3,2); "converted to
 * POLYGON topology at the beginning of the 3D pipeline", L942-958); a
 * QUADSTRIP quad carries PRIM_QUADSTRIP_OBJECT, so the thread is told
 * QUADSTRIP or QUADLIST as the table says (L7377-7395).
 *
 * TRISTRIP_ADJ: a 6-vertex packet is one object, kept in VF's order (VF
 * reorders it); a longer one (no VF makes it) is staged by the table's rows
 * (L7335-7360).
 *
 * Not modelled: VF's odd TRISTRIP_ADJ objects start at a different vertex
 * of the same triangle than this table's (VF follows seed 003's order);
 * Discard Adjacency and Maximum VPIndex (the Vertex Header readback); stream output and the retained-handle limits (L2675-2688);
 * the GS's own latency (the URB's and the thread's only).
 */
#ifndef GTSIM_UNITS_GS_GS_GEN4_H
#define GTSIM_UNITS_GS_GS_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/gen4_thread_output.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"

struct sim;
struct unit;
struct msg;
struct ff_stage;
struct stage_threads;
struct stage_bases;
struct stage_space;
struct urb_msg;

struct gs_gen4_state {
    uint64_t kernel_start;
    uint32_t grf_blocks, dispatch_grf_start, vertex_read_offset, vertex_read_length;
    uint32_t constant_read_offset, constant_read_length;
    uint32_t maximum_threads, urb_entries, urb_entry_units;
    uint32_t binding_table_entries, per_thread_scratch, sampler_count;
    uint64_t scratch_base, sampler_state;
    bool statistics, reorder, discard_adjacency;
    bool alternate_fp, illegal_opcode_exception, software_exception;
    uint32_t maximum_vp_index;
};

/* Reads GS_STATE at general_state_base + offset; false (st zeroed) when it
 * lies outside memory. */
bool gs_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                        uint64_t general_state_base, uint64_t offset, struct gs_gen4_state *st);

/* ---- object staging (L7160-7395) ---- */

#define GS_GEN4_OBJECT_VERTICES 6u      /* "up to 6 vertices" (Table 5-1) */

struct gs_gen4_object {
    uint8_t n;
    uint8_t v[GS_GEN4_OBJECT_VERTICES]; /* indices into the packet's handles, payload order */
    uint32_t topology;                  /* R0.2 4:0 */
    uint32_t edges;                     /* R0.2 9:8 (POLYGON) */
};

/* The objects of a primitive packet (topology, flags, n vertices) in the
 * table's order; returns how many (at most `max`). *unsupported is set when
 * the packet's topology cannot be staged (the packet is dropped). */
uint32_t gs_gen4_stage_objects(uint32_t topology, uint32_t flags, uint32_t n, bool reorder,
                               struct gs_gen4_object *out, uint32_t max, bool *unsupported);

/* ---- the unit's side ---- */

#define GS_GEN4_JOBS 8u                 /* objects the unit stages ahead of their threads */
#define GS_GEN4_MAX_ROWS 64u            /* Vertex URB Entry Read Offset + Length */
#define GS_GEN4_CURBE_REGS 32u
#define GS_GEN4_TAG 0x80000000u         /* URB reply tags of the Gen4 part */

/* What the GS unit lends its Gen4 part. */
struct gs_gen4_host {
    struct unit *unit;
    struct ff_stage *stage;             /* primitives out, in order */
    struct stage_threads *threads;      /* FFID_GS; NULL when no "td" is linked */
    const struct stage_bases *bases;
    const struct stage_space *space;
    bool urb_linked;
    uint64_t thread_timeout;            /* 0: no watchdog */
    void *context;
    /* queued in order behind the unit's other URB requests */
    void (*urb_send)(void *context, uint32_t op, uint32_t tag, uint32_t count,
                     const uint32_t *handles, uint32_t row, uint32_t rows);
};

struct gs_gen4_job {
    uint8_t phase;
    struct gs_gen4_object object;
    uint32_t handles[GS_GEN4_OBJECT_VERTICES];
    uint32_t entry;                     /* the initial GS entry (URB Return Handle) */
    uint32_t seq, reads_pending, instance, primitive_id, draw;
    uint64_t since;
    uint8_t (*vue)[GS_GEN4_MAX_ROWS][32];   /* read rows per vertex, until dispatch */
    struct gen4_thread_outputs outputs; /* last: a new job clears what is before it */
};

struct gs_gen4 {
    uint64_t general_base;
    bool enable;                        /* GS Enable with a readable GS_STATE */
    struct gs_gen4_state st;
    bool curbe_valid;
    uint64_t curbe_address;
    uint32_t curbe_regs;
    uint8_t curbe[GS_GEN4_CURBE_REGS][32];
    /* the packet being staged */
    const struct msg *msg;
    struct gs_gen4_object objects[PRIM_MAX_VERTICES];
    uint32_t object_count, object_next;
    /* jobs in object order */
    struct gs_gen4_job jobs[GS_GEN4_JOBS];
    uint32_t head, count, job_seq;
    bool warned_timeout, warned_no_threads;
    /* stats */
    uint64_t state_reads, state_faults, objects_unrun, objects_staged, threads_dispatched;
    struct gen4_notice_counters notices;
    uint64_t primitives_out, vertices_out, dangling_outputs, bad_output_topology, watchdog_drops;
    uint64_t refused_entries, entries, alloc_wait_cycles, bad_grf_start, payload_truncated;
    uint64_t curbe_faults, unsupported_topology, configures, bad_replies, fence_markers;
};

bool gs_gen4_take_state(struct gs_gen4 *g, const struct gs_gen4_host *h,
                        const struct cs_state_packet *p);
/* A primitive while Gen4 state is in force (ff_stage work()): an enum
 * ff_stage_work_result. */
int gs_gen4_work_primitive(struct gs_gen4 *g, const struct gs_gen4_host *h, struct msg *m,
                           uint64_t *invocations);
/* A URB reply with GS_GEN4_TAG. */
void gs_gen4_take_urb_reply(struct gs_gen4 *g, const struct gs_gen4_host *h,
                            const struct urb_msg *q, uint32_t size);
/* Notices, allocations, dispatches, the watchdog, output in order. True
 * while an object waits for a thread slot or a TD channel (poll again). */
bool gs_gen4_step(struct gs_gen4 *g, const struct gs_gen4_host *h, uint64_t *invocations);
bool gs_gen4_busy(const struct gs_gen4 *g);
void gs_gen4_clear(struct gs_gen4 *g);

#endif
