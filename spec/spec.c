/* spec/spec.c - generic access to the generated spec tables (see spec.h). */
#include "spec/spec.h"

#include "spec/bitpack.h"

#include <inttypes.h>
#include <string.h>

extern const struct spec_gen spec_gen4, spec_gen7, spec_gen8, spec_gen9;

const struct spec_gen *spec_gen_get(int gen)
{
    switch (gen) {
    case 4: return &spec_gen4;
    case 7: return &spec_gen7;
    case 8: return &spec_gen8;
    case 9: return &spec_gen9;
    default: return NULL;
    }
}

const struct spec_element *spec_find_command(int gen, const uint32_t *dw, size_t avail)
{
    const struct spec_gen *g = spec_gen_get(gen);
    if (!g || !dw || avail == 0)
        return NULL;
    /* The table is ordered most specific mask first. */
    for (size_t i = 0; i < g->n_commands; i++) {
        const struct spec_element *e = &g->commands[i];
        if ((dw[0] & e->mask) == e->match)
            return e;
    }
    return NULL;
}

const struct spec_element *spec_find_element(int gen, enum spec_kind kind, const char *name)
{
    const struct spec_gen *g = spec_gen_get(gen);
    if (!g || !name)
        return NULL;
    const struct spec_element *t = kind == SPEC_COMMAND ? g->commands
                                 : kind == SPEC_STRUCT  ? g->structs : g->registers;
    size_t n = kind == SPEC_COMMAND ? g->n_commands
             : kind == SPEC_STRUCT  ? g->n_structs : g->n_registers;
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

const struct spec_element *spec_element_by_id(int gen, enum spec_id id)
{
    const struct spec_gen *g = spec_gen_get(gen);
    if (!g || id <= SPEC_ID_NONE || id >= SPEC_ID_COUNT)
        return NULL;
    return g->by_id[id];
}

const struct spec_field *spec_find_field_common(const struct spec_element *e, size_t common_offset)
{
    for (unsigned i = 0; i < e->n_fields; i++)
        if (e->fields[i].common_ctype != SPEC_C_NONE && e->fields[i].common_offset == common_offset)
            return &e->fields[i];
    return NULL;
}

const struct spec_element *spec_find_register(int gen, uint32_t off)
{
    const struct spec_gen *g = spec_gen_get(gen);
    if (!g)
        return NULL;
    for (size_t i = 0; i < g->n_registers; i++)
        if (g->registers[i].reg_offset == off)
            return &g->registers[i];
    return NULL;
}

uint32_t spec_command_length(const struct spec_element *cmd, const uint32_t *dw)
{
    if (cmd->has_length_field)
        return (uint32_t)spec_bits_get(dw, cmd->len_start, cmd->len_end) + cmd->bias;
    return cmd->length;
}

const struct spec_field *spec_find_field(const struct spec_element *e, const char *name)
{
    for (unsigned i = 0; i < e->n_fields; i++)
        if (strcmp(e->fields[i].name, name) == 0)
            return &e->fields[i];
    return NULL;
}

uint64_t spec_field_raw(const struct spec_field *f, const uint32_t *dw)
{
    return spec_bits_get(dw, f->start, f->end);
}

const char *spec_field_value_name(const struct spec_field *f, uint64_t v)
{
    for (unsigned i = 0; i < f->n_values; i++)
        if (f->values[i].value == v)
            return f->values[i].name;
    return NULL;
}

int spec_field_format(const struct spec_field *f, const uint32_t *dw, char *buf, size_t n)
{
    uint64_t raw = spec_field_raw(f, dw);
    unsigned width = (unsigned)(f->end - f->start + 1);
    switch (f->type) {
    case SPEC_BOOL:
        return snprintf(buf, n, "%s", raw ? "true" : "false");
    case SPEC_INT:
        return snprintf(buf, n, "%" PRId64, spec_sign_extend(raw, width));
    case SPEC_FLOAT:
        return snprintf(buf, n, "%f", (double)spec_get_float(dw, f->start));
    case SPEC_UFIXED:
    case SPEC_SFIXED:
        return snprintf(buf, n, "%f", spec_get_fixed(dw, f->start, f->end, f->frac,
                                                     f->type == SPEC_SFIXED));
    case SPEC_ADDRESS:
    case SPEC_OFFSET:
        return snprintf(buf, n, "0x%08" PRIx64, spec_get_address(dw, f->start, f->end));
    default: {
        const char *vn = spec_field_value_name(f, raw);
        if (vn)
            return snprintf(buf, n, "%" PRIu64 " (%s)", raw, vn);
        return snprintf(buf, n, "%" PRIu64, raw);
    }
    }
}

/* Prints the fields of fs; with entry >= 0 (a tail entry) the name gets "[entry]"
 * after its first component, as aubinator writes group entries. */
static void print_fields(FILE *out, const struct spec_field *fs, unsigned nf, const uint32_t *dw,
                         uint32_t limit_bits, const char *indent, int entry)
{
    char buf[96];
    for (unsigned i = 0; i < nf; i++) {
        const struct spec_field *f = &fs[i];
        if (f->type == SPEC_MBZ || f->type == SPEC_MBO || f->end >= limit_bits)
            continue;
        spec_field_format(f, dw, buf, sizeof buf);
        if (entry < 0) {
            fprintf(out, "%s%s: %s\n", indent, f->name, buf);
        } else {
            const char *dot = strchr(f->name, '.');
            int head = dot ? (int)(dot - f->name) : (int)strlen(f->name);
            fprintf(out, "%s%.*s[%d]%s: %s\n", indent, head, f->name, entry, dot ? dot : "", buf);
        }
    }
}

uint32_t spec_print_element(FILE *out, const struct spec_element *e, const uint32_t *dw,
                            size_t avail, const char *indent)
{
    uint32_t len = e->length;
    if (e->kind == SPEC_COMMAND && avail > 0)
        len = spec_command_length(e, dw);
    if (len > avail)
        len = (uint32_t)avail;
    print_fields(out, e->fields, e->n_fields, dw, len * 32, indent, -1);
    if (e->n_tail_fields && e->tail_size) {
        for (uint32_t b = e->tail_start; b + e->tail_size <= len * 32; b += e->tail_size) {
            /* Tail fields are relative to the entry: copy the entry's bits to
             * the start of a buffer (entries need not be dword aligned). */
            uint32_t tmp[SPEC_MAX_TAIL_BITS / 32] = { 0 };
            for (uint32_t k = 0; k < e->tail_size && k < SPEC_MAX_TAIL_BITS; k++)
                if ((dw[(b + k) / 32] >> ((b + k) % 32)) & 1)
                    tmp[k / 32] |= 1u << (k % 32);
            print_fields(out, e->tail_fields, e->n_tail_fields, tmp, e->tail_size, indent,
                         (int)((b - e->tail_start) / e->tail_size));
        }
    }
    return len;
}

size_t spec_print_batch(FILE *out, int gen, const uint32_t *dw, size_t n, size_t *unknown)
{
    size_t count = 0, bad = 0;
    for (size_t off = 0; off < n;) {
        const struct spec_element *c = spec_find_command(gen, dw + off, n - off);
        if (!c) {
            fprintf(out, "0x%04zx: unknown command 0x%08x\n", off * 4, dw[off]);
            bad++;
            off++;
            continue;
        }
        uint32_t len = spec_command_length(c, dw + off);
        fprintf(out, "0x%04zx: %s%s\n", off * 4, c->name, len > n - off ? " (truncated)" : "");
        spec_print_element(out, c, dw + off, n - off, "    ");
        count++;
        if (len > n - off || strcmp(c->name, "MI_BATCH_BUFFER_END") == 0)
            break;
        off += len;
    }
    if (unknown)
        *unknown = bad;
    return count;
}
