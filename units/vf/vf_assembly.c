/* units/vf/vf_assembly.c - primitive assembly (vf_assembly.h). */
#include "units/vf/vf_assembly.h"

#include <string.h>

enum shape { SHAPE_NONE, SHAPE_LIST, SHAPE_LINESTRIP, SHAPE_LINESTRIP_ADJ, SHAPE_TRISTRIP,
             SHAPE_FAN, SHAPE_QUADSTRIP, SHAPE_TRISTRIP_ADJ };

/* How a topology makes objects: its shape, the vertices of a list object, the
 * vertices a strip needs before its first object, and the type it leaves as. */
struct topology_rule {
    uint8_t shape, group, minimum;
    uint8_t out;
};

static struct topology_rule rule_of(uint32_t topology)
{
    uint32_t patch = prim_patch_vertices(topology);
    if (patch)
        return (struct topology_rule){ SHAPE_LIST, (uint8_t)patch, (uint8_t)patch, (uint8_t)topology };
    switch (topology) {
    case PRIM_POINTLIST: case PRIM_POINTLIST_BF:
        return (struct topology_rule){ SHAPE_LIST, 1, 1, (uint8_t)topology };
    case PRIM_LINELIST: return (struct topology_rule){ SHAPE_LIST, 2, 2, PRIM_LINELIST };
    case PRIM_LINELIST_ADJ: return (struct topology_rule){ SHAPE_LIST, 4, 4, PRIM_LINELIST_ADJ };
    case PRIM_TRILIST: return (struct topology_rule){ SHAPE_LIST, 3, 3, PRIM_TRILIST };
    case PRIM_TRILIST_ADJ: return (struct topology_rule){ SHAPE_LIST, 6, 6, PRIM_TRILIST_ADJ };
    case PRIM_RECTLIST: return (struct topology_rule){ SHAPE_LIST, 3, 3, PRIM_RECTLIST };
    case PRIM_QUADLIST: return (struct topology_rule){ SHAPE_LIST, 4, 4, PRIM_POLYGON };
    case PRIM_LINESTRIP: case PRIM_LINESTRIP_CONT: case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT_BF:
        return (struct topology_rule){ SHAPE_LINESTRIP, 2, 2, (uint8_t)topology };
    case PRIM_LINELOOP: return (struct topology_rule){ SHAPE_LINESTRIP, 2, 2, PRIM_LINESTRIP };
    case PRIM_LINESTRIP_ADJ:
        return (struct topology_rule){ SHAPE_LINESTRIP_ADJ, 4, 4, PRIM_LINESTRIP_ADJ };
    case PRIM_TRISTRIP: case PRIM_TRISTRIP_REVERSE:
        return (struct topology_rule){ SHAPE_TRISTRIP, 3, 3, (uint8_t)topology };
    case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_POLYGON:
        return (struct topology_rule){ SHAPE_FAN, 3, 3, (uint8_t)topology };
    case PRIM_QUADSTRIP: return (struct topology_rule){ SHAPE_QUADSTRIP, 2, 4, PRIM_POLYGON };
    case PRIM_TRISTRIP_ADJ:
        return (struct topology_rule){ SHAPE_TRISTRIP_ADJ, 2, 6, PRIM_TRISTRIP_ADJ };
    default:
        return (struct topology_rule){ SHAPE_NONE, 0, 0, 0 };
    }
}

bool vf_topology_cuts(uint32_t topology)
{
    return topology != PRIM_RECTLIST && topology != PRIM_TRIFAN_NOSTIPPLE;
}

/* Vertex i of the current topology (it must still be in the window). */
static uint32_t vertex_at(const struct vf_assembler *a, uint64_t i)
{
    return a->window[i % VF_ASSEMBLY_WINDOW];
}

/* The vertices of the current topology that belong to complete objects. */
static uint64_t complete_vertices(const struct topology_rule *rule, uint64_t n)
{
    if (n < rule->minimum)
        return 0;
    switch (rule->shape) {
    case SHAPE_LIST: return n - n % rule->group;
    case SHAPE_QUADSTRIP: case SHAPE_TRISTRIP_ADJ: return n - n % 2;
    default: return n;
    }
}

