/* rtl-cosim/datapath_recording.c - see datapath_recording.h. */
#define _POSIX_C_SOURCE 200809L
#include "rtl-cosim/datapath_recording.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Each kind: its name, block and the type of every word (b c h w f, see the
 * header). */
static const struct {
    const char *name, *block;
    const char *request, *answer;
} kinds[DP_KINDS] = {
    [DP_COLOR] = { "color", "om_pixel", "bbbbwwwwwwffffffffffffffffff", "bffff" },
    [DP_BITS] = { "bits", "om_pixel", "bwwww", "w" },
    [DP_DEPTH] = { "depth", "om_pixel", "bbwbbbwwwwcccwwwwcccffbwfwc", "wwc" },
    /* 11 c, 3 b, 3 h, 128 w; 32 w, 5 h */
    [DP_ALU] = { "alu", "qpu_alu",
                 "cccccccccccbbbhhh"
                 "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
                 "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
                 "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwhhhhh" },
};

const char *dp_block_of(enum dp_kind kind)
{
    return kind < DP_KINDS ? kinds[kind].block : "?";
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

FILE *dp_recording_create(const char *pattern, const char *block, const char *unit,
                          struct gt_error *err)
{
    /* every '@' of the pattern becomes the unit's name */
    char path[1024];
    size_t n = 0;
    for (const char *p = pattern; *p && n + 1 < sizeof path; p++) {
        if (*p != '@') {
            path[n++] = *p;
            continue;
        }
        for (const char *q = unit; *q && n + 1 < sizeof path; q++)
            path[n++] = *q;
    }
    path[n] = 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        gt_error_set(err, "cannot write the datapath recording '%s'", path);
        return NULL;
    }
    fprintf(f, "gtsim-datapath-recording 1\nblock %s\nunit %s\n", block, unit);
    return f;
}

void dp_recording_write(FILE *f, const struct dp_record *r)
{
    size_t nq = strlen(kinds[r->kind].request), na = strlen(kinds[r->kind].answer);
    fprintf(f, "%s %" PRIx64, kinds[r->kind].name, r->cycle);
    for (size_t i = 0; i < nq; i++)
        fprintf(f, " %" PRIx32, r->request[i]);
    fputs(" =", f);
    for (size_t i = 0; i < na; i++)
        fprintf(f, " %" PRIx32, r->answer[i]);
    fputc('\n', f);
}

/* ---- packing ------------------------------------------------------------------------ */

void dp_om_color(struct dp_record *r, uint64_t cycle, const struct om_color_request *rq, bool ok,
                 const float out[4])
{
    r->kind = DP_COLOR;
    r->cycle = cycle;
    uint32_t *w = r->request;
    *w++ = rq->blend;
    *w++ = rq->pre_clamp;
    *w++ = rq->post_clamp;
    *w++ = rq->independent_alpha;
    *w++ = rq->source_factor;
    *w++ = rq->destination_factor;
    *w++ = rq->function;
    *w++ = rq->source_alpha_factor;
    *w++ = rq->destination_alpha_factor;
    *w++ = rq->alpha_function;
    *w++ = bits_of(rq->lo);
    *w++ = bits_of(rq->hi);
    const float *v[4] = { rq->in.src, rq->in.src1, rq->in.dst, rq->in.constant };
    for (unsigned i = 0; i < 4; i++)
        for (unsigned c = 0; c < 4; c++)
            *w++ = bits_of(v[i][c]);
    r->answer[0] = ok;
    for (unsigned c = 0; c < 4; c++)
        r->answer[1 + c] = bits_of(out[c]);
}

void dp_om_color_of(const struct dp_record *r, struct dp_om_color_record *o)
{
    memset(o, 0, sizeof *o);
    const uint32_t *w = r->request;
    struct om_color_request *rq = &o->rq;
    rq->blend = *w++;
    rq->pre_clamp = *w++;
    rq->post_clamp = *w++;
    rq->independent_alpha = *w++;
    rq->source_factor = *w++;
    rq->destination_factor = *w++;
    rq->function = *w++;
    rq->source_alpha_factor = *w++;
    rq->destination_alpha_factor = *w++;
    rq->alpha_function = *w++;
    rq->lo = float_of(*w++);
    rq->hi = float_of(*w++);
    float *v[4] = { rq->in.src, rq->in.src1, rq->in.dst, rq->in.constant };
    for (unsigned i = 0; i < 4; i++)
        for (unsigned c = 0; c < 4; c++)
            v[i][c] = float_of(*w++);
    o->ok = r->answer[0];
    for (unsigned c = 0; c < 4; c++)
        o->out[c] = float_of(r->answer[1 + c]);
}

