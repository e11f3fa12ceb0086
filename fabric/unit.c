/* fabric/unit.c - unit instances: creation, parameters from the config and
 * from "key=value" overrides, ports, lookup, realize and reset. */
#include "fabric/unit.h"

#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"

/* Keys of a unit's config group that belong to the fabric, not to the kind. */
static const char *const reserved_unit_keys[] = { "kind", "count", "clock", "impl", NULL };

bool unit_key_is_reserved(const char *key);
bool unit_key_is_reserved(const char *key)
{
    for (const char *const *k = reserved_unit_keys; *k; k++)
        if (strcmp(*k, key) == 0)
            return true;
    return false;
}

void *unit_state(const struct unit *u) { return u->state; }
const char *unit_name(const struct unit *u) { return u->name; }
const char *unit_kind(const struct unit *u) { return u->ops->kind; }
const struct unit_ops *unit_ops_of(const struct unit *u) { return u->ops; }
struct unit *unit_inner(const struct unit *host) { return host ? host->inner : NULL; }
bool unit_is_placeholder(const struct unit *u) { return u->ops->placeholder; }
uint32_t unit_id(const struct unit *u) { return u->id; }
struct sim *unit_sim(const struct unit *u) { return u->sim; }

const struct param_desc *param_find(const struct param_desc *table, const char *path)
{
    for (const struct param_desc *p = table; p && p->path; p++)
        if (strcmp(p->path, path) == 0)
            return p;
    return NULL;
}

static const struct param_desc *find_param(const struct unit_ops *ops, const char *path)
{
    return param_find(ops->params, path);
}

size_t param_type_size(enum param_type t)
{
    switch (t) {
    case PARAM_BOOL: return sizeof(bool);
    case PARAM_U32: return sizeof(uint32_t);
    case PARAM_U64: return sizeof(uint64_t);
    case PARAM_I64: return sizeof(int64_t);
    case PARAM_DOUBLE: return sizeof(double);
    case PARAM_STRING: return PARAM_STRING_MAX;
    }
    return 0;
}

const char *param_type_name(enum param_type t)
{
    switch (t) {
    case PARAM_BOOL: return "bool";
    case PARAM_U32: return "u32";
    case PARAM_U64: return "u64";
    case PARAM_I64: return "i64";
    case PARAM_DOUBLE: return "double";
    case PARAM_STRING: return "string";
    }
    return "?";
}

static void store_integer(void *state, const struct param_desc *p, int64_t v)
{
    char *field = (char *)state + p->offset;
    switch (p->type) {
    case PARAM_BOOL: *(bool *)field = v != 0; break;
    case PARAM_U32: *(uint32_t *)field = (uint32_t)v; break;
    case PARAM_U64: *(uint64_t *)field = (uint64_t)v; break;
    case PARAM_I64: *(int64_t *)field = v; break;
    default: break;
    }
}

static void apply_defaults(struct unit *u)
{
    if (!u->ops->params)
        return;
    for (const struct param_desc *p = u->ops->params; p->path; p++) {
        char *field = (char *)u->state + p->offset;
        if (p->type == PARAM_DOUBLE)
            *(double *)field = p->fdef;
        else if (p->type == PARAM_STRING)
            snprintf(field, PARAM_STRING_MAX, "%s", p->sdef ? p->sdef : "");
        else
            store_integer(u->state, p, p->def);
    }
}

/* Stores an integer after the range check; `where` names the source. */
static int set_integer(struct unit *u, const struct param_desc *p, int64_t v, const char *where,
                       struct gt_error *err)
{
    if (v < p->min || v > p->max)
        return gt_error_set(err, "%s: %s parameter '%s' = %" PRId64 " is out of range %" PRId64
                            "..%" PRId64, where, u->name, p->path, v, p->min, p->max);
    store_integer(u->state, p, v);
    return 0;
}

static int set_double(struct unit *u, const struct param_desc *p, double v, const char *where,
                      struct gt_error *err)
{
    if (!(v >= p->fmin && v <= p->fmax))
        return gt_error_set(err, "%s: %s parameter '%s' = %g is out of range %g..%g", where,
                            u->name, p->path, v, p->fmin, p->fmax);
    *(double *)((char *)u->state + p->offset) = v;
    return 0;
}

static int set_string(struct unit *u, const struct param_desc *p, const char *v, const char *where,
                      struct gt_error *err)
{
    if (strlen(v) >= PARAM_STRING_MAX)
        return gt_error_set(err, "%s: %s parameter '%s' is longer than %d characters", where,
                            u->name, p->path, PARAM_STRING_MAX - 1);
    snprintf((char *)u->state + p->offset, PARAM_STRING_MAX, "%s", v);
    return 0;
}