static uint32_t provoking_of(const struct vf_assembly_config *config, uint32_t out, unsigned count)
{
    uint32_t select;
    switch (out) {
    case PRIM_POLYGON: case PRIM_RECTLIST: return 0;
    case PRIM_LINELIST: case PRIM_LINESTRIP: case PRIM_LINESTRIP_CONT: case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT_BF:
        select = config->line_provoking;
        return select < 2 ? select : 0;
    case PRIM_LINELIST_ADJ: case PRIM_LINESTRIP_ADJ:
        return 1 + (config->line_provoking < 2 ? config->line_provoking : 0);
    case PRIM_TRILIST: case PRIM_TRISTRIP: case PRIM_TRISTRIP_REVERSE:
        select = config->tri_provoking;
        return select < 3 ? select : 0;
    case PRIM_TRILIST_ADJ: case PRIM_TRISTRIP_ADJ:
        return 2 * (config->tri_provoking < 3 ? config->tri_provoking : 0);
    case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE:
        select = config->fan_provoking;
        return select < 3 ? select : 0;
    default:
        (void)count;
        return 0;
    }
}

/* Hands the held object on (with END if `last`), then holds `next` (if any). */
static void flush_pending(struct vf_assembler *a, bool last)
{
    if (!a->have_pending)
        return;
    if (last)
        a->pending.flags |= PRIM_END;
    a->counters.objects++;
    a->emit(a->context, &a->pending);
    a->have_pending = false;
}

static void put_object(struct vf_assembler *a, uint32_t topology, const uint32_t *vertices,
                       unsigned count, bool invert)
{
    flush_pending(a, false);
    struct vf_object *o = &a->pending;
    memset(o, 0, sizeof *o);
    o->topology = topology;
    o->vertex_count = count;
    memcpy(o->vertices, vertices, count * sizeof vertices[0]);
    o->provoking = provoking_of(&a->config, topology, count);
    o->invert_orientation = invert;
    if (a->objects_in_run == 0)
        o->flags |= PRIM_START;
    if (a->restarted)
        o->flags |= PRIM_RESTARTED;
    a->objects_in_run++;
    a->have_pending = true;
}

/* Triangle k of a TRISTRIP[_REVERSE] (vertices k, k+1, k+2 are in the window). */
static void put_strip_triangle(struct vf_assembler *a, uint64_t k)
{
    uint32_t v0 = vertex_at(a, k), v1 = vertex_at(a, k + 1), v2 = vertex_at(a, k + 2);
    bool invert = (k % 2 == 1) != (a->config.topology == PRIM_TRISTRIP_REVERSE);
    if (a->config.reorder == VF_REORDER_NONE) {
        put_object(a, a->config.topology, (uint32_t[]){ v0, v1, v2 }, 3, invert);
    } else if (!invert) {
        put_object(a, PRIM_TRISTRIP, (uint32_t[]){ v0, v1, v2 }, 3, false);
    } else if (a->config.reorder == VF_REORDER_LEADING) {
        put_object(a, PRIM_TRISTRIP_REVERSE, (uint32_t[]){ v0, v2, v1 }, 3, false);
    } else {
        put_object(a, PRIM_TRISTRIP_REVERSE, (uint32_t[]){ v1, v0, v2 }, 3, false);
    }
}

/* Object k of a TRISTRIP_ADJ of `n` vertices (n known only for the last one);
 * relative vertex numbers from the seed's trailing rows (L13112). */
static void put_strip_adj_object(struct vf_assembler *a, uint64_t k, bool last)
{
    uint64_t b = 2 * k;         /* the object's first strip vertex */
    uint64_t r[6];
    bool first = k == 0, odd = k % 2 == 1;
    if (first && last) {
        uint64_t t[6] = { 0, 1, 2, 5, 4, 3 };
        memcpy(r, t, sizeof r);
    } else if (first) {
        uint64_t t[6] = { 0, 1, 2, 6, 4, 3 };
        memcpy(r, t, sizeof r);
    } else if (!odd) {
        uint64_t t[6] = { b, b - 2, b + 2, last ? b + 5 : b + 6, b + 4, b + 3 };
        memcpy(r, t, sizeof r);
    } else {
        uint64_t t[6] = { b + 2, b - 2, b, b + 3, b + 4, last ? b + 5 : b + 6 };
        memcpy(r, t, sizeof r);
    }
    if (!first && odd && a->config.reorder == VF_REORDER_LEADING) {
        /* start at vertex 2k: (p1, a12, p2, a20, p0, a01) of the trailing row */
        uint64_t t[6] = { r[2], r[3], r[4], r[5], r[0], r[1] };
        memcpy(r, t, sizeof r);
    }
    uint32_t v[6];
    for (unsigned i = 0; i < 6; i++)
        v[i] = vertex_at(a, r[i]);
    put_object(a, PRIM_TRISTRIP_ADJ, v, 6, false);
}