void dp_om_bits(struct dp_record *r, uint64_t cycle, bool logic, uint32_t op, uint32_t source,
                uint32_t destination, uint32_t keep, uint32_t answer)
{
    r->kind = DP_BITS;
    r->cycle = cycle;
    r->request[0] = logic;
    r->request[1] = op;
    r->request[2] = source;
    r->request[3] = destination;
    r->request[4] = keep;
    r->answer[0] = answer;
}

void dp_om_bits_of(const struct dp_record *r, struct dp_om_bits_record *o)
{
    o->logic = r->request[0];
    o->op = r->request[1];
    o->source = r->request[2];
    o->destination = r->request[3];
    o->keep = r->request[4];
    o->answer = r->answer[0];
}

static uint32_t *face_words(uint32_t *w, const struct ds_face *f)
{
    *w++ = f->function;
    *w++ = f->fail_op;
    *w++ = f->depth_fail_op;
    *w++ = f->pass_op;
    *w++ = f->test_mask;
    *w++ = f->write_mask;
    *w++ = f->reference;
    return w;
}

static const uint32_t *face_of(const uint32_t *w, struct ds_face *f)
{
    f->function = *w++;
    f->fail_op = *w++;
    f->depth_fail_op = *w++;
    f->pass_op = *w++;
    f->test_mask = (uint8_t)*w++;
    f->write_mask = (uint8_t)*w++;
    f->reference = (uint8_t)*w++;
    return w;
}

void dp_om_depth(struct dp_record *r, uint64_t cycle, const struct ds_state *st, bool back_facing,
                 uint32_t format, float source_depth, uint32_t stored_depth, uint8_t stored_stencil,
                 uint32_t flags, uint32_t depth, uint8_t stencil)
{
    r->kind = DP_DEPTH;
    r->cycle = cycle;
    uint32_t *w = r->request;
    *w++ = st->depth_test;
    *w++ = st->depth_write;
    *w++ = st->depth_function;
    *w++ = st->stencil_test;
    *w++ = st->stencil_write;
    *w++ = st->double_sided;
    w = face_words(w, &st->front);
    w = face_words(w, &st->back);
    *w++ = bits_of(st->min_depth);
    *w++ = bits_of(st->max_depth);
    *w++ = back_facing;
    *w++ = format;
    *w++ = bits_of(source_depth);
    *w++ = stored_depth;
    *w++ = stored_stencil;
    r->answer[0] = flags;
    r->answer[1] = depth;
    r->answer[2] = stencil;
}

void dp_om_depth_of(const struct dp_record *r, struct dp_om_depth_record *o)
{
    memset(o, 0, sizeof *o);
    const uint32_t *w = r->request;
    o->st.depth_test = *w++;
    o->st.depth_write = *w++;
    o->st.depth_function = *w++;
    o->st.stencil_test = *w++;
    o->st.stencil_write = *w++;
    o->st.double_sided = *w++;
    w = face_of(w, &o->st.front);
    w = face_of(w, &o->st.back);
    o->st.min_depth = float_of(*w++);
    o->st.max_depth = float_of(*w++);
    o->back_facing = *w++;
    o->format = *w++;
    o->source_depth = float_of(*w++);
    o->stored_depth = *w++;
    o->stored_stencil = (uint8_t)*w++;
    o->flags = r->answer[0];
    o->depth = r->answer[1];
    o->stencil = (uint8_t)r->answer[2];
}

