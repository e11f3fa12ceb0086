/* units/vf/vf_internal.h - the VF unit's state, shared by its files (see vf.h). */
#ifndef GTSIM_UNITS_VF_INTERNAL_H
#define GTSIM_UNITS_VF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fifo.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/primitive.h"
#include "units/vf/vf_assembly.h"
#include "units/vf/vf.h"
#include "units/vf/vf_fetch.h"

struct unit;
struct msg;

#define VF_MAX_BUFFERS 33u          /* Vertex Buffer Index 0..32 (004 3DSTATE_VERTEX_BUFFERS) */
#define VF_MAX_ELEMENTS 34u         /* "Up to 34 elements" (004 L6420) */
#define VF_ELEMENT_DWORDS 4u        /* "The pitch between elements packed in the URB will always
                                       be 128 bits" (004 L6431) */
#define VF_MAX_VUE_ELEMENTS 34u     /* elements plus SGVS insertion (up to the 33rd, 004 L6558) */
#define VF_WINDOW 32u               /* the vertices of the current topology kept for its objects */
#define VF_IB_PREFETCH 4u           /* index-buffer lines requested ahead */
#define VF_NONE UINT32_MAX

/* One vertex the VF fetched (or found in its cache). */
struct vf_record {
    bool used;
    bool alloc_pending;             /* ALLOC sent, no ALLOCATED yet */
    bool write_pending;             /* WRITE sent, no WRITE_DONE yet */
    bool written;                   /* its VUE is complete (or no URB is linked) */
    bool failed;                    /* the URB gave no entry: objects using it are dropped */
    bool fetching;                  /* in the fetch ring, not yet written */
    bool sent;                      /* a primitive carried it already (primitive.h new_vertices) */
    uint32_t holders;               /* the window, the cache and queued objects that use it */
    uint32_t handle;                /* URB_HANDLE_NONE until allocated */
    uint32_t lines_pending;         /* vertex-data lines not yet answered by the L3 */
    uint32_t vertex_index, vertex_id, instance_id, primitive_id;
};

struct vf_queued_object {
    uint32_t topology, flags, vertex_count, provoking, instance, primitive_id;
    uint32_t records[PRIM_MAX_VERTICES];
};

struct vf_cache_entry {
    bool valid;
    uint32_t vertex_index, record;
};

struct vf_line_request {
    uint64_t address;               /* physical */
    uint32_t tag;
};

struct vf_ib_line {
    bool valid, answered;
    uint64_t line;                  /* virtual address / 64 */
};

/* The draw being executed. */
struct vf_draw {
    bool active, generating, instance_open;
    uint32_t id;
    uint32_t topology;
    bool random;
    uint32_t vertex_count, start_vertex, instance_count, start_instance;
    int32_t base_vertex;
    uint32_t instance, number;      /* InstanceID and VertexNumber (001 L4793-4834) */
    uint64_t objects_in_instance;   /* PrimitiveID (001 L5096-5108) */
    bool cache_enabled;
    uint32_t space_format;
    uint64_t space_root;
    /* the assembler's current topology: the vertices it may still use */
    uint32_t window[VF_WINDOW];
    uint32_t window_count, history;
    bool uses_first;
    uint32_t first;                 /* vertex 0 of the topology (fans, LINELOOP) */
    uint32_t held[PRIM_MAX_VERTICES], held_count;   /* the assembler's held object */
    uint32_t cache_limit;           /* cache entries in use for this draw */
};

