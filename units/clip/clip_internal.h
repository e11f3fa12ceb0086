/* units/clip/clip_internal.h - the CLIP unit's state, shared by its files (see clip.h). */
#ifndef GTSIM_UNITS_CLIP_INTERNAL_H
#define GTSIM_UNITS_CLIP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "units/clip/clip_gen4.h"
#include "units/clip/clip_polygon.h"
#include "units/common/stage_thread.h"
#include "units/common/ff_stage.h"
#include "units/common/gen4_thread_output.h"
#include "units/common/primitive.h"
#include "units/common/urb.h"

struct msg;
struct unit;

#define CLIP_VIEWPORTS 16u              /* SF_CLIP_VIEWPORT array (003 L15104) */
#define CLIP_VIEWPORT_BYTES 64u         /* 16 dwords each */
#define CLIP_MAX_VUE_ROWS 64u           /* VUE read length limit: 63 rows + header (L11800) */
#define CLIP_MAX_OBJECTS PRIM_MAX_VERTICES

/* One object of a primitive packet (a point, line or triangle). */
struct clip_object {
    uint8_t n;                          /* vertices: 1, 2 or 3 */
    uint8_t v[3];                       /* indices into the packet's handles[] */
    bool inverted;                      /* a strip's odd triangle: SF flips its winding */
    uint8_t provoking;                  /* index into v[] (3DSTATE_CLIP's selects) */
    uint32_t topology;                  /* the pass-through topology (003 L14311-14335) */
};

struct clip_viewport {
    bool valid;                         /* read from memory */
    float gb_xmin, gb_xmax, gb_ymin, gb_ymax;
};

enum clip_phase {
    CLIP_PHASE_NONE = 0,
    CLIP_PHASE_READ_HEADERS,            /* vertex headers (and clip distances) of the packet */
    CLIP_PHASE_OBJECTS,                 /* classify and act on objects in order */
    CLIP_PHASE_READ_FULL,               /* whole VUEs of the object being clipped */
    CLIP_PHASE_ALLOC,                   /* entries for the vertices clipping made */
    CLIP_PHASE_WRITE,                   /* writing them */
    CLIP_PHASE_EMIT,                    /* the clipped object to SF */
    CLIP_PHASE_FINISH,                  /* the input's references dropped */
};

/* Reply tags: phase << 8 | index. */
#define CLIP_TAG(phase, index) ((uint32_t)(phase) << 8 | (uint32_t)(index))

/* The packet being worked on. */
struct clip_job {
    const struct msg *msg;              /* the input at the head (NULL: none) */
    struct primitive_packet prim;
    uint32_t phase;                     /* enum clip_phase */
    struct clip_object objects[CLIP_MAX_OBJECTS];
    uint32_t object_count;
    uint32_t used;                      /* bitmask: vertices some object uses */
    uint32_t header_rows;               /* rows read per vertex for the test (1 or 2) */
    uint32_t sent, pending;             /* requests sent in the phase, replies awaited */
    uint64_t wait_since;
    uint8_t action[CLIP_MAX_OBJECTS];   /* enum clip_action per object */
    bool partial, adjacency, alloc_refused;
    bool strip_restart;                 /* a line strip's next segment out restarts the
                                         * stipple counter (PRIM_START, 003 L15540) */
    float pos[PRIM_MAX_VERTICES][4];
    float dist[PRIM_MAX_VERTICES][CLIP_DISTANCES];
    uint32_t header[PRIM_MAX_VERTICES][4];  /* D0-D3 */
    uint32_t object;                    /* the object being acted on */
    /* the object being clipped */
    struct clip_point out[CLIP_POLYGON_MAX];
    uint32_t out_count;
    bool line;
    uint32_t make_count;                /* vertices to write */
    uint8_t make[CLIP_POLYGON_MAX];     /* which out[] they are */
    uint32_t handle[CLIP_POLYGON_MAX];  /* the handle of each out[] */
    uint32_t full[CLIP_SOURCE_VERTICES][CLIP_MAX_VUE_ROWS * 8];
    uint32_t vertex_rows;
};

struct clip_state {
    /* 3DSTATE_CLIP */
    bool enable, statistics, force_clip_mask, force_cull_mask, perspective_divide_disable;
    bool viewport_xy, guardband, force_zero_rta;
    bool non_perspective_barycentric;
    uint32_t mode, api_mode, max_vp_index;
    uint32_t tri_provoking, line_provoking, fan_provoking;
    uint8_t clip_clip_mask, clip_cull_mask;
    /* 3DSTATE_RASTER */
    bool z_near, z_far;
    /* 3DSTATE_VS/DS/GS: enables and masks, GS vertex size; 3DSTATE_URB_*: entry sizes */
    bool stage_enable[3];               /* VS, DS, GS */
    uint8_t stage_clip_mask[3], stage_cull_mask[3];
    uint32_t gs_vertex_size;            /* Output Vertex Size (16 B units minus one) */
    uint32_t entry_size[3];             /* URB Entry Allocation Size (64 B units minus one) */
    bool entry_known[3];
    /* 3DSTATE_SF */
    bool sf_statistics;
    /* STATE_BASE_ADDRESS, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP */
    uint64_t dynamic_state_base;
    bool viewports_set;
    struct clip_viewport viewport[CLIP_VIEWPORTS];
};