void dp_qpu_alu(struct dp_record *r, uint64_t cycle, const struct qpu_alu_request *rq,
                const struct qpu_alu_result *a)
{
    r->kind = DP_ALU;
    r->cycle = cycle;
    uint32_t *w = r->request;
    const uint8_t codes[11] = { rq->op_add, rq->op_mul, rq->add_a, rq->add_b, rq->mul_a,
                                rq->mul_b, rq->pm, rq->unpack, rq->pack, rq->cond_add,
                                rq->cond_mul };
    for (unsigned i = 0; i < 11; i++)
        *w++ = codes[i];
    *w++ = rq->sf;
    *w++ = rq->add_pack_a;
    *w++ = rq->mul_pack_a;
    *w++ = rq->flag_z;
    *w++ = rq->flag_n;
    *w++ = rq->flag_c;
    for (unsigned o = 0; o < 2; o++)
        for (unsigned l = 0; l < QPU_LANES; l++)
            *w++ = rq->add_operand[o][l];
    for (unsigned o = 0; o < 2; o++)
        for (unsigned l = 0; l < QPU_LANES; l++)
            *w++ = rq->mul_operand[o][l];
    for (unsigned l = 0; l < QPU_LANES; l++)
        *w++ = rq->add_old[l];
    for (unsigned l = 0; l < QPU_LANES; l++)
        *w++ = rq->mul_old[l];
    uint32_t *v = r->answer;
    for (unsigned l = 0; l < QPU_LANES; l++)
        *v++ = a->add_value[l];
    for (unsigned l = 0; l < QPU_LANES; l++)
        *v++ = a->mul_value[l];
    *v++ = a->add_lanes;
    *v++ = a->mul_lanes;
    *v++ = a->flag_z;
    *v++ = a->flag_n;
    *v++ = a->flag_c;
}

void dp_qpu_alu_of(const struct dp_record *r, struct qpu_alu_request *rq,
                   struct qpu_alu_result *a)
{
    memset(rq, 0, sizeof *rq);
    memset(a, 0, sizeof *a);
    const uint32_t *w = r->request;
    uint8_t *codes[11] = { &rq->op_add, &rq->op_mul, &rq->add_a, &rq->add_b, &rq->mul_a,
                           &rq->mul_b, &rq->pm, &rq->unpack, &rq->pack, &rq->cond_add,
                           &rq->cond_mul };
    for (unsigned i = 0; i < 11; i++)
        *codes[i] = (uint8_t)*w++;
    rq->sf = *w++;
    rq->add_pack_a = *w++;
    rq->mul_pack_a = *w++;
    rq->flag_z = (uint16_t)*w++;
    rq->flag_n = (uint16_t)*w++;
    rq->flag_c = (uint16_t)*w++;
    for (unsigned o = 0; o < 2; o++)
        for (unsigned l = 0; l < QPU_LANES; l++)
            rq->add_operand[o][l] = *w++;
    for (unsigned o = 0; o < 2; o++)
        for (unsigned l = 0; l < QPU_LANES; l++)
            rq->mul_operand[o][l] = *w++;
    for (unsigned l = 0; l < QPU_LANES; l++)
        rq->add_old[l] = *w++;
    for (unsigned l = 0; l < QPU_LANES; l++)
        rq->mul_old[l] = *w++;
    const uint32_t *v = r->answer;
    for (unsigned l = 0; l < QPU_LANES; l++)
        a->add_value[l] = *v++;
    for (unsigned l = 0; l < QPU_LANES; l++)
        a->mul_value[l] = *v++;
    a->add_lanes = (uint16_t)*v++;
    a->mul_lanes = (uint16_t)*v++;
    a->flag_z = (uint16_t)*v++;
    a->flag_n = (uint16_t)*v++;
    a->flag_c = (uint16_t)*v++;
}

/* ---- reading ------------------------------------------------------------------------ */

static int bad_line(struct dp_reader *rd, struct gt_error *err, const char *what)
{
    return gt_error_set(err, "malformed datapath recording %s line %" PRIu64 ": %s", rd->path,
                        rd->line_number, what);
}

/* The next line without its newline; NULL at the end (line_number then names
 * the missing line). */
static char *next_line(struct dp_reader *rd)
{
    rd->line_number++;
    ssize_t n = getline(&rd->line, &rd->capacity, rd->f);
    if (n < 0)
        return NULL;
    while (n > 0 && (rd->line[n - 1] == '\n' || rd->line[n - 1] == '\r'))
        rd->line[--n] = 0;
    return rd->line;
}

