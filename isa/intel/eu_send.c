/* isa/intel/eu_send.c - message descriptors of send instructions: fields by name and
 * message-type names, from opcodes.txt [message-descriptors] and the message-type
 * enumerations (generated into eu_desc_fields / eu_enum_entries).
 */
#include "isa/intel/eu_isa.h"

#include <string.h>

/* The descriptor-field group of a shared function (opcodes.txt [sfid]; the
 * [message-descriptors] notes: data_cache rows also describe the binding table and
 * message control of the DC1, constant-cache and sampler-cache ports). Second
 * group: where fields not found in the first are looked up. */
static void sfid_groups(int gen, unsigned sfid, const char **g1, const char **g2)
{
    *g1 = *g2 = NULL;
    if (gen == 4) {
        static const char *const g4[8] = { NULL, "math", "sampler", "gateway", "dp_read",
                                           "dp_write", "urb", "thread_spawner" };
        *g1 = sfid < 8 ? g4[sfid] : NULL;
        return;
    }
    switch (sfid) {
    case 2: *g1 = "sampler"; break;
    case 3: *g1 = "gateway"; break;
    case 4: case 9: *g2 = "data_cache"; break; /* sampler cache / constant cache */
    case 5: *g1 = "render_cache"; break;
    case 6: *g1 = "urb"; break;
    case 7: *g1 = "thread_spawner"; break;
    case 10: *g1 = "data_cache"; break;
    case 11: *g1 = "pixel_interp"; break;
    case 12: *g1 = "data_cache_1"; *g2 = "data_cache"; break;
    default: break;
    }
}

static bool lookup(int gen, const char *group, const char *name, uint32_t desc, uint32_t *value)
{
    for (unsigned i = 0; group && i < eu_desc_field_count; i++) {
        const struct eu_desc_field *f = &eu_desc_fields[i];
        if (gen < f->gen_lo || gen > f->gen_hi || strcmp(f->group, group) || strcmp(f->name, name))
            continue;
        unsigned w = (unsigned)(f->hi - f->lo + 1);
        *value = (desc >> f->lo) & (w >= 32 ? 0xffffffffu : ((1u << w) - 1));
        return true;
    }
    return false;
}

bool eu_send_desc_field(const struct eu_instruction *in, const char *name, uint32_t *value)
{
    if (!in->is_send || in->desc_is_reg)
        return false;
    const char *g1, *g2;
    sfid_groups(in->gen, in->sfid, &g1, &g2);
    return lookup(in->gen, g1, name, in->desc, value) || lookup(in->gen, g2, name, in->desc, value) ||
           lookup(in->gen, "all", name, in->desc, value);
}

const char *eu_msg_enum_name(int gen, const char *table, unsigned value)
{
    for (unsigned i = 0; i < eu_enum_entry_count; i++) {
        const struct eu_enum_entry *e = &eu_enum_entries[i];
        if (e->value == value && gen >= e->gen_lo && gen <= e->gen_hi && !strcmp(e->table, table))
            return e->name;
    }
    return NULL;
}

const char *eu_send_message_name(const struct eu_instruction *in)
{
    uint32_t v;
    int gen = in->gen;
    if (!in->is_send || in->desc_is_reg)
        return NULL;
    if (gen == 4) {
        switch (in->sfid) {
        case 1:
            return eu_send_desc_field(in, "function", &v) ? eu_math_names[EU_GEN4_IDX][v & 15] : NULL;
        case 4:
            return eu_send_desc_field(in, "msg_type", &v) ? eu_msg_enum_name(4, "gen4-dp-read-type", v) : NULL;
        case 5:
            return eu_send_desc_field(in, "msg_type", &v) ? eu_msg_enum_name(4, "gen4-dp-write-type", v) : NULL;
        default:
            return NULL;
        }
    }
    const char *table = NULL, *field = "msg_type";
    switch (in->sfid) {
    case 2: table = "sampler-message-type"; break;
    case 3: table = "gateway-subfunction"; field = "subfunction"; break;
    case 5: table = "render-cache-message-type"; break;
    case 6: table = "urb-opcode"; field = "opcode"; break;
    case 10: table = "dc0-message-type"; break;
    case 12: table = "dc1-message-type"; break;
    default: return NULL;
    }
    return eu_send_desc_field(in, field, &v) ? eu_msg_enum_name(gen, table, v) : NULL;
}
