/* fabric/topology.c - see topology.h. */
#include "fabric/topology.h"

#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/config.h"
#include "fabric/port.h"
#include "fabric/sim.h"

#define MAX_COUNT 65536
#define MAX_SEGMENTS 16

struct builder {
    struct sim *sim;
    unit_kind_lookup_fn lookup;
    struct link_params defaults;
    struct gt_error *err;
};

static const char *const block_keys[] = { "count", "clock", "links", "description", NULL };
static const char *const root_keys[] = { "clocks", "link_defaults", "simulation", NULL };

static bool in_list(const char *const *list, const char *key)
{
    for (; *list; list++)
        if (strcmp(*list, key) == 0)
            return true;
    return false;
}

static void where(const config_setting_t *s, char *buf, size_t size)
{
    const char *file = config_setting_source_file(s);
    if (file)
        snprintf(buf, size, "%s:%u", file, config_setting_source_line(s));
    else
        snprintf(buf, size, "--set");
}

static int fail(struct builder *b, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct builder *b, const config_setting_t *s, const char *fmt, ...)
{
    char at[512], text[GT_ERROR_MAX];
    where(s, at, sizeof at);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return gt_error_set(b->err, "%s: %s", at, text);
}

/* -1 when there is no count; -2 after an error. */
static int64_t get_count(struct builder *b, const config_setting_t *group)
{
    const config_setting_t *c = config_setting_get_member(group, "count");
    if (!c)
        return -1;
    int t = config_setting_type(c);
    if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) {
        fail(b, c, "count must be an integer");
        return -2;
    }
    int64_t n = config_setting_get_int64(c);
    if (n < 1 || n > MAX_COUNT) {
        fail(b, c, "count %lld is out of range 1..%d", (long long)n, MAX_COUNT);
        return -2;
    }
    return n;
}

/* Whether an error message already starts with "file:line:" or "--set". */
static bool has_location(const char *message)
{
    if (strncmp(message, "--set", 5) == 0)
        return true;
    const char *colon = strchr(message, ':');
    if (!colon || colon == message || !(colon[1] >= '0' && colon[1] <= '9'))
        return false;
    const char *p = colon + 1;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == ':';
}

static bool is_unit(const config_setting_t *group)
{
    return config_setting_get_member(group, "kind") != NULL;
}

/* The clock domain named by `clock` in the group, or `inherited`. -1 on error. */
static int group_clock(struct builder *b, const config_setting_t *group, int inherited)
{
    const config_setting_t *c = config_setting_get_member(group, "clock");
    if (!c)
        return inherited;
    if (config_setting_type(c) != CONFIG_TYPE_STRING)
        return fail(b, c, "clock must be a string naming one of `clocks`");
    int d = sim_find_clock(b->sim, config_setting_get_string(c));
    if (d < 0)
        return fail(b, c, "no clock named '%s' (declare it in `clocks`)",
                    config_setting_get_string(c));
    return d;
}

static void join_name(char *out, size_t size, const char *prefix, const char *name, int64_t index)
{
    if (index >= 0)
        snprintf(out, size, "%s%s%s%lld", prefix, prefix[0] ? "." : "", name, (long long)index);
    else
        snprintf(out, size, "%s%s%s", prefix, prefix[0] ? "." : "", name);
}

/* ---- clocks -------------------------------------------------------------- */