/* ---- Gen4 (clip_gen4.h) ---- */
#define CLIP_GEN4_MAX_ROWS 64u          /* Vertex URB Entry Read Offset + Length (< 64 rows) */
#define CLIP_GEN4_CURBE_REGS 32u

struct clip_gen4_object {
    uint8_t n, v[3];
    uint32_t topology;                  /* the payload's Primitive Topology Type */
    uint32_t pass_topology;             /* the pass-through packet's */
    uint32_t flags;                     /* PRIM_STRIP_ODD for a pass-through odd strip triangle */
    uint32_t edges;                     /* R0.2 9:8 */
    uint32_t outcodes;                  /* ORed over the vertices */
    uint8_t action;                     /* enum clip_gen4_action */
    /* the thread of a SPAWN object */
    uint8_t phase;                      /* enum clip_gen4_job_phase */
    uint32_t handle;                    /* the initial CLIP-region entry */
    uint32_t seq;
    uint64_t since;
    struct gen4_thread_outputs outputs; /* last: a new object clears what is before it */
};

struct clip_gen4 {
    bool active;                        /* a Gen4 3DSTATE_PIPELINED_POINTERS arrived */
    bool enable;                        /* its CLIP Enable */
    bool threads_on;                    /* "td" linked */
    bool configure_pending;
    uint32_t fence_markers;             /* URB_FENCEs reached, URB_OP_FENCE not yet sent */
    bool watching;
    uint64_t general_base;
    struct clip_gen4_state st;
    struct stage_threads threads;
    struct stage_bases bases;
    struct stage_space space;
    bool curbe_valid;
    uint64_t curbe_address;
    uint32_t curbe_regs;
    uint8_t curbe[CLIP_GEN4_CURBE_REGS][32];
    /* the head packet */
    const struct msg *msg;
    struct primitive_packet prim;
    uint32_t phase;                     /* enum clip_gen4_phase */
    uint32_t rows;                      /* rows read per vertex */
    uint32_t pending, sent;
    uint64_t wait_since;
    uint32_t object_count, object, job_seq;
    struct clip_gen4_object objects[CLIP_MAX_OBJECTS];
    uint32_t header[PRIM_MAX_VERTICES][8];
    uint8_t vue[PRIM_MAX_VERTICES][CLIP_GEN4_MAX_ROWS][32];
    /* stats */
    uint64_t state_reads, state_faults, viewport_faults, bad_viewport;
    uint64_t trivially_accepted, trivially_rejected, must_clip, bad_objects;
    struct gen4_notice_counters notices;
    uint64_t passed, discarded, spawned, primitives_out;
    uint64_t dangling_outputs, watchdog_drops, refused_entries;
    uint64_t entries, alloc_wait_cycles, bad_grf_start, payload_truncated, curbe_faults;
    uint64_t partial_objects, adjacency_removed, unsupported_topology, reserved_mode;
    uint64_t no_threads, configures, gs_primitives, passed_whole;
};

struct clip {
    /* params */
    uint64_t thread_timeout;
    uint32_t per_cycle;
    bool count_cl_primitives;
    struct unit *self;
    /* ports */
    struct port *in, *out, *urb, *urb_reply, *drained;
    struct ff_stage stage;
    struct clip_state st;
    struct clip_job job;
    /* registers (the seed's 64-bit counters) */
    uint64_t cl_invocations, cl_primitives;
    uint32_t warned;
    /* stats */
    uint64_t packets_in, objects_in, trivially_accepted, trivially_rejected, clipped;
    uint64_t culled_by_distance, bad_objects, discarded, vertices_made, objects_out;
    uint64_t passed_whole, urb_alloc_wait_cycles, urb_read_wait_cycles, urb_port_stalls;
    uint64_t partial_objects, adjacency_vertices, patches_rejected, unsupported_topology;
    uint64_t clipped_away, clip_overflow, clip_nonfinite, alloc_refused, reserved_clip_mode;
    uint64_t clip_without_divide, bad_viewport, viewport_unreadable, bad_messages, bad_replies;
    uint64_t reserved_provoking, no_urb, vue_size_unknown, register_writes, syncs;
    uint64_t state_clip;
    struct clip_gen4 g4;
};

/* clip_object.c: a primitive packet's work (ff_stage work() for MSG_PRIMITIVE);
 * a URB reply for the job. */
int clip_work_primitive(struct clip *s, struct unit *u, struct msg *m);
void clip_take_urb_reply(struct clip *s, struct unit *u, struct msg *m);

void clip_warn_once(struct clip *s, struct unit *u, unsigned bit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
