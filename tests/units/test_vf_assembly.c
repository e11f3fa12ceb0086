/* tests/units/test_vf_assembly.c - primitive assembly (units/vf/vf_assembly.h).
 *
 * Every expected object list is written out by hand from seed 003: the topology
 * descriptions (L11559-11654), the GS object vertex ordering table (L13071-13125,
 * whose rows are quoted next to the checks), SF's decompositions (L14500-14720),
 * the cut table (L11867-11883) and dangling vertex removal (L12181-12200). Index
 * values are 100 + position so a check also sees that indices, not positions,
 * come out. */
#include "../test.h"

#include <stdarg.h>
#include <string.h>

#include "units/vf/vf_assembly.h"

#define CUT 0xffffu

struct collected {
    unsigned count;
    struct vf_object objects[64];
};

static void collect(void *context, const struct vf_object *object)
{
    struct collected *c = context;
    if (c->count < 64)
        c->objects[c->count] = *object;
    c->count++;
}

/* Runs one draw of `n` indices; a negative entry is the cut index. */
static struct vf_assembly_counters draw(const struct vf_assembly_config *config, const int *indices,
                                       unsigned n, struct collected *out)
{
    struct vf_assembler a;
    memset(&a, 0, sizeof a);
    memset(out, 0, sizeof *out);
    vf_assembly_begin(&a, config, collect, out);
    for (unsigned i = 0; i < n; i++)
        vf_assembly_vertex(&a, indices[i] < 0 ? CUT : (uint32_t)indices[i]);
    vf_assembly_end(&a);
    return a.counters;
}

/* Sequential indices 100 .. 100 + n - 1. */
static struct vf_assembly_counters draw_sequence(uint32_t topology, unsigned n, uint32_t reorder,
                                                struct collected *out)
{
    int indices[64];
    for (unsigned i = 0; i < n; i++)
        indices[i] = 100 + (int)i;
    struct vf_assembly_config config = { .topology = topology, .reorder = reorder };
    return draw(&config, indices, n, out);
}

/* Checks one object: type, flags, inversion, provoking, then its vertices given
 * as positions (the index is 100 + position). */
static void expect(const struct collected *c, unsigned i, uint32_t topology, uint32_t flags,
                   bool invert, uint32_t provoking, unsigned count, ...)
{
    CU_ASSERT_FATAL(i < c->count);
    const struct vf_object *o = &c->objects[i];
    CU_ASSERT_EQUAL(o->topology, topology);
    CU_ASSERT_EQUAL(o->flags, flags);
    CU_ASSERT_EQUAL(o->invert_orientation, invert);
    CU_ASSERT_EQUAL(o->provoking, provoking);
    CU_ASSERT_EQUAL(o->vertex_count, count);
    va_list ap;
    va_start(ap, count);
    for (unsigned k = 0; k < count; k++) {
        unsigned position = va_arg(ap, unsigned);
        CU_ASSERT_EQUAL(o->vertices[k], 100 + position);
    }
    va_end(ap);
}

#define S PRIM_START
#define E PRIM_END
#define R PRIM_RESTARTED