static int declare_clocks(struct builder *b, const config_setting_t *root)
{
    const config_setting_t *clocks = config_setting_get_member(root, "clocks");
    if (!clocks)
        return gt_error_set(b->err, "the config declares no `clocks` group "
                            "(e.g. clocks = { gt = { mhz = 1150.0; }; };)");
    if (config_setting_type(clocks) != CONFIG_TYPE_GROUP || config_setting_length(clocks) == 0)
        return fail(b, clocks, "`clocks` must be a group of clocks, e.g. gt = { mhz = 1150.0; }");
    for (int i = 0; i < config_setting_length(clocks); i++) {
        const config_setting_t *c = config_setting_get_elem(clocks, (unsigned)i);
        const char *name = config_setting_name(c);
        if (config_setting_type(c) != CONFIG_TYPE_GROUP)
            return fail(b, c, "clock '%s' must be a group with mhz or period_ps", name);
        const config_setting_t *mhz = config_setting_get_member(c, "mhz");
        const config_setting_t *period = config_setting_get_member(c, "period_ps");
        if (!!mhz == !!period)
            return fail(b, c, "clock '%s' needs exactly one of mhz or period_ps", name);
        for (int k = 0; k < config_setting_length(c); k++) {
            const char *key = config_setting_name(config_setting_get_elem(c, (unsigned)k));
            if (strcmp(key, "mhz") && strcmp(key, "period_ps"))
                return fail(b, config_setting_get_elem(c, (unsigned)k),
                            "clock '%s' has no setting '%s' (mhz or period_ps)", name, key);
        }
        uint64_t period_ps;
        if (mhz) {
            int t = config_setting_type(mhz);
            double v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(mhz)
                     : (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
                         ? (double)config_setting_get_int64(mhz) : -1.0;
            if (!(v >= 1.0 && v <= 100000.0))
                return fail(b, mhz, "clock '%s': mhz must be a number in 1..100000", name);
            period_ps = (uint64_t)llround(1e6 / v);
        } else {
            int t = config_setting_type(period);
            if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
                return fail(b, period, "clock '%s': period_ps must be an integer", name);
            int64_t v = config_setting_get_int64(period);
            if (v < 1 || v > 1000000000)
                return fail(b, period, "clock '%s': period_ps must be in 1..1000000000", name);
            period_ps = (uint64_t)v;
        }
        struct gt_error e;
        if (sim_add_clock(b->sim, name, period_ps, &e) < 0)
            return fail(b, c, "%s", e.message);
    }
    return 0;
}

static int read_link_params(struct builder *b, const config_setting_t *group,
                            struct link_params *lp)
{
    static const char *const keys[] = { "latency", "capacity", "width" };
    uint32_t *fields[] = { &lp->latency, &lp->capacity, &lp->width };
    for (int i = 0; i < 3; i++) {
        const config_setting_t *s = config_setting_get_member(group, keys[i]);
        if (!s)
            continue;
        int t = config_setting_type(s);
        if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            return fail(b, s, "%s must be an integer", keys[i]);
        int64_t v = config_setting_get_int64(s);
        if (v < 1 || v > 1000000)
            return fail(b, s, "%s %lld is out of range 1..1000000", keys[i], (long long)v);
        *fields[i] = (uint32_t)v;
    }
    return 0;
}

/* ---- units --------------------------------------------------------------- */

static int build_block(struct builder *b, const config_setting_t *block, const char *prefix,
                       int domain, bool is_root)
{
    for (int i = 0; i < config_setting_length(block); i++) {
        const config_setting_t *c = config_setting_get_elem(block, (unsigned)i);
        const char *name = config_setting_name(c);
        if (in_list(block_keys, name) || (is_root && in_list(root_keys, name)))
            continue;
        if (config_setting_type(c) != CONFIG_TYPE_GROUP)
            return fail(b, c, "'%s' in block '%s': a block holds units (groups with kind), "
                        "blocks (groups), count, clock, links and description", name,
                        prefix[0] ? prefix : "(root)");
        int64_t count = get_count(b, c);
        if (count == -2)
            return -1;
        int child_domain = group_clock(b, c, domain);
        if (child_domain < 0)
            return -1;
        int64_t n = count < 0 ? 1 : count;
        if (is_unit(c)) {
            const config_setting_t *k = config_setting_get_member(c, "kind");
            if (config_setting_type(k) != CONFIG_TYPE_STRING)
                return fail(b, k, "kind must be a string");
            const char *kind = config_setting_get_string(k);
            const struct unit_ops *ops = b->lookup(kind);
            if (!ops)
                return fail(b, k, "unknown unit kind '%s' (`gtsim units` lists them)", kind);
            /* impl = "rtl" (or another implementation) picks the kind
             * registered as "<kind>:<impl>", e.g. a Verilated model behind
             * the same ports; "c" is the C model itself. */
            const config_setting_t *impl = config_setting_get_member(c, "impl");
            if (impl) {
                if (config_setting_type(impl) != CONFIG_TYPE_STRING)
                    return fail(b, impl, "impl must be a string (\"c\", \"rtl\", ...)");
                const char *which = config_setting_get_string(impl);
                if (strcmp(which, "c") != 0) {
                    char impl_kind[256];
                    snprintf(impl_kind, sizeof impl_kind, "%s:%s", kind, which);
                    ops = b->lookup(impl_kind);
                    if (!ops)
                        return fail(b, impl, "kind '%s' has no '%s' implementation in this "
                                    "build (RTL kinds are in gtsim-cosim, built by make cosim)",
                                    kind, which);
                }
            }
            for (int64_t j = 0; j < n; j++) {
                char full[512];
                join_name(full, sizeof full, prefix, name, count < 0 ? -1 : j);
                if (!sim_add_unit(b->sim, ops, full, (uint32_t)child_domain, c, NULL, b->err)) {
                    /* Parameter errors name their own file:line; others get the unit's. */
                    if (has_location(b->err->message))
                        return -1;
                    char at[512];
                    where(c, at, sizeof at);
                    return gt_error_prefix(b->err, "%s", at);
                }
            }
        } else {
            for (int64_t j = 0; j < n; j++) {
                char full[512];
                join_name(full, sizeof full, prefix, name, count < 0 ? -1 : j);
                if (build_block(b, c, full, child_domain, false) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* ---- links --------------------------------------------------------------- */

struct endpoint_list {
    char **names;               /* "unit.port[index]" */
    uint32_t count, capacity;
    /* a [*] port that the kind makes on demand: the units and the port name */
    bool open;
    bool append;                /* [+]: numbered after the ports already made */
    char **open_units;
    uint32_t open_count, open_capacity;
    char open_port[128];
};

static void list_add(char ***items, uint32_t *count, uint32_t *capacity, const char *s)
{
    if (*count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 16;
        *items = gt_xrealloc(*items, *capacity * sizeof **items);
    }
    (*items)[(*count)++] = gt_xstrdup(s);
}

static void list_free(char **items, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

static void endpoint_list_free(struct endpoint_list *l)
{
    list_free(l->names, l->count);
    list_free(l->open_units, l->open_count);
}

/* "name", "name[7]", "name[*]", "name[+]": index -1 none, -2 all, -3 append. */
static int parse_segment(struct builder *b, const config_setting_t *at, const char *text,
                         const char *seg, char *name, size_t size, int64_t *index)
{
    const char *bracket = strchr(seg, '[');
    *index = -1;
    if (!bracket) {
        snprintf(name, size, "%s", seg);
    } else {
        snprintf(name, size, "%.*s", (int)(bracket - seg), seg);
        if (strcmp(bracket, "[*]") == 0) {
            *index = -2;
        } else if (strcmp(bracket, "[+]") == 0) {
            *index = -3;
        } else {
            char *end = NULL;
            errno = 0;
            long long v = strtoll(bracket + 1, &end, 10);
            if (errno || end == bracket + 1 || strcmp(end, "]") != 0 || v < 0)
                return fail(b, at, "link endpoint '%s': bad index in '%s' (use [N], [*] or [+])",
                            text, seg);
            *index = v;
        }
    }
    if (!name[0])
        return fail(b, at, "link endpoint '%s': empty name", text);
    return 0;
}

static int expand_endpoint(struct builder *b, const config_setting_t *block, const char *prefix,
                           const config_setting_t *at, const char *text,
                           struct endpoint_list *out)
{
    memset(out, 0, sizeof *out);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", text);
    char *segments[MAX_SEGMENTS];
    int nseg = 0;
    for (char *p = copy;;) {
        if (nseg == MAX_SEGMENTS)
            return fail(b, at, "link endpoint '%s' has too many segments", text);
        segments[nseg++] = p;
        char *dot = strchr(p, '.');
        if (!dot)
            break;
        *dot = 0;
        p = dot + 1;
    }
    if (nseg < 2)
        return fail(b, at, "link endpoint '%s' must be unit.port (relative to block '%s')",
                    text, prefix[0] ? prefix : "(root)");
    char **units = NULL;
    uint32_t unit_count = 0, unit_cap = 0;
    list_add(&units, &unit_count, &unit_cap, prefix);
    const config_setting_t *group = block;
    for (int s = 0; s < nseg - 1; s++) {
        char name[128];
        int64_t index;
        if (parse_segment(b, at, text, segments[s], name, sizeof name, &index) < 0)
            goto error;
        const config_setting_t *child = config_setting_get_member(group, name);
        if (!child || config_setting_type(child) != CONFIG_TYPE_GROUP ||
            in_list(block_keys, name) || in_list(root_keys, name)) {
            fail(b, at, "link endpoint '%s': no unit or block '%s' in '%s'", text, name,
                 prefix[0] ? prefix : "(root)");
            goto error;
        }
        if (is_unit(group)) {
            fail(b, at, "link endpoint '%s': '%s' is a unit; what follows it must be its port",
                 text, segments[s - 1]);
            goto error;
        }
        if (index == -3) {
            fail(b, at, "link endpoint '%s': [+] is for a port made on demand, not '%s'", text,
                 name);
            goto error;
        }
        int64_t count = get_count(b, child);
        if (count == -2)
            goto error;
        if (index == -1 && count >= 0) {
            fail(b, at, "link endpoint '%s': '%s' has count %lld; write %s[*] or %s[N]", text,
                 name, (long long)count, name, name);
            goto error;
        }
        if (index != -1 && count < 0) {
            fail(b, at, "link endpoint '%s': '%s' has no count, so it takes no index", text,
                 name);
            goto error;
        }
        if (index >= 0 && index >= count) {
            fail(b, at, "link endpoint '%s': index %lld is beyond %s's count of %lld", text,
                 (long long)index, name, (long long)count);
            goto error;
        }
        char **next = NULL;
        uint32_t next_count = 0, next_cap = 0;
        for (uint32_t u = 0; u < unit_count; u++) {
            int64_t lo = index == -2 ? 0 : index, hi = index == -2 ? count - 1 : index;
            for (int64_t i = lo; i <= hi; i++) {
                char full[512];
                join_name(full, sizeof full, units[u], name, i);
                list_add(&next, &next_count, &next_cap, full);
            }
        }
        list_free(units, unit_count);
        units = next;
        unit_count = next_count;
        unit_cap = next_cap;
        group = child;
    }
    if (!is_unit(group)) {
        fail(b, at, "link endpoint '%s': '%s' is a block; an endpoint ends in unit.port", text,
             segments[nseg - 2]);
        goto error;
    }
    char port[128];
    int64_t port_index;
    if (parse_segment(b, at, text, segments[nseg - 1], port, sizeof port, &port_index) < 0)
        goto error;
    for (uint32_t u = 0; u < unit_count; u++) {
        struct unit *unit = sim_find_unit(b->sim, units[u]);
        if (!unit) {
            fail(b, at, "link endpoint '%s': unit '%s' was not made", text, units[u]);
            goto error;
        }
        char full[700];
        if (port_index == -3) {
            if (!unit_port_is_open(unit, port)) {
                fail(b, at, "link endpoint '%s': [+] needs a port made on demand; kind '%s' "
                     "does not make '%s'", text, unit_kind(unit), port);
                goto error;
            }
            out->open = true;
            out->append = true;
            snprintf(out->open_port, sizeof out->open_port, "%s", port);
            list_add(&out->open_units, &out->open_count, &out->open_capacity, units[u]);
            continue;
        }
        if (port_index == -2) {
            uint32_t n = unit_port_count(unit, port);
            if (n == 0 && unit_port_is_open(unit, port)) {
                /* made on demand (placeholder): length from the other side */
                out->open = true;
                snprintf(out->open_port, sizeof out->open_port, "%s", port);
                list_add(&out->open_units, &out->open_count, &out->open_capacity, units[u]);
                continue;
            }
            if (n == 0) {
                fail(b, at, "link endpoint '%s': kind '%s' has no port '%s'", text,
                     unit_kind(unit), port);
                goto error;
            }
            for (uint32_t i = 0; i < n; i++) {
                snprintf(full, sizeof full, "%s.%s[%u]", units[u], port, i);
                list_add(&out->names, &out->count, &out->capacity, full);
            }
        } else {
            snprintf(full, sizeof full, "%s.%s[%lld]", units[u], port,
                     (long long)(port_index < 0 ? 0 : port_index));
            list_add(&out->names, &out->count, &out->capacity, full);
        }
    }
    list_free(units, unit_count);
    return 0;
error:
    list_free(units, unit_count);
    endpoint_list_free(out);
    memset(out, 0, sizeof *out);
    return -1;
}

/* Gives an open list `length` endpoints, spread evenly over its units. */
static int close_open_list(struct builder *b, const config_setting_t *at, const char *text,
                           struct endpoint_list *l, uint32_t length)
{
    if (l->count)
        return fail(b, at, "link endpoint '%s' mixes fixed and on-demand port arrays", text);
    if (length == 0 || length % l->open_count)
        return fail(b, at, "link endpoint '%s': %u endpoints on the other side cannot be shared "
                    "evenly by %u units", text, length, l->open_count);
    uint32_t per_unit = length / l->open_count;
    for (uint32_t u = 0; u < l->open_count; u++) {
        /* [+] starts after the ports earlier links made */
        const struct unit *unit = l->append ? sim_find_unit(b->sim, l->open_units[u]) : NULL;
        uint32_t first = unit ? unit_port_count(unit, l->open_port) : 0;
        for (uint32_t i = 0; i < per_unit; i++) {
            char full[700];
            snprintf(full, sizeof full, "%s.%s[%u]", l->open_units[u], l->open_port, first + i);
            list_add(&l->names, &l->count, &l->capacity, full);
        }
    }
    return 0;
}

static int make_link(struct builder *b, const config_setting_t *block, const char *prefix,
                     const config_setting_t *link)
{
    if (config_setting_type(link) != CONFIG_TYPE_GROUP)
        return fail(b, link, "each link is a group { from = \"a.out\"; to = \"b.in\"; }");
    const char *from = NULL, *to = NULL;
    for (int i = 0; i < config_setting_length(link); i++) {
        const config_setting_t *s = config_setting_get_elem(link, (unsigned)i);
        const char *key = config_setting_name(s);
        if (strcmp(key, "from") == 0 || strcmp(key, "to") == 0) {
            if (config_setting_type(s) != CONFIG_TYPE_STRING)
                return fail(b, s, "%s must be a string", key);
            *(key[0] == 'f' ? &from : &to) = config_setting_get_string(s);
        } else if (strcmp(key, "latency") && strcmp(key, "capacity") && strcmp(key, "width")) {
            return fail(b, s, "a link has from, to, latency, capacity and width, not '%s'", key);
        }
    }
    if (!from || !to)
        return fail(b, link, "a link needs both from and to");
    struct link_params lp = b->defaults;
    if (read_link_params(b, link, &lp) < 0)
        return -1;
    struct endpoint_list out_list, in_list_;
    if (expand_endpoint(b, block, prefix, link, from, &out_list) < 0)
        return -1;
    if (expand_endpoint(b, block, prefix, link, to, &in_list_) < 0) {
        endpoint_list_free(&out_list);
        return -1;
    }
    int rc = 0;
    if (out_list.open && in_list_.open)
        rc = fail(b, link, "both ends of '%s' -> '%s' use [*] on ports made on demand; give one "
                  "side a fixed count", from, to);
    else if (out_list.open)
        rc = close_open_list(b, link, from, &out_list, in_list_.count);
    else if (in_list_.open)
        rc = close_open_list(b, link, to, &in_list_, out_list.count);
    if (rc == 0 && out_list.count != in_list_.count)
        rc = fail(b, link, "'%s' gives %u endpoints but '%s' gives %u; they are joined in pairs",
                  from, out_list.count, to, in_list_.count);
    for (uint32_t i = 0; rc == 0 && i < out_list.count; i++) {
        struct gt_error e;
        struct port *o = sim_resolve_port(b->sim, out_list.names[i], PORT_OUT, &e);
        struct port *n = o ? sim_resolve_port(b->sim, in_list_.names[i], PORT_IN, &e) : NULL;
        if (!o || !n || sim_connect(b->sim, o, n, &lp, &e) < 0)
            rc = fail(b, link, "link %s -> %s: %s", out_list.names[i], in_list_.names[i],
                      e.message);
    }
    endpoint_list_free(&out_list);
    endpoint_list_free(&in_list_);
    return rc;
}

static int link_block(struct builder *b, const config_setting_t *block, const char *prefix,
                      bool is_root)
{
    const config_setting_t *links = config_setting_get_member(block, "links");
    if (links) {
        if (config_setting_type(links) != CONFIG_TYPE_LIST)
            return fail(b, links, "links must be a list: links = ( { from = ...; to = ...; } );");
        for (int i = 0; i < config_setting_length(links); i++)
            if (make_link(b, block, prefix, config_setting_get_elem(links, (unsigned)i)) < 0)
                return -1;
    }
    for (int i = 0; i < config_setting_length(block); i++) {
        const config_setting_t *c = config_setting_get_elem(block, (unsigned)i);
        const char *name = config_setting_name(c);
        if (in_list(block_keys, name) || (is_root && in_list(root_keys, name)) ||
            config_setting_type(c) != CONFIG_TYPE_GROUP || is_unit(c))
            continue;
        int64_t count = get_count(b, c);
        int64_t n = count < 0 ? 1 : count;
        for (int64_t j = 0; j < n; j++) {
            char full[512];
            join_name(full, sizeof full, prefix, name, count < 0 ? -1 : j);
            if (link_block(b, c, full, false) < 0)
                return -1;
        }
    }
    return 0;
}

int topology_build(struct sim *sim, const struct gt_config *config, unit_kind_lookup_fn lookup,
                   struct gt_error *err)
{
    struct builder b = { .sim = sim, .lookup = lookup, .defaults = { 1, 4, 1 }, .err = err };
    const config_setting_t *root = gt_config_root(config);
    if (declare_clocks(&b, root) < 0)
        return -1;
    const config_setting_t *defaults = config_setting_get_member(root, "link_defaults");
    if (defaults) {
        if (config_setting_type(defaults) != CONFIG_TYPE_GROUP)
            return fail(&b, defaults, "link_defaults must be a group { latency; capacity; width; }");
        for (int i = 0; i < config_setting_length(defaults); i++) {
            const config_setting_t *s = config_setting_get_elem(defaults, (unsigned)i);
            const char *key = config_setting_name(s);
            if (strcmp(key, "latency") && strcmp(key, "capacity") && strcmp(key, "width"))
                return fail(&b, s, "link_defaults has latency, capacity and width, not '%s'", key);
        }
        if (read_link_params(&b, defaults, &b.defaults) < 0)
            return -1;
    }
    if (build_block(&b, root, "", 0, true) < 0)
        return -1;
    if (sim_unit_count(sim) == 0)
        return gt_error_set(err, "%s: the config declares no units", gt_config_path(config));
    return link_block(&b, root, "", true);
}