static void list_params(const struct unit_ops *ops, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    if (!ops->params || !ops->params->path) {
        snprintf(buf, size, "(kind '%s' takes no parameters)", ops->kind);
        return;
    }
    len += (size_t)snprintf(buf, size, "known: ");
    for (const struct param_desc *p = ops->params; p->path && len < size; p++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", p == ops->params ? "" : ", ",
                                p->path);
}

static int bind_setting(struct unit *u, const config_setting_t *s, const char *prefix,
                        struct gt_error *err)
{
    int n = config_setting_length(s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *c = config_setting_get_elem(s, (unsigned)i);
        const char *name = config_setting_name(c);
        if (!name)
            continue;
        if (!prefix[0] && unit_key_is_reserved(name))
            continue;
        char path[256];
        snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", name);
        char where[512];
        const char *file = config_setting_source_file(c);
        if (file)
            snprintf(where, sizeof where, "%s:%u", file, config_setting_source_line(c));
        else
            snprintf(where, sizeof where, "--set %s", path);
        int type = config_setting_type(c);
        if (type == CONFIG_TYPE_GROUP) {
            if (bind_setting(u, c, path, err) < 0)
                return -1;
            continue;
        }
        const struct param_desc *p = find_param(u->ops, path);
        if (!p) {
            char known[512];
            list_params(u->ops, known, sizeof known);
            return gt_error_set(err, "%s: %s (kind '%s') has no parameter '%s'; %s", where,
                                u->name, u->ops->kind, path, known);
        }
        switch (p->type) {
        case PARAM_BOOL:
            if (type != CONFIG_TYPE_BOOL)
                return gt_error_set(err, "%s: %s parameter '%s' wants true or false", where,
                                    u->name, path);
            store_integer(u->state, p, config_setting_get_bool(c));
            break;
        case PARAM_U32:
        case PARAM_U64:
        case PARAM_I64:
            if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
                return gt_error_set(err, "%s: %s parameter '%s' wants an integer (%s)", where,
                                    u->name, path, param_type_name(p->type));
            if (set_integer(u, p, config_setting_get_int64(c), where, err) < 0)
                return -1;
            break;
        case PARAM_DOUBLE:
            if (type == CONFIG_TYPE_FLOAT) {
                if (set_double(u, p, config_setting_get_float(c), where, err) < 0)
                    return -1;
            } else if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64) {
                if (set_double(u, p, (double)config_setting_get_int64(c), where, err) < 0)
                    return -1;
            } else {
                return gt_error_set(err, "%s: %s parameter '%s' wants a number", where, u->name,
                                    path);
            }
            break;
        case PARAM_STRING:
            if (type != CONFIG_TYPE_STRING)
                return gt_error_set(err, "%s: %s parameter '%s' wants a string", where, u->name,
                                    path);
            if (set_string(u, p, config_setting_get_string(c), where, err) < 0)
                return -1;
            break;
        }
    }
    return 0;
}

int unit_set_param_text(struct unit *u, const char *path, const char *value, struct gt_error *err)
{
    const struct param_desc *p = find_param(u->ops, path);
    const char *where = "override";
    if (!p) {
        char known[512];
        list_params(u->ops, known, sizeof known);
        return gt_error_set(err, "%s: %s (kind '%s') has no parameter '%s'; %s", where, u->name,
                            u->ops->kind, path, known);
    }
    char *end = NULL;
    errno = 0;
    switch (p->type) {
    case PARAM_BOOL:
        if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
            store_integer(u->state, p, 1);
        else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
            store_integer(u->state, p, 0);
        else
            return gt_error_set(err, "%s: %s parameter '%s' wants true or false, not '%s'", where,
                                u->name, path, value);
        return 0;
    case PARAM_U32:
    case PARAM_U64:
    case PARAM_I64: {
        long long v = strtoll(value, &end, 0);
        if (errno || end == value || *end)
            return gt_error_set(err, "%s: %s parameter '%s' wants an integer, not '%s'", where,
                                u->name, path, value);
        return set_integer(u, p, v, where, err);
    }
    case PARAM_DOUBLE: {
        double v = strtod(value, &end);
        if (errno || end == value || *end)
            return gt_error_set(err, "%s: %s parameter '%s' wants a number, not '%s'", where,
                                u->name, path, value);
        return set_double(u, p, v, where, err);
    }
    case PARAM_STRING:
        return set_string(u, p, value, where, err);
    }
    return 0;
}