static void test_points_lines(void)
{
    struct collected c;
    struct vf_assembly_counters n = draw_sequence(PRIM_POINTLIST, 3, 0, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 0, PRIM_POINTLIST, S, false, 0, 1, 0);
    expect(&c, 1, PRIM_POINTLIST, 0, false, 0, 1, 1);
    expect(&c, 2, PRIM_POINTLIST, E, false, 0, 1, 2);
    CU_ASSERT_EQUAL(n.objects, 3);
    CU_ASSERT_EQUAL(n.vertices, 3);

    /* 5-vertex LINELIST: (0,1), (2,3); vertex 4 dangles */
    n = draw_sequence(PRIM_LINELIST, 5, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_LINELIST, S, false, 0, 2, 0, 1);
    expect(&c, 1, PRIM_LINELIST, E, false, 0, 2, 2, 3);
    CU_ASSERT_EQUAL(n.vertices, 4);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);

    /* LINESTRIP: (0,1), (1,2) */
    draw_sequence(PRIM_LINESTRIP, 3, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_LINESTRIP, S, false, 0, 2, 0, 1);
    expect(&c, 1, PRIM_LINESTRIP, E, false, 0, 2, 1, 2);

    /* LINELOOP becomes LINESTRIP with the closing line (N-1, 0), counted */
    n = draw_sequence(PRIM_LINELOOP, 3, 0, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 0, PRIM_LINESTRIP, S, false, 0, 2, 0, 1);
    expect(&c, 1, PRIM_LINESTRIP, 0, false, 0, 2, 1, 2);
    expect(&c, 2, PRIM_LINESTRIP, E, false, 0, 2, 2, 0);
    CU_ASSERT_EQUAL(n.objects, 3);
    CU_ASSERT_EQUAL(n.vertices, 3);
    /* the 2-vertex loop OpenGL needs: (0,1) and (1,0) */
    draw_sequence(PRIM_LINELOOP, 2, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 1, PRIM_LINESTRIP, E, false, 0, 2, 1, 0);
    n = draw_sequence(PRIM_LINELOOP, 1, 0, &c);
    CU_ASSERT_EQUAL(c.count, 0);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);

    /* LINELIST_ADJ: (0,1,2,3), (4,5,6,7); the line is 1-2, so provoking is 1 */
    draw_sequence(PRIM_LINELIST_ADJ, 9, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_LINELIST_ADJ, S, false, 1, 4, 0, 1, 2, 3);
    expect(&c, 1, PRIM_LINELIST_ADJ, E, false, 1, 4, 4, 5, 6, 7);
    /* LINESTRIP_ADJ: [0] = (0,1,2,3); [1] = (1,2,3,4); ... */
    draw_sequence(PRIM_LINESTRIP_ADJ, 6, 0, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 1, PRIM_LINESTRIP_ADJ, 0, false, 1, 4, 1, 2, 3, 4);
    expect(&c, 2, PRIM_LINESTRIP_ADJ, E, false, 1, 4, 2, 3, 4, 5);
    n = draw_sequence(PRIM_LINESTRIP_ADJ, 3, 0, &c);
    CU_ASSERT_EQUAL(c.count, 0);
    CU_ASSERT_EQUAL(n.dangling_vertices, 3);
}

static void test_triangles(void)
{
    struct collected c;
    /* 7-vertex TRILIST: two triangles, the 7th vertex dangles */
    struct vf_assembly_counters n = draw_sequence(PRIM_TRILIST, 7, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_TRILIST, S, false, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRILIST, E, false, 0, 3, 3, 4, 5);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
    CU_ASSERT_EQUAL(n.vertices, 6);

    /* TRISTRIP in SF order: v0,v1,v2; v1,v2,v3; v2,v3,v4, orientation inverted
     * on every other triangle starting FALSE (L14630-14650) */
    draw_sequence(PRIM_TRISTRIP, 5, VF_REORDER_NONE, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 0, PRIM_TRISTRIP, S, false, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRISTRIP, 0, true, 0, 3, 1, 2, 3);
    expect(&c, 2, PRIM_TRISTRIP, E, false, 0, 3, 2, 3, 4);
    /* Reorder Leading: [0] = (0,1,2) {TRISTRIP}; [1] = (1,3,2) {TRISTRIP_REV} */
    draw_sequence(PRIM_TRISTRIP, 5, VF_REORDER_LEADING, &c);
    expect(&c, 0, PRIM_TRISTRIP, S, false, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRISTRIP_REVERSE, 0, false, 0, 3, 1, 3, 2);
    expect(&c, 2, PRIM_TRISTRIP, E, false, 0, 3, 2, 3, 4);
    /* Reorder Trailing: [1] = (2,1,3) {TRISTRIP_REV} */
    draw_sequence(PRIM_TRISTRIP, 4, VF_REORDER_TRAILING, &c);
    expect(&c, 1, PRIM_TRISTRIP_REVERSE, E, false, 0, 3, 2, 1, 3);

    /* TRISTRIP_REVERSE starts inverted; Leading [0] = (0,2,1) {TRISTRIP_REV},
     * [1] = (1,2,3) {TRISTRIP}; Trailing [0] = (1,0,2) */
    draw_sequence(PRIM_TRISTRIP_REVERSE, 4, VF_REORDER_NONE, &c);
    expect(&c, 0, PRIM_TRISTRIP_REVERSE, S, true, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRISTRIP_REVERSE, E, false, 0, 3, 1, 2, 3);
    draw_sequence(PRIM_TRISTRIP_REVERSE, 4, VF_REORDER_LEADING, &c);
    expect(&c, 0, PRIM_TRISTRIP_REVERSE, S, false, 0, 3, 0, 2, 1);
    expect(&c, 1, PRIM_TRISTRIP, E, false, 0, 3, 1, 2, 3);
    draw_sequence(PRIM_TRISTRIP_REVERSE, 3, VF_REORDER_TRAILING, &c);
    expect(&c, 0, PRIM_TRISTRIP_REVERSE, S | E, false, 0, 3, 1, 0, 2);

    /* TRIFAN: (0,1,2), (0,2,3), (0,3,4); the fan select picks the provoking vertex */
    int fan[5] = { 100, 101, 102, 103, 104 };
    struct vf_assembly_config config = { .topology = PRIM_TRIFAN, .fan_provoking = 2,
                                         .tri_provoking = 1 };
    draw(&config, fan, 5, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 0, PRIM_TRIFAN, S, false, 2, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRIFAN, 0, false, 2, 3, 0, 2, 3);
    expect(&c, 2, PRIM_TRIFAN, E, false, 2, 3, 0, 3, 4);
    /* POLYGON: same vertices, provoking vertex always 0 */
    config.topology = PRIM_POLYGON;
    draw(&config, fan, 5, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 2, PRIM_POLYGON, E, false, 0, 3, 0, 3, 4);
    /* the triangle list select applies to strips */
    config.topology = PRIM_TRISTRIP;
    draw(&config, fan, 3, &c);
    expect(&c, 0, PRIM_TRISTRIP, S | E, false, 1, 3, 0, 1, 2);

    /* TRILIST_ADJ: (0..5), (6..11); the 13th vertex dangles; provoking 2 * select */
    config.topology = PRIM_TRILIST_ADJ;
    int adj[13];
    for (int i = 0; i < 13; i++)
        adj[i] = 100 + i;
    n = draw(&config, adj, 13, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_TRILIST_ADJ, S, false, 2, 6, 0, 1, 2, 3, 4, 5);
    expect(&c, 1, PRIM_TRILIST_ADJ, E, false, 2, 6, 6, 7, 8, 9, 10, 11);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
}