int dp_reader_open(struct dp_reader *rd, const char *path, struct gt_error *err)
{
    memset(rd, 0, sizeof *rd);
    snprintf(rd->path, sizeof rd->path, "%s", path);
    rd->f = fopen(path, "r");
    if (!rd->f)
        return gt_error_set(err, "cannot read the datapath recording '%s'", path);
    const char *l = next_line(rd);
    if (!l || strcmp(l, "gtsim-datapath-recording 1") != 0) {
        bad_line(rd, err, "not a datapath recording (wanted 'gtsim-datapath-recording 1')");
        dp_reader_close(rd);
        return -1;
    }
    l = next_line(rd);
    if (!l || sscanf(l, "block %31s", rd->block) != 1 ||
        (strcmp(rd->block, "om_pixel") != 0 && strcmp(rd->block, "qpu_alu") != 0)) {
        bad_line(rd, err, "wanted 'block om_pixel' or 'block qpu_alu'");
        dp_reader_close(rd);
        return -1;
    }
    l = next_line(rd);
    if (!l || sscanf(l, "unit %255s", rd->unit) != 1) {
        bad_line(rd, err, "wanted 'unit NAME'");
        dp_reader_close(rd);
        return -1;
    }
    return 0;
}

/* One hexadecimal word of type t at *p; false when it is not one or out of range. */
static bool word(const char **p, char t, uint32_t *out)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
        return false;
    char *end;
    unsigned long long v = strtoull(s, &end, 16);
    if (end - s > 16 || (*end != ' ' && *end != 0))
        return false;
    uint64_t max = t == 'b' ? 1 : t == 'c' ? 0xff : t == 'h' ? 0xffff : 0xffffffffu;
    if (v > max)
        return false;
    *out = (uint32_t)v;
    *p = end;
    return true;
}

static int words(struct dp_reader *rd, const char **p, const char *types, uint32_t *out,
                 const char *part, struct gt_error *err)
{
    size_t n = strlen(types);
    for (size_t i = 0; i < n; i++)
        if (!word(p, types[i], &out[i])) {
            char what[160];
            snprintf(what, sizeof what, "%s word %zu of %zu missing, not hexadecimal or out of "
                     "range (%s)", part, i + 1, n,
                     types[i] == 'b' ? "a bool: 0 or 1" : types[i] == 'c' ? "8 bits"
                     : types[i] == 'h' ? "16 bits" : "32 bits");
            return bad_line(rd, err, what);
        }
    return 0;
}

int dp_reader_next(struct dp_reader *rd, struct dp_record *r, struct gt_error *err)
{
    const char *l;
    do {
        l = next_line(rd);
        if (!l)
            return ferror(rd->f) ? bad_line(rd, err, "read error") : 0;
    } while (!*l || *l == '#');
    memset(r, 0, sizeof *r);
    size_t len = strcspn(l, " ");
    enum dp_kind k = DP_KINDS;
    for (unsigned i = 0; i < DP_KINDS; i++)
        if (strlen(kinds[i].name) == len && !strncmp(l, kinds[i].name, len))
            k = (enum dp_kind)i;
    if (k == DP_KINDS)
        return bad_line(rd, err, "unknown record kind (color, bits, depth or alu)");
    if (strcmp(kinds[k].block, rd->block) != 0) {
        char what[120];
        snprintf(what, sizeof what, "a %s record in a recording of block %s", kinds[k].name,
                 rd->block);
        return bad_line(rd, err, what);
    }
    r->kind = k;
    const char *p = l + len;
    char *end;
    while (*p == ' ')
        p++;
    unsigned long long cycle = strtoull(p, &end, 16);
    if (end == p || (*end != ' ' && *end != 0))
        return bad_line(rd, err, "no cycle");
    r->cycle = cycle;
    p = end;
    if (words(rd, &p, kinds[k].request, r->request, "request", err) < 0)
        return -1;
    while (*p == ' ')
        p++;
    if (*p != '=')
        return bad_line(rd, err, "request longer than its kind's, or no '=' before the answer");
    p++;
    if (words(rd, &p, kinds[k].answer, r->answer, "answer", err) < 0)
        return -1;
    while (*p == ' ')
        p++;
    if (*p)
        return bad_line(rd, err, "answer longer than its kind's");
    return 1;
}

void dp_reader_close(struct dp_reader *rd)
{
    if (rd->f)
        fclose(rd->f);
    free(rd->line);
    rd->f = NULL;
    rd->line = NULL;
}