struct vf {
    /* params */
    uint32_t records_capacity, cache_entries, objects_capacity, fetch_capacity;
    uint32_t vertices_per_cycle, primitives_per_cycle;
    uint64_t max_draw_vertices;
    /* ports */
    struct port *cs, *vs, *urb, *urb_reply, *l3, *l3_reply, *urb_state;
    struct unit *unit;
    struct ff_stage ff;
    /* state (the packets the VF takes, seed 003 L11853-11960) */
    uint32_t gen;
    struct vf_buffer buffers[VF_MAX_BUFFERS];
    bool buffer_valid[VF_MAX_BUFFERS];
    struct spec_VERTEX_ELEMENT_STATE elements[VF_MAX_ELEMENTS];
    uint32_t element_count;         /* valid elements from element 0 */
    bool instancing[VF_MAX_ELEMENTS];
    uint32_t step_rate[VF_MAX_ELEMENTS];
    /* Gen7: instancing is per buffer (vf_gen7.c) */
    bool gen7_instance_data[VF_MAX_BUFFERS];
    uint32_t gen7_step_rate[VF_MAX_BUFFERS];
    uint64_t ib_base;
    uint32_t ib_size, ib_format;
    bool ib_valid;
    bool cut_indexed, cut_sequential;
    uint32_t cut_index;
    uint32_t topology;
    struct spec_3DSTATE_VF_SGVS sgvs;
    bool statistics;
    bool vs_cache_disable;
    uint32_t vs_entries, vs_entry_bytes;    /* 3DSTATE_URB_VS (0: not seen) */
    /* Gen4 (vf_gen4.c): General State Base Address, VS_STATE through
     * 3DSTATE_PIPELINED_POINTERS */
    uint64_t gen4_general_base;
    uint64_t gen4_state_faults, gen4_configures;
    /* 3DPRIM_* registers for the indirect form (004 L597-612), set by CS_MMIO_WRITE */
    uint32_t prim_end_offset, prim_start_vertex, prim_vertex_count, prim_instance_count;
    uint32_t prim_start_instance, prim_base_vertex;
    /* IA_VERTICES_COUNT and IA_PRIMITIVES_COUNT (003 L12185-12200) */
    uint64_t ia_vertices, ia_primitives;
    /* the draw */
    struct vf_draw draw;
    struct vf_assembler assembler;
    uint64_t counted_vertices, counted_objects;     /* assembler counters already applied */
    struct vf_record *records;
    uint32_t *free_records, free_count;
    struct vf_cache_entry *cache;
    uint32_t cache_next;
    struct vf_queued_object *objects;               /* ring */
    uint32_t object_head, object_count;
    uint32_t *fetch;                                /* ring of records to allocate and write */
    uint32_t fetch_head, fetch_count, fetch_allocs; /* fetch_allocs: ALLOCs sent from the head */
    struct fifo lines;                              /* struct vf_line_request waiting for "l3" */
    struct fifo derefs;                             /* uint32_t handles to dereference */
    struct vf_ib_line ib_lines[VF_IB_PREFETCH];
    uint32_t ib_next, ib_outstanding;
    uint32_t draws_started;
    struct vf_observed_draw *observed;              /* per draw (vf.h) */
    uint32_t observed_count, observed_capacity;
    bool progress;                                  /* something moved this tick */
    uint32_t warned;
    /* stats */
    uint64_t draws, empty_draws, indirect_draws, instances, vertices_generated, vertices_fetched;
    uint64_t cache_hits, cache_misses, primitives_out, objects_dropped, lines_requested;
    uint64_t index_lines, urb_allocs, urb_writes, urb_references, urb_dereferences;
    uint64_t stall_urb, stall_l3, stall_output, stall_records;
    uint64_t urb_state_copied, urb_state_dropped;
    struct vf_fetch_counters fetch_counters;
    uint64_t index_out_of_bounds, unsupported_gen, bad_topology;
    uint64_t refused_allocations, address_faults, bad_state, bad_draws, bad_messages;
    uint64_t edge_flags_ignored, sgvs_beyond_entry, urb_too_small, registers_written;
    uint64_t syncs;
};

/* vf_draw.c */
/* The draw's record (vf.h), NULL past VF_OBSERVED_DRAWS; its last cycle is now. */
struct vf_observed_draw *vf_observed_touch(struct vf *s, uint32_t draw);
int vf_draw_init(struct vf *s, struct gt_error *err);
void vf_draw_free(struct vf *s);
void vf_draw_reset(struct vf *s);
/* Starts the 3DPRIMITIVE p; false when it draws nothing (counted). */
bool vf_draw_start(struct vf *s, const struct cs_state_packet *p);
/* Advances the active draw; true when it is complete (everything sent and released). */
bool vf_draw_step(struct vf *s);

/* vf_gen7.c: Gen7 VERTEX_BUFFER_STATE (End Address, per-buffer instancing) */
void vf_take_vertex_buffers_gen7(struct vf *s, const struct cs_state_packet *p);
/* Gen7: each element steps as its buffer's Buffer Access Type says */
void vf_gen7_element_instancing(struct vf *s);
/* Gen4 (vf_gen4.c) */
void vf_take_vertex_buffers_gen4(struct vf *s, const struct cs_state_packet *p);
void vf_take_pipelined_pointers_gen4(struct vf *s, const struct cs_state_packet *p);
void vf_fence_marker_gen4(struct vf *s);

/* vf_io.c: the URB and L3 sides */
void vf_io_replies(struct vf *s);
void vf_io_pump(struct vf *s);
bool vf_io_queue_line(struct vf *s, uint64_t virtual_address, uint32_t tag);
void vf_io_dereference(struct vf *s, uint32_t handle);
bool vf_io_reference(struct vf *s, const uint32_t *handles, uint32_t count);
void vf_record_release(struct vf *s, uint32_t record);
void vf_record_maybe_free(struct vf *s, uint32_t record);
void vf_warn_once(struct vf *s, unsigned bit, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define VF_TAG_INDEX_LINE 0x80000000u   /* l3 tags: index-buffer line slot | this */

#endif