static void test_quads_rects_patches(void)
{
    struct collected c;
    /* QUADLIST becomes POLYGON: (0,1,2,3), (4,5,6,7); vertex 8 dangles */
    struct vf_assembly_counters n = draw_sequence(PRIM_QUADLIST, 9, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_POLYGON, S, false, 0, 4, 0, 1, 2, 3);
    expect(&c, 1, PRIM_POLYGON, E, false, 0, 4, 4, 5, 6, 7);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
    /* QUADSTRIP: [0] = (0,1,3,2); [1] = (2,3,5,4); the 7th vertex dangles;
     * each quad marked a QUADSTRIP one (the Gen4 GS's PrimTopologyType, seed
     * 001 L7387-7395), QUADLIST's above not */
    n = draw_sequence(PRIM_QUADSTRIP, 7, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_POLYGON, S | PRIM_QUADSTRIP_OBJECT, false, 0, 4, 0, 1, 3, 2);
    expect(&c, 1, PRIM_POLYGON, E | PRIM_QUADSTRIP_OBJECT, false, 0, 4, 2, 3, 5, 4);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
    CU_ASSERT_EQUAL(n.vertices, 6);
    n = draw_sequence(PRIM_QUADSTRIP, 3, 0, &c);
    CU_ASSERT_EQUAL(c.count, 0);
    CU_ASSERT_EQUAL(n.dangling_vertices, 3);

    /* RECTLIST: 3 vertices per rectangle; the cut index is not honoured (N in
     * the cut table), so 0xffff is an ordinary vertex */
    int rect[6] = { 100, 101, -1, 103, 104, 105 };
    struct vf_assembly_config config = { .topology = PRIM_RECTLIST, .cut_enable = true,
                                         .cut_index = CUT };
    n = draw(&config, rect, 6, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    CU_ASSERT_EQUAL(c.objects[0].vertices[2], CUT);
    expect(&c, 1, PRIM_RECTLIST, E, false, 0, 3, 3, 4, 5);
    CU_ASSERT_EQUAL(n.cuts, 0);

    /* PATCHLIST_3: (0,1,2), (3,4,5); 2 dangle */
    n = draw_sequence(PRIM_PATCHLIST_1 + 2, 8, 0, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 1, PRIM_PATCHLIST_1 + 2, E, false, 0, 3, 3, 4, 5);
    CU_ASSERT_EQUAL(n.dangling_vertices, 2);
    /* PATCHLIST_32: one patch of all 32 */
    draw_sequence(PRIM_PATCHLIST_32, 32, 0, &c);
    CU_ASSERT_EQUAL(c.count, 1);
    CU_ASSERT_EQUAL(c.objects[0].vertex_count, 32);
    CU_ASSERT_EQUAL(c.objects[0].vertices[0], 100);
    CU_ASSERT_EQUAL(c.objects[0].vertices[31], 131);

    /* a topology VF does not know: counted, nothing out */
    n = draw_sequence(21, 6, 0, &c);
    CU_ASSERT_EQUAL(c.count, 0);
    CU_ASSERT_EQUAL(n.bad_topology, 1);
    CU_ASSERT_EQUAL(n.objects, 0);
}

static void test_tristrip_adj(void)
{
    struct collected c;
    /* N = 6 or 7: [0] = (0, 1, 2, 5, 4, 3); the 7th vertex dangles */
    draw_sequence(PRIM_TRISTRIP_ADJ, 6, VF_REORDER_LEADING, &c);
    CU_ASSERT_EQUAL(c.count, 1);
    expect(&c, 0, PRIM_TRISTRIP_ADJ, S | E, false, 0, 6, 0, 1, 2, 5, 4, 3);
    struct vf_assembly_counters n = draw_sequence(PRIM_TRISTRIP_ADJ, 7, VF_REORDER_TRAILING, &c);
    CU_ASSERT_EQUAL(c.count, 1);
    expect(&c, 0, PRIM_TRISTRIP_ADJ, S | E, false, 0, 6, 0, 1, 2, 5, 4, 3);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
    n = draw_sequence(PRIM_TRISTRIP_ADJ, 5, VF_REORDER_TRAILING, &c);
    CU_ASSERT_EQUAL(c.count, 0);
    CU_ASSERT_EQUAL(n.dangling_vertices, 5);

    /* N = 8: Leading [0] = (0,1,2,6,4,3); [1] = (2,5,6,7,4,0);
     *        Trailing [1] = (4,0,2,5,6,7) */
    draw_sequence(PRIM_TRISTRIP_ADJ, 8, VF_REORDER_LEADING, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_TRISTRIP_ADJ, S, false, 0, 6, 0, 1, 2, 6, 4, 3);
    expect(&c, 1, PRIM_TRISTRIP_ADJ, E, false, 0, 6, 2, 5, 6, 7, 4, 0);
    draw_sequence(PRIM_TRISTRIP_ADJ, 8, VF_REORDER_TRAILING, &c);
    expect(&c, 1, PRIM_TRISTRIP_ADJ, E, false, 0, 6, 4, 0, 2, 5, 6, 7);

    /* N = 12, Trailing: [0] = (0,1,2,6,4,3); [1] = (4,0,2,5,6,8);
     * [2] (k = 2, even) = (2k,2k-2,2k+2,2k+6,2k+4,2k+3) = (4,2,6,10,8,7);
     * trailing object [3] (odd) = (N-4,N-8,N-6,N-3,N-2,N-1) = (8,4,6,9,10,11) */
    draw_sequence(PRIM_TRISTRIP_ADJ, 12, VF_REORDER_TRAILING, &c);
    CU_ASSERT_EQUAL(c.count, 4);
    expect(&c, 0, PRIM_TRISTRIP_ADJ, S, false, 0, 6, 0, 1, 2, 6, 4, 3);
    expect(&c, 1, PRIM_TRISTRIP_ADJ, 0, false, 0, 6, 4, 0, 2, 5, 6, 8);
    expect(&c, 2, PRIM_TRISTRIP_ADJ, 0, false, 0, 6, 4, 2, 6, 10, 8, 7);
    expect(&c, 3, PRIM_TRISTRIP_ADJ, E, false, 0, 6, 8, 4, 6, 9, 10, 11);
    /* N = 12, Leading: [1] = (2,5,6,8,4,0); [3] = (N-6,N-3,N-2,N-1,N-4,N-8) */
    draw_sequence(PRIM_TRISTRIP_ADJ, 12, VF_REORDER_LEADING, &c);
    expect(&c, 1, PRIM_TRISTRIP_ADJ, 0, false, 0, 6, 2, 5, 6, 8, 4, 0);
    expect(&c, 2, PRIM_TRISTRIP_ADJ, 0, false, 0, 6, 4, 2, 6, 10, 8, 7);
    expect(&c, 3, PRIM_TRISTRIP_ADJ, E, false, 0, 6, 6, 9, 10, 11, 8, 4);
    /* N = 10 (and 11): trailing object [2] (even) = (N-6,N-8,N-4,N-1,N-2,N-3) */
    n = draw_sequence(PRIM_TRISTRIP_ADJ, 11, VF_REORDER_TRAILING, &c);
    CU_ASSERT_EQUAL(c.count, 3);
    expect(&c, 2, PRIM_TRISTRIP_ADJ, E, false, 0, 6, 4, 2, 6, 9, 8, 7);
    CU_ASSERT_EQUAL(n.dangling_vertices, 1);
    CU_ASSERT_EQUAL(n.vertices, 10);
}

static void test_restart(void)
{
    struct collected c;
    struct vf_assembly_config config = { .topology = PRIM_TRISTRIP, .cut_enable = true,
                                         .cut_index = CUT };
    /* a cut mid-strip: (0,1,2), (1,2,3) | (5,6,7) inverted FALSE again, (6,7,8) */
    int strip[9] = { 100, 101, 102, 103, -1, 105, 106, 107, 108 };
    struct vf_assembly_counters n = draw(&config, strip, 9, &c);
    CU_ASSERT_EQUAL(c.count, 4);
    expect(&c, 0, PRIM_TRISTRIP, S, false, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRISTRIP, E, true, 0, 3, 1, 2, 3);
    expect(&c, 2, PRIM_TRISTRIP, S | R, false, 0, 3, 5, 6, 7);
    expect(&c, 3, PRIM_TRISTRIP, E | R, true, 0, 3, 6, 7, 8);
    CU_ASSERT_EQUAL(n.cuts, 1);
    CU_ASSERT_EQUAL(n.vertices, 8);
    CU_ASSERT_EQUAL(n.dangling_vertices, 0);

    /* a strip cut after two vertices: both dangle; then (3,4,5) */
    int short_strip[6] = { 100, 101, -1, 103, 104, 105 };
    n = draw(&config, short_strip, 6, &c);
    CU_ASSERT_EQUAL(c.count, 1);
    expect(&c, 0, PRIM_TRISTRIP, S | E | R, false, 0, 3, 3, 4, 5);
    CU_ASSERT_EQUAL(n.dangling_vertices, 2);
    CU_ASSERT_EQUAL(n.vertices, 3);

    /* a cut disabled: 0xffff is a vertex */
    config.cut_enable = false;
    draw(&config, short_strip, 6, &c);
    CU_ASSERT_EQUAL(c.count, 4);

    /* TRILIST with a cut inside a triangle: (0,1,2) | 3,4 dangle | (6,7,8) */
    config = (struct vf_assembly_config){ .topology = PRIM_TRILIST, .cut_enable = true,
                                          .cut_index = 7 };
    int list[10] = { 100, 101, 102, 103, 104, 7, 106, 107, 108, 109 };
    n = draw(&config, list, 10, &c);
    CU_ASSERT_EQUAL(c.count, 2);
    expect(&c, 0, PRIM_TRILIST, S | E, false, 0, 3, 0, 1, 2);
    expect(&c, 1, PRIM_TRILIST, S | E | R, false, 0, 3, 6, 7, 8);
    CU_ASSERT_EQUAL(n.dangling_vertices, 3);

    /* LINELOOP closes each loop at the cut */
    config = (struct vf_assembly_config){ .topology = PRIM_LINELOOP, .cut_enable = true,
                                          .cut_index = CUT };
    int loops[6] = { 100, 101, 102, -1, 104, 105 };
    n = draw(&config, loops, 6, &c);
    CU_ASSERT_EQUAL(c.count, 5);
    expect(&c, 2, PRIM_LINESTRIP, E, false, 0, 2, 2, 0);
    expect(&c, 3, PRIM_LINESTRIP, S | R, false, 0, 2, 4, 5);
    expect(&c, 4, PRIM_LINESTRIP, E | R, false, 0, 2, 5, 4);
    CU_ASSERT_EQUAL(n.objects, 5);

    /* TRIFAN_NOSTIPPLE ignores the cut index */
    CU_ASSERT_FALSE(vf_topology_cuts(PRIM_TRIFAN_NOSTIPPLE));
    CU_ASSERT_FALSE(vf_topology_cuts(PRIM_RECTLIST));
    CU_ASSERT_TRUE(vf_topology_cuts(PRIM_TRISTRIP_ADJ));
}

static const struct test_case cases[] = {
    { "points and lines", test_points_lines },
    { "triangles, strips and fans", test_triangles },
    { "quads, rectangles and patches", test_quads_rects_patches },
    { "tristrip adjacency", test_tristrip_adj },
    { "primitive restart", test_restart },
    { 0 }
};
TEST_SUITE(vf_assembly, cases);
