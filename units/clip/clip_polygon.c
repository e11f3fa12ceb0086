/* units/clip/clip_polygon.c - see clip_polygon.h. */
#include "units/clip/clip_polygon.h"

#include <math.h>
#include <string.h>

/* ---- VertexClipTest (003 L13921-14121) ------------------------------------------------- */

uint32_t clip_vertex_test(const struct clip_test_config *c, const float pos[4],
                          const float dist[CLIP_DISTANCES], bool point)
{
    uint32_t oc = 0;
    uint32_t enabled = (uint32_t)c->clip_mask | c->cull_mask;
    bool nan = isnan(pos[0]) || isnan(pos[1]) || isnan(pos[2]) || isnan(pos[3]);
    for (uint32_t i = 0; dist && i < CLIP_DISTANCES; i++)
        if ((enabled >> i) & 1u)
            nan = nan || isnan(dist[i]);
    if (nan)
        oc |= CLIP_OC_BAD;
    /* clip space to NDC: x, y, z times rhw = 1/w (L11816-11821); with the
     * divide disabled the VUE holds x/w, y/w, z/w and rhw (004 L1496) */
    float x, y, z, rhw;
    if (c->perspective_divide_disable) {
        x = pos[0], y = pos[1], z = pos[2], rhw = pos[3];
    } else {
        rhw = 1.0f / pos[3];
        x = pos[0] * rhw, y = pos[1] * rhw, z = pos[2] * rhw;
    }
    bool rhw_neg = signbit(rhw) != 0;       /* "including negative 0" */
    if (rhw_neg)
        oc |= CLIP_OC_NEGW;
    bool vp_on = c->viewport_xy;
    bool gb_on = c->guardband && !point;    /* 004 L1470: non-point objects */
    if (vp_on) {
        bool xmin = rhw_neg ? x > -1.0f : x < -1.0f;
        bool xmax = rhw_neg ? x < 1.0f : x > 1.0f;
        bool ymin = rhw_neg ? y > -1.0f : y < -1.0f;
        bool ymax = rhw_neg ? y < 1.0f : y > 1.0f;
        oc |= (xmin ? CLIP_OC_VP_XMIN : 0) | (xmax ? CLIP_OC_VP_XMAX : 0) |
              (ymin ? CLIP_OC_VP_YMIN : 0) | (ymax ? CLIP_OC_VP_YMAX : 0);
    }
    if (c->z_near || c->z_far) {
        float zmin = c->d3d ? 0.0f : -1.0f, zmax = 1.0f;
        if (c->z_near && (rhw_neg ? z > zmin : z < zmin))
            oc |= CLIP_OC_VP_ZMIN;
        if (c->z_far && (rhw_neg ? z < zmax : z > zmax))
            oc |= CLIP_OC_VP_ZMAX;
    }
    if (gb_on) {
        bool xmin = rhw_neg ? x > c->gb_xmin : x < c->gb_xmin;
        bool xmax = rhw_neg ? x < c->gb_xmax : x > c->gb_xmax;
        bool ymin = rhw_neg ? y > c->gb_ymin : y < c->gb_ymin;
        bool ymax = rhw_neg ? y < c->gb_ymax : y > c->gb_ymax;
        oc |= (xmin ? CLIP_OC_GB_XMIN : 0) | (xmax ? CLIP_OC_GB_XMAX : 0) |
              (ymin ? CLIP_OC_GB_YMIN : 0) | (ymax ? CLIP_OC_GB_YMAX : 0);
    }
    /* one set disabled: it takes the enabled set's outcodes (GB bits are VP bits << 6) */
    if (vp_on && !gb_on)
        oc |= (oc & CLIP_OC_VP_XY) << 6;
    else if (!vp_on && gb_on)
        oc |= (oc & CLIP_OC_GB) >> 6;
    bool xy_on = vp_on || gb_on;
    if (isnan(x)) {
        oc &= ~(uint32_t)(CLIP_OC_VP_XMIN | CLIP_OC_VP_XMAX | CLIP_OC_GB_XMIN | CLIP_OC_GB_XMAX);
        if (xy_on)
            oc |= CLIP_OC_VP_XMIN | CLIP_OC_VP_XMAX | CLIP_OC_GB_XMIN | CLIP_OC_GB_XMAX;
    }
    if (isnan(y)) {
        oc &= ~(uint32_t)(CLIP_OC_VP_YMIN | CLIP_OC_VP_YMAX | CLIP_OC_GB_YMIN | CLIP_OC_GB_YMAX);
        if (xy_on)
            oc |= CLIP_OC_VP_YMIN | CLIP_OC_VP_YMAX | CLIP_OC_GB_YMIN | CLIP_OC_GB_YMAX;
    }
    if (isnan(z)) {
        oc &= ~(uint32_t)CLIP_OC_VP_Z;
        oc |= (c->z_near ? CLIP_OC_VP_ZMIN : 0) | (c->z_far ? CLIP_OC_VP_ZMAX : 0);
    }
    /* user clip flags: a distance "less than 0 or a NaN" (L11788), masked (notes item 13:
     * all eight) */
    for (uint32_t i = 0; dist && i < CLIP_DISTANCES; i++) {
        bool flag = dist[i] < 0.0f || isnan(dist[i]);
        if (flag && ((c->clip_mask >> i) & 1u))
            oc |= CLIP_OC_UC_CLIP0 << i;
        if (flag && ((c->cull_mask >> i) & 1u))
            oc |= CLIP_OC_UC_CULL0 << i;
    }
    return oc;
}