/* Ends the current topology (draw end or cut). */
static void end_topology(struct vf_assembler *a)
{
    struct topology_rule rule = rule_of(a->config.topology);
    uint64_t n = a->count;
    if (rule.shape == SHAPE_TRISTRIP_ADJ && n >= 6)
        put_strip_adj_object(a, n / 2 - 3, true);
    if (a->config.topology == PRIM_LINELOOP && n >= 2)
        put_object(a, PRIM_LINESTRIP, (uint32_t[]){ vertex_at(a, n - 1), a->first }, 2, false);
    flush_pending(a, true);
    uint64_t complete = complete_vertices(&rule, n);
    a->counters.vertices += complete;
    a->counters.dangling_vertices += n - complete;
    a->count = 0;
    a->objects_in_run = 0;
}

void vf_assembly_begin(struct vf_assembler *a, const struct vf_assembly_config *config,
                       vf_emit_fn emit, void *context)
{
    a->config = *config;
    a->emit = emit;
    a->context = context;
    a->known = rule_of(config->topology).shape != SHAPE_NONE;
    if (!a->known)
        a->counters.bad_topology++;
    a->restarted = false;
    a->have_pending = false;
    a->count = 0;
    a->objects_in_run = 0;
    a->first = 0;
}

void vf_assembly_vertex(struct vf_assembler *a, uint32_t index)
{
    if (!a->known)
        return;
    if (a->config.cut_enable && index == a->config.cut_index &&
        vf_topology_cuts(a->config.topology)) {
        a->counters.cuts++;
        end_topology(a);
        a->restarted = true;
        return;
    }
    struct topology_rule rule = rule_of(a->config.topology);
    uint64_t i = a->count++;
    a->window[i % VF_ASSEMBLY_WINDOW] = index;
    if (i == 0)
        a->first = index;
    uint64_t n = a->count;
    switch (rule.shape) {
    case SHAPE_LIST:
        if (n % rule.group == 0) {
            uint32_t v[PRIM_MAX_VERTICES];
            for (unsigned j = 0; j < rule.group; j++)
                v[j] = vertex_at(a, n - rule.group + j);
            put_object(a, rule.out, v, rule.group, false);
        }
        break;
    case SHAPE_LINESTRIP:
        if (n >= 2)
            put_object(a, rule.out, (uint32_t[]){ vertex_at(a, n - 2), index }, 2, false);
        break;
    case SHAPE_LINESTRIP_ADJ:
        if (n >= 4)
            put_object(a, rule.out, (uint32_t[]){ vertex_at(a, n - 4), vertex_at(a, n - 3),
                                                  vertex_at(a, n - 2), index }, 4, false);
        break;
    case SHAPE_TRISTRIP:
        if (n >= 3)
            put_strip_triangle(a, n - 3);
        break;
    case SHAPE_FAN:
        if (n >= 3)
            put_object(a, rule.out, (uint32_t[]){ a->first, vertex_at(a, n - 2), index }, 3, false);
        break;
    case SHAPE_QUADSTRIP:
        if (n >= 4 && n % 2 == 0) {
            put_object(a, rule.out, (uint32_t[]){ vertex_at(a, n - 4), vertex_at(a, n - 3),
                                                  index, vertex_at(a, n - 2) }, 4, false);
            a->pending.flags |= PRIM_QUADSTRIP_OBJECT;     /* the GS's PrimTopologyType */
        }
        break;
    case SHAPE_TRISTRIP_ADJ:
        /* object k is not the last once vertex 2k+7 exists (object k+1 will) */
        if (n >= 8 && n % 2 == 0)
            put_strip_adj_object(a, n / 2 - 4, false);
        break;
    default:
        break;
    }
}

void vf_assembly_end(struct vf_assembler *a)
{
    if (a->known)
        end_topology(a);
}

unsigned vf_assembly_history(uint32_t topology, bool *uses_first)
{
    struct topology_rule rule = rule_of(topology);
    *uses_first = rule.shape == SHAPE_FAN || topology == PRIM_LINELOOP;
    switch (rule.shape) {
    case SHAPE_LIST: return rule.group - 1u;        /* the incomplete object's vertices */
    case SHAPE_LINESTRIP: case SHAPE_FAN: return 1;
    case SHAPE_TRISTRIP: return 2;
    case SHAPE_LINESTRIP_ADJ: case SHAPE_QUADSTRIP: return 3;
    /* put_strip_adj_object: a middle object reaches 8 back, the last one of an
     * odd-length strip 9 */
    case SHAPE_TRISTRIP_ADJ: return 9;
    default: return 0;
    }
}

const struct vf_object *vf_assembly_held(const struct vf_assembler *a)
{
    return a->have_pending ? &a->pending : NULL;
}

bool vf_topology_known(uint32_t topology)
{
    return rule_of(topology).shape != SHAPE_NONE;
}
