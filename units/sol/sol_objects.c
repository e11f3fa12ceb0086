/* units/sol/sol_objects.c - SOL's input buffering: the objects a topology is
 * streamed out as (seed 003 L13736-13780). See sol.h. */
#include "units/sol/sol.h"

#include "units/common/primitive.h"

struct object_list {
    uint32_t *out;
    uint32_t count;         /* indices written */
};

static void put3(struct object_list *l, uint32_t a, uint32_t b, uint32_t c)
{
    l->out[l->count++] = a;
    l->out[l->count++] = b;
    l->out[l->count++] = c;
}

/* TRISTRIP and TRISTRIP_REV (L13759-13767): triangle k of a strip; "odd"
 * triangles of TRISTRIP, and "even" ones of TRISTRIP_REV, are reordered to
 * keep the leading (or trailing) vertices increasing. */
static void strip_triangle(struct object_list *l, uint32_t k, bool reversed, bool trailing)
{
    bool reorder = (k & 1) != reversed;
    if (!reorder)
        put3(l, k, k + 1, k + 2);
    else if (trailing)
        put3(l, k + 1, k, k + 2);
    else
        put3(l, k, k + 2, k + 1);
}

uint32_t sol_objects(uint32_t topology, uint32_t n, bool trailing,
                     uint32_t out[SOL_MAX_OBJECT_INDICES], uint32_t *per_object)
{
    struct object_list l = { out, 0 };
    if (n > PRIM_MAX_VERTICES)
        n = PRIM_MAX_VERTICES;
    uint32_t objects = 0, each = 0;
    uint32_t patch = prim_patch_vertices(topology);
    if (patch) {
        /* PATCHLIST_n: [i] = (n*i .. n*i + n-1) (L13778-13780) */
        each = patch;
        objects = n / patch;
        for (uint32_t i = 0; i < objects * patch; i++)
            out[l.count++] = i;
        *per_object = each;
        return objects;
    }
    switch (topology) {
    case PRIM_POINTLIST:
    case PRIM_POINTLIST_BF:
        each = 1;
        for (uint32_t i = 0; i < n; i++, objects++)
            out[l.count++] = i;
        break;
    case PRIM_LINELIST:
        each = 2;
        for (uint32_t i = 0; i + 1 < n; i += 2, objects++) {
            out[l.count++] = i;
            out[l.count++] = i + 1;
        }
        break;
    case PRIM_LINELIST_ADJ:             /* [i] = (4i+1, 4i+2) */
        each = 2;
        for (uint32_t i = 0; i + 3 < n; i += 4, objects++) {
            out[l.count++] = i + 1;
            out[l.count++] = i + 2;
        }
        break;
    case PRIM_LINESTRIP:
    case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF:
        each = 2;
        for (uint32_t i = 0; i + 1 < n; i++, objects++) {
            out[l.count++] = i;
            out[l.count++] = i + 1;
        }
        break;
    case PRIM_LINESTRIP_ADJ:            /* [i] = (i+1, i+2), i = 0..N-4 */
        each = 2;
        for (uint32_t i = 0; i + 3 < n; i++, objects++) {
            out[l.count++] = i + 1;
            out[l.count++] = i + 2;
        }
        break;
    case PRIM_TRILIST:
    case PRIM_RECTLIST:                 /* "Handled same as TRILIST" */
        each = 3;
        for (uint32_t i = 0; i + 2 < n; i += 3, objects++)
            put3(&l, i, i + 1, i + 2);
        break;
    case PRIM_TRILIST_ADJ:              /* [i] = (6i, 6i+2, 6i+4) */
        each = 3;
        for (uint32_t i = 0; i + 5 < n; i += 6, objects++)
            put3(&l, i, i + 2, i + 4);
        break;
    case PRIM_TRISTRIP:
    case PRIM_TRISTRIP_REVERSE:
        each = 3;
        for (uint32_t k = 0; k + 2 < n; k++, objects++)
            strip_triangle(&l, k, topology == PRIM_TRISTRIP_REVERSE, trailing);
        break;
    case PRIM_TRISTRIP_ADJ:
        /* (N/2) - 2 objects over the even vertices: LEADING [k even] =
         * (2k, 2k+2, 2k+4), [k odd] = (2k, 2k+4, 2k+2); TRAILING [k odd] =
         * (2k+2, 2k, 2k+4); the first and trailing objects of the table
         * follow the same rule (L13768-13771) */
        each = 3;
        for (uint32_t k = 0; n >= 6 && k < n / 2 - 2; k++, objects++) {
            if (!(k & 1))
                put3(&l, 2 * k, 2 * k + 2, 2 * k + 4);
            else if (trailing)
                put3(&l, 2 * k + 2, 2 * k, 2 * k + 4);
            else
                put3(&l, 2 * k, 2 * k + 4, 2 * k + 2);
        }
        break;
    case PRIM_TRIFAN:
    case PRIM_TRIFAN_NOSTIPPLE:
    case PRIM_POLYGON:                  /* "Same as TRIFAN" */
        each = 3;
        for (uint32_t i = 1; i + 1 < n; i++, objects++)
            put3(&l, 0, i, i + 1);
        break;
    default:
        /* LINELOOP, QUADLIST, QUADSTRIP: "Not supported after VF" */
        *per_object = 0;
        return 0;
    }
    *per_object = each;
    return objects;
}