/* ---- ClipDetermination (L14133-14225) and ClipMode (L14235-14281) ------------------------ */

struct clip_determination clip_determine(const uint32_t *outcodes, uint32_t n)
{
    uint32_t and_code = n ? ~0u : 0, or_code = 0;
    for (uint32_t i = 0; i < n; i++) {
        and_code &= outcodes[i];
        or_code |= outcodes[i];
    }
    bool tr_vpxy = (and_code & CLIP_OC_VP_XY) != 0;
    bool tr_gb = (and_code & CLIP_OC_GB) != 0;
    bool ta_gb = (or_code & CLIP_OC_GB) == 0;
    bool ta_vpz = (or_code & CLIP_OC_VP_Z) == 0;
    bool tr_vpz = (and_code & CLIP_OC_VP_Z) != 0;
    bool tr_uc = (and_code & (CLIP_OC_UC_CLIP | CLIP_OC_UC_CULL)) != 0;
    bool ta_uc_clip = (or_code & CLIP_OC_UC_CLIP) == 0;     /* the must-clip planes */
    bool ta_negw = (or_code & CLIP_OC_NEGW) == 0;
    bool tr_negw = (and_code & CLIP_OC_NEGW) != 0;
    struct clip_determination d;
    d.bad = (or_code & CLIP_OC_BAD) != 0;
    d.trivial_reject = tr_gb || tr_vpxy || tr_vpz || tr_uc || tr_negw;
    /* cull-mask planes: TA unless TR (UCMC off), already in !TR; clip-mask planes:
     * TA only when no vertex is outside (UCMC on) */
    d.trivial_accept = !d.trivial_reject && ta_gb && ta_vpz && ta_negw && ta_uc_clip;
    d.must_clip = !(d.trivial_accept || d.trivial_reject);
    return d;
}

enum clip_action clip_mode_action(uint32_t mode, struct clip_determination d)
{
    switch (mode) {
    case CLIP_MODE_CLIP_ALL:
        return CLIP_SPAWN;
    case CLIP_MODE_CLIP_NON_REJECT:
        return d.trivial_reject || d.bad ? CLIP_DISCARD : CLIP_SPAWN;
    case CLIP_MODE_REJECT_ALL:
        return CLIP_DISCARD;
    case CLIP_MODE_ACCEPT_ALL:
        return d.bad ? CLIP_DISCARD : CLIP_PASSTHRU;
    case CLIP_MODE_NORMAL:
    default:
        if (d.trivial_reject || d.bad)
            return CLIP_DISCARD;
        return d.trivial_accept ? CLIP_PASSTHRU : CLIP_SPAWN;
    }
}

/* ---- the clipper ------------------------------------------------------------------------ */

static void add_plane(struct clip_plane *planes, uint32_t *n, float a, float b, float c, float d,
                      float offset, int32_t distance)
{
    planes[*n] = (struct clip_plane){ { a, b, c, d }, offset, distance, false };
    (*n)++;
}

uint32_t clip_planes(const struct clip_test_config *c, struct clip_plane planes[CLIP_MAX_PLANES])
{
    uint32_t n = 0;
    add_plane(planes, &n, 0, 0, 0, 1, -CLIP_W_EPSILON, -1);         /* w > 0 */
    planes[0].w_floor = true;
    if (c->z_near) {
        if (c->d3d)
            add_plane(planes, &n, 0, 0, 1, 0, 0, -1);               /* z >= 0 */
        else
            add_plane(planes, &n, 0, 0, 1, 1, 0, -1);               /* z >= -w */
    }
    if (c->z_far)
        add_plane(planes, &n, 0, 0, -1, 1, 0, -1);                  /* z <= w */
    if (c->guardband || c->viewport_xy) {
        float xmin = c->guardband ? c->gb_xmin : -1.0f, xmax = c->guardband ? c->gb_xmax : 1.0f;
        float ymin = c->guardband ? c->gb_ymin : -1.0f, ymax = c->guardband ? c->gb_ymax : 1.0f;
        /* x >= xmin w, x <= xmax w, ...; an infinite side is no plane */
        if (isfinite(xmin))
            add_plane(planes, &n, 1, 0, 0, -xmin, 0, -1);
        if (isfinite(xmax))
            add_plane(planes, &n, -1, 0, 0, xmax, 0, -1);
        if (isfinite(ymin))
            add_plane(planes, &n, 0, 1, 0, -ymin, 0, -1);
        if (isfinite(ymax))
            add_plane(planes, &n, 0, -1, 0, ymax, 0, -1);
    }
    for (uint32_t i = 0; i < CLIP_DISTANCES; i++)
        if ((c->clip_mask >> i) & 1u)
            add_plane(planes, &n, 0, 0, 0, 0, 0, (int32_t)i);
    return n;
}