struct port *unit_add_port(struct unit *u, const char *name, uint32_t index,
                           enum port_direction direction, unsigned flags)
{
    struct port *p = gt_xaligned_calloc(64, sizeof *p);  /* sim_internal.h */
    p->owner = u;
    p->name = gt_xstrdup(name);
    p->index = index;
    p->direction = direction;
    p->flags = flags;
    if (u->ports_tail)
        u->ports_tail->next_in_unit = p;
    else
        u->ports = p;
    u->ports_tail = p;
    return p;
}

/* An inner unit's ports are its host's. */
static const struct unit *port_holder(const struct unit *u)
{
    return u->host ? u->host : u;
}

struct port *unit_port(struct unit *u, const char *name, uint32_t index)
{
    for (struct port *p = port_holder(u)->ports; p; p = p->next_in_unit)
        if (p->index == index && strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int unit_param_text(const struct unit *u, const char *path, char *buf, size_t size)
{
    const struct param_desc *p = find_param(u->ops, path);
    if (!p)
        return -1;
    const char *field = (const char *)u->state + p->offset;
    switch (p->type) {
    case PARAM_BOOL: snprintf(buf, size, "%s", *(const bool *)field ? "true" : "false"); break;
    case PARAM_U32: snprintf(buf, size, "%" PRIu32, *(const uint32_t *)field); break;
    case PARAM_U64: snprintf(buf, size, "%" PRIu64, *(const uint64_t *)field); break;
    case PARAM_I64: snprintf(buf, size, "%" PRId64, *(const int64_t *)field); break;
    case PARAM_DOUBLE: snprintf(buf, size, "%.17g", *(const double *)field); break;
    case PARAM_STRING: snprintf(buf, size, "%s", field); break;
    }
    return 0;
}

static const struct port_desc *find_port_desc(const struct unit_ops *ops, const char *name)
{
    for (const struct port_desc *d = ops->ports; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

bool unit_port_is_open(const struct unit *u, const char *name)
{
    const struct port_desc *d = find_port_desc(u->ops, name);
    return d ? (d->flags & PORT_OPEN) != 0 : u->ops->port != NULL;
}
struct port *unit_first_port(const struct unit *u) { return port_holder(u)->ports; }
struct port *unit_next_port(const struct port *p) { return p->next_in_unit; }

uint32_t unit_port_count(const struct unit *u, const char *name)
{
    uint32_t n = 0;
    for (const struct port *p = port_holder(u)->ports; p; p = p->next_in_unit)
        if (strcmp(p->name, name) == 0 && p->index + 1 > n)
            n = p->index + 1;
    return n;
}

static void free_port_arrays(struct unit *u)
{
    while (u->port_arrays) {
        struct port_array *next = u->port_arrays->next;
        free(u->port_arrays->ports);
        free(u->port_arrays);
        u->port_arrays = next;
    }
}

struct port **unit_port_array(struct unit *u, const char *name, uint32_t *count)
{
    uint32_t n = unit_port_count(u, name);
    struct port_array *a = gt_xcalloc(1, sizeof *a);
    a->ports = gt_xcalloc((size_t)n + 1, sizeof *a->ports);
    for (struct port *p = port_holder(u)->ports; p; p = p->next_in_unit)
        if (p->index < n && strcmp(p->name, name) == 0)
            a->ports[p->index] = p;
    a->next = u->port_arrays;
    u->port_arrays = a;
    if (count)
        *count = n;
    return a->ports;
}

static uint32_t port_desc_count(const struct unit *u, const struct port_desc *d)
{
    if (d->count_param) {
        const struct param_desc *p = find_param(u->ops, d->count_param);
        if (!p || p->type != PARAM_U32)
            return 0;       /* a kind bug; gtsim units lists it and tests catch it */
        return *(const uint32_t *)((const char *)u->state + p->offset);
    }
    return d->count ? d->count : 1;
}

/* A unit's state, zeroed, starting on a host cache line: a unit that puts
 * the fields its tick reads first (the EU) gets them in as few lines as
 * their size allows (issue 19). */
static void *state_alloc(const struct unit_ops *ops)
{
    return gt_xaligned_calloc(64, ops->state_size);
}

struct unit *sim_add_unit(struct sim *sim, const struct unit_ops *ops, const char *name,
                          uint32_t domain, const void *config_setting,
                          const char *const *overrides, struct gt_error *err)
{
    if (!ops || !ops->tick) {
        gt_error_set(err, "unit '%s': kind has no tick function", name);
        return NULL;
    }
    if (domain >= sim->domain_count) {
        gt_error_set(err, "unit '%s': clock domain %u does not exist (declare a clock first)",
                     name, domain);
        return NULL;
    }
    if (sim_find_unit(sim, name)) {
        gt_error_set(err, "unit '%s' is declared twice", name);
        return NULL;
    }
    struct unit *u = gt_xaligned_calloc(_Alignof(struct unit), sizeof *u);  /* sim_internal.h */
    u->sim = sim;
    u->ops = ops;
    u->state = state_alloc(ops);
    u->name = gt_xstrdup(name);
    u->domain = domain;
    u->id = sim->unit_count;
    if (sim->unit_count == sim->unit_capacity) {
        sim->unit_capacity = sim->unit_capacity ? 2 * sim->unit_capacity : 64;
        sim->units = gt_xrealloc(sim->units, sim->unit_capacity * sizeof *sim->units);
    }
    sim->units[sim->unit_count++] = u;

    apply_defaults(u);
    if (config_setting && bind_setting(u, config_setting, "", err) < 0)
        return NULL;
    for (const char *const *o = overrides; o && *o; o++) {
        const char *eq = strchr(*o, '=');
        if (!eq) {
            gt_error_set(err, "override '%s' for %s is not key=value", *o, name);
            return NULL;
        }
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *o), *o);
        if (unit_set_param_text(u, key, eq + 1, err) < 0)
            return NULL;
    }
    if (ops->create && ops->create(u, err) < 0) {
        gt_error_prefix(err, "%s", name);
        return NULL;
    }
    u->created = true;
    if (ops->ports) {
        for (const struct port_desc *d = ops->ports; d->name; d++) {
            /* an open array is made as links name it, beyond the `count`
             * ports it declares as always there */
            uint32_t count = (d->flags & PORT_OPEN) ? d->count : port_desc_count(u, d);
            for (uint32_t i = 0; i < count; i++) {
                struct port *p = unit_add_port(u, d->name, i, d->direction, d->flags);
                p->desc = d;
                p->msg_kinds = d->msg_kinds;
            }
        }
    }
    return u;
}

void unit_destroy_instance(struct unit *u)
{
    if (u->created && u->ops->destroy)
        u->ops->destroy(u);
    struct port *p = u->ports;
    while (p) {
        struct port *next = p->next_in_unit;
        free(p->name);
        free(p);
        p = next;
    }
    free_port_arrays(u);
    free(u->state);
    free(u->name);
    free(u);
}

struct unit *unit_create_inner(struct unit *host, const struct unit_ops *ops, struct gt_error *err)
{
    struct unit *u = gt_xaligned_calloc(_Alignof(struct unit), sizeof *u);  /* sim_internal.h */
    u->sim = host->sim;
    u->ops = ops;
    u->state = state_alloc(ops);
    u->name = gt_xstrdup(host->name);
    u->id = host->id;
    u->domain = host->domain;
    u->host = host;
    u->thread = host->thread;
    apply_defaults(u);
    for (const struct param_desc *p = ops->params; p && p->path; p++) {
        const struct param_desc *mine = find_param(host->ops, p->path);
        if (mine && mine->type == p->type)
            memcpy((char *)u->state + p->offset, (const char *)host->state + mine->offset,
                   param_type_size(p->type));
    }
    if (ops->create && ops->create(u, err) < 0) {
        gt_error_prefix(err, "%s (%s inside %s)", host->name, ops->kind, host->ops->kind);
        free(u->state);
        free(u->name);
        free(u);
        return NULL;
    }
    u->created = true;
    if (!host->inner)
        host->inner = u;
    return u;
}

void unit_destroy_inner(struct unit *inner)
{
    if (!inner)
        return;
    if (inner->host && inner->host->inner == inner)
        inner->host->inner = NULL;
    if (inner->created && inner->ops->destroy)
        inner->ops->destroy(inner);
    free_port_arrays(inner);
    free(inner->state);
    free(inner->name);
    free(inner);
}

struct unit *sim_find_unit(const struct sim *sim, const char *name)
{
    for (uint32_t i = 0; i < sim->unit_count; i++)
        if (strcmp(sim->units[i]->name, name) == 0)
            return sim->units[i];
    return NULL;
}

uint32_t sim_unit_count(const struct sim *sim) { return sim->unit_count; }
struct unit *sim_unit(const struct sim *sim, uint32_t id)
{
    return id < sim->unit_count ? sim->units[id] : NULL;
}

/* "unit.name.port[3]" -> unit part, port name, index. */
struct port *sim_resolve_port(struct sim *sim, const char *endpoint, enum port_direction dir,
                              struct gt_error *err)
{
    const char *dot = strrchr(endpoint, '.');
    if (!dot || dot == endpoint || !dot[1]) {
        gt_error_set(err, "endpoint '%s' is not unit.port", endpoint);
        return NULL;
    }
    char unit_part[512], port_part[128];
    snprintf(unit_part, sizeof unit_part, "%.*s", (int)(dot - endpoint), endpoint);
    snprintf(port_part, sizeof port_part, "%s", dot + 1);
    uint32_t index = 0;
    char *bracket = strchr(port_part, '[');
    if (bracket) {
        char *end = NULL;
        errno = 0;
        unsigned long v = strtoul(bracket + 1, &end, 10);
        if (errno || end == bracket + 1 || *end != ']' || end[1] || v > UINT32_MAX) {
            gt_error_set(err, "endpoint '%s': bad port index", endpoint);
            return NULL;
        }
        index = (uint32_t)v;
        *bracket = 0;
    }
    struct unit *u = sim_find_unit(sim, unit_part);
    if (!u) {
        gt_error_set(err, "endpoint '%s': no unit named '%s'", endpoint, unit_part);
        return NULL;
    }
    struct port *p = unit_port(u, port_part, index);
    const struct port_desc *open = find_port_desc(u->ops, port_part);
    if (!p && open && (open->flags & PORT_OPEN)) {
        if (index > 4096) {
            gt_error_set(err, "endpoint '%s': index %u is beyond 4096", endpoint, index);
            return NULL;
        }
        p = unit_add_port(u, port_part, index, open->direction, open->flags);
        p->desc = open;
        p->msg_kinds = open->msg_kinds;
    }
    if (!p && !open && u->ops->port) {
        p = u->ops->port(u, port_part, index, dir, err);
        if (!p)
            return NULL;
    }
    if (!p) {
        uint32_t count = unit_port_count(u, port_part);
        if (count)
            gt_error_set(err, "endpoint '%s': %s has ports %s[0..%u], not index %u", endpoint,
                         u->name, port_part, count - 1, index);
        else
            gt_error_set(err, "endpoint '%s': kind '%s' has no port '%s'", endpoint,
                         u->ops->kind, port_part);
        return NULL;
    }
    if (p->direction != dir) {
        gt_error_set(err, "endpoint '%s' is an %s port; expected an %s", endpoint,
                     p->direction == PORT_IN ? "input" : "output",
                     dir == PORT_IN ? "input" : "output");
        return NULL;
    }
    return p;
}

int sim_realize(struct sim *sim, struct gt_error *err)
{
    if (sim->domain_count == 0)
        return gt_error_set(err, "the machine has no clock");
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        struct unit *u = sim->units[i];
        /* an open array must have no holes: ports 0..n-1 */
        for (const struct port_desc *d = u->ops->ports; d && d->name; d++) {
            if (!(d->flags & PORT_OPEN))
                continue;
            uint32_t n = unit_port_count(u, d->name);
            for (uint32_t k = 0; k < n; k++)
                if (!unit_port(u, d->name, k))
                    return gt_error_set(err, "%s: port %s[%u] is not linked, but %s[%u] is",
                                        u->name, d->name, k, d->name, n - 1);
            if (n == 0 && !(d->flags & PORT_OPTIONAL))
                return gt_error_set(err, "%s: no link names its port '%s' (kind '%s': %s)",
                                    u->name, d->name, u->ops->kind, d->help ? d->help : "");
        }
        for (struct port *p = u->ports; p; p = p->next_in_unit) {
            if (!p->channel && !(p->flags & PORT_OPTIONAL))
                return gt_error_set(err, "%s: required %s port '%s[%u]' is not linked "
                                    "(kind '%s': %s)", u->name,
                                    p->direction == PORT_IN ? "input" : "output", p->name,
                                    p->index, u->ops->kind,
                                    p->desc && p->desc->help ? p->desc->help : "");
        }
        if (u->ops->realize && u->ops->realize(u, err) < 0)
            return gt_error_prefix(err, "%s", u->name);
        u->realized = true;
    }
    /* which links take calls (fabric/port.h port_callable): asked once */
    for (uint32_t i = 0; i < sim->channel_count; i++) {
        struct channel *ch = sim->channels[i];
        const struct unit *receiver = ch->receiver;
        ch->takes_calls = ch->from && receiver->ops->call && ch->same_domain &&
                          (!receiver->ops->callable || receiver->ops->callable(receiver, ch->to));
    }
    for (uint32_t i = 0; i < sim->unit_count; i++)
        if (sim->units[i]->ops->reset)
            sim->units[i]->ops->reset(sim->units[i]);
    return 0;
}