float clip_plane_distance(const struct clip_plane *pl, const struct clip_point *p)
{
    if (pl->distance >= 0)
        return p->dist[pl->distance];
    return pl->coef[0] * p->pos[0] + pl->coef[1] * p->pos[1] + pl->coef[2] * p->pos[2] +
           pl->coef[3] * p->pos[3] + pl->offset;
}

void clip_point_lerp(const struct clip_point *a, const struct clip_point *b, float t,
                     struct clip_point *p)
{
    for (uint32_t k = 0; k < 4; k++)
        p->pos[k] = a->pos[k] + t * (b->pos[k] - a->pos[k]);
    for (uint32_t k = 0; k < CLIP_DISTANCES; k++)
        p->dist[k] = a->dist[k] + t * (b->dist[k] - a->dist[k]);
    for (uint32_t k = 0; k < CLIP_SOURCE_VERTICES; k++)
        p->weight[k] = a->weight[k] + t * (b->weight[k] - a->weight[k]);
    p->source = -1;
}

/* The cut of the edge from the inside vertex a (da >= 0) to the outside b. */
static void cut(const struct clip_plane *pl, const struct clip_point *a, float da,
                const struct clip_point *b, float db, struct clip_point *p)
{
    clip_point_lerp(a, b, da / (da - db), p);
    if (pl->w_floor && p->pos[3] < CLIP_W_EPSILON)      /* NaN stays: caught later */
        p->pos[3] = CLIP_W_EPSILON;
}

uint32_t clip_polygon(const struct clip_plane *planes, uint32_t plane_count,
                      const struct clip_point *in, uint32_t n,
                      struct clip_point out[CLIP_POLYGON_MAX], bool *overflow)
{
    struct clip_point buf[2][CLIP_POLYGON_MAX];
    if (n < 3 || n > CLIP_POLYGON_MAX) {
        if (n > CLIP_POLYGON_MAX && overflow)
            *overflow = true;
        return 0;
    }
    memcpy(buf[0], in, n * sizeof *in);
    uint32_t src = 0;
    for (uint32_t k = 0; k < plane_count && n >= 3; k++) {
        const struct clip_plane *pl = &planes[k];
        const struct clip_point *v = buf[src];
        struct clip_point *o = buf[src ^ 1];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            const struct clip_point *cur = &v[i], *prev = &v[(i + n - 1) % n];
            float dc = clip_plane_distance(pl, cur), dp = clip_plane_distance(pl, prev);
            bool cin = dc >= 0.0f, pin = dp >= 0.0f;     /* NaN: outside */
            uint32_t need = (cin ? 1u : 0u) + (cin != pin ? 1u : 0u);
            if (m + need > CLIP_POLYGON_MAX) {
                if (overflow)
                    *overflow = true;
                return 0;
            }
            if (cin) {
                if (!pin)
                    cut(pl, cur, dc, prev, dp, &o[m++]);
                o[m++] = *cur;
            } else if (pin) {
                cut(pl, prev, dp, cur, dc, &o[m++]);
            }
        }
        n = m;
        src ^= 1;
    }
    if (n < 3)
        return 0;
    memcpy(out, buf[src], n * sizeof *out);
    return n;
}

bool clip_line(const struct clip_plane *planes, uint32_t plane_count, struct clip_point v[2])
{
    for (uint32_t k = 0; k < plane_count; k++) {
        float d0 = clip_plane_distance(&planes[k], &v[0]);
        float d1 = clip_plane_distance(&planes[k], &v[1]);
        bool in0 = d0 >= 0.0f, in1 = d1 >= 0.0f;
        if (!in0 && !in1)
            return false;
        struct clip_point p;
        if (!in0) {
            cut(&planes[k], &v[1], d1, &v[0], d0, &p);
            v[0] = p;
        } else if (!in1) {
            cut(&planes[k], &v[0], d0, &v[1], d1, &p);
            v[1] = p;
        }
    }
    return true;
}

bool clip_point_finite(const struct clip_point *p)
{
    for (uint32_t k = 0; k < 4; k++)
        if (!isfinite(p->pos[k]))
            return false;
    for (uint32_t k = 0; k < CLIP_SOURCE_VERTICES; k++)
        if (!isfinite(p->weight[k]))
            return false;
    return true;
}
