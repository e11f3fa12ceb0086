/* units/vc4_v3d/vc4_shade.c - VCD vertex fetch and the pipeline's shaders on a functional QPU;
 * see vc4_shade.h and vc4_3d.h. */
#include "units/vc4_v3d/vc4_shade.h"

#include <stdlib.h>
#include <string.h>

#include "isa/vc4/qpu_decode.h"
#include "isa/vc4/qpu_exec.h"
#include "units/vc4_sfu/vc4_sfu.h"
#include "vc4_packets.h"
#include "vc4_qpu_spec.h"

#define WATCHDOG_INSTRUCTIONS 100000u

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

bool vc4_read_shader_record(struct vc4_3d *p, const struct gpu_memory *mem, uint32_t state,
                            struct vc4_shader_record *r)
{
    uint8_t b[136] = { 0 };
    uint32_t address = state & ~15u;
    unsigned count = state & 7 ? state & 7 : 8;     /* "0 => all 8 arrays" (Table 38, 64) */
    bool extended = state >> 3 & 1;
    uint32_t length = 36 + 8 * count + (extended ? 4 * count : 0);
    if (gpu_memory_read(mem, address & p->address_mask, b, length, NULL) < 0)
        return false;
    memset(r, 0, sizeof *r);
    r->flags = (uint16_t)(b[0] | b[1] << 8);
    r->fs_varyings = b[3];
    r->fs_code = rd32(b + 4);
    r->fs_uniforms = rd32(b + 8);
    r->select[0] = b[14];
    r->attribute_bytes[0] = b[15];
    r->code[0] = rd32(b + 16);
    r->uniforms[0] = rd32(b + 20);
    r->select[1] = b[26];
    r->attribute_bytes[1] = b[27];
    r->code[1] = rd32(b + 28);
    r->uniforms[1] = rd32(b + 32);
    r->attribute_count = count;
    for (unsigned n = 0; n < count; n++) {
        const uint8_t *a = b + 36 + 8 * n;
        r->attribute[n].base = rd32(a);
        r->attribute[n].bytes = a[4] + 1u;
        r->attribute[n].stride = extended ? rd32(b + 36 + 8 * count + 4 * n) : a[5];
        r->attribute[n].vpm_offset[0] = a[6];
        r->attribute[n].vpm_offset[1] = a[7];
    }
    return true;
}

/* ---- the functional QPU ------------------------------------------------------------------- */

struct run {
    struct vc4_3d *p;
    struct gpu_memory *mem;
    /* vertex shading: the batch's VPM segments (column = vertex, @138512) */
    uint32_t (*in)[16], (*out)[16];
    uint32_t read_address, read_left, read_stride;
    bool read_horizontal;
    uint32_t write_address, write_stride;
    bool write_horizontal;
    /* fragment shading */
    struct vc4_fragment_batch *frag;
    struct vc4_fragment_thread tlb;
    bool faulted;
};

static uint32_t read_memory_word(struct run *r, uint32_t address)
{
    uint8_t b[4] = { 0 };
    if (gpu_memory_read(r->mem, address & r->p->address_mask, b, 4, NULL) < 0)
        r->faulted = true;
    return rd32(b);
}

/* VPM generic block read/write addressing, 32-bit vectors only (Tables 32, 33: horizontal
 * ADDR[5:0] = Y; vertical {Y[5:4], X[3:0]}); other sizes are counted as unsupported */
static void vpm_vector(uint32_t (*seg)[16], uint32_t address, bool horizontal,
                       uint32_t value[QPU_LANES], bool write, uint16_t lanes)
{
    for (unsigned i = 0; i < QPU_LANES; i++) {
        unsigned row, col;
        if (horizontal) {
            row = address & 63;
            col = i;
        } else {
            row = ((address >> 4 & 3) * 16 + i) & 63;
            col = address & 15;
        }
        if (write) {
            if (lanes >> i & 1)
                seg[row][col] = value[i];
        } else {
            value[i] = seg[row][col];
        }
    }
}

static void io_read(void *ctx, const struct qpu_state *state, unsigned raddr, bool file_b,
                    uint32_t value[QPU_LANES], uint32_t c_coefficient[QPU_LANES])
{
    struct run *r = ctx;
    switch (raddr) {
    case VC4_RADDR_A_UNIFORM_READ: {
        uint32_t v = read_memory_word(r, state->uniform_address);
        for (unsigned i = 0; i < QPU_LANES; i++)
            value[i] = v;
        return;
    }
    case VC4_RADDR_A_VPM_READ:
        if (!r->in || !r->read_left) {
            r->p->stats.unsupported++;
            return;
        }
        vpm_vector(r->in, r->read_address, r->read_horizontal, value, false, 0);
        r->read_address += r->read_stride;
        r->read_left--;
        return;
    case VC4_RADDR_A_VPM_LD_BUSY: case VC4_RADDR_A_VPM_LD_WAIT:
        return;                    /* the VCD loaded the batch before the shader started */
    case VC4_RADDR_A_VARYING_READ:
    case VC4_RADDR_A_X_PIXEL_COORD:
    case VC4_RADDR_A_MS_FLAGS:
        if (!r->frag)
            r->p->stats.unsupported++;
        else
            vc4_fragment_read(r->p, &r->tlb, raddr, file_b, value, c_coefficient);
        return;
    default:
        r->p->stats.unsupported++;     /* mutex, TMU results: not used by these shaders */
        return;
    }
}

static bool depth_test(unsigned function, uint32_t fragment, uint32_t stored)
{
    switch (function & 7) {        /* "0-7 never, lt, eq, le, gt, ne, ge, always" (96) */
    case 0: return false;
    case 1: return fragment < stored;
    case 2: return fragment == stored;
    case 3: return fragment <= stored;
    case 4: return fragment > stored;
    case 5: return fragment != stored;
    case 6: return fragment >= stored;
    default: return true;
    }
}

static uint8_t stencil_op(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op & 7) {              /* "zero, keep, replace, incsat, decsat, invert, inc, dec" */
    case 0: return 0;
    case 1: return s;
    case 2: return ref;
    case 3: return s == 255 ? 255 : (uint8_t)(s + 1);
    case 4: return s == 0 ? 0 : (uint8_t)(s - 1);
    case 5: return (uint8_t)~s;
    case 6: return (uint8_t)(s + 1);
    default: return (uint8_t)(s - 1);
    }
}

static unsigned sample_count(const struct vc4_render *t)
{
    return t->samples == VC4_MS_SAMPLES ? VC4_MS_SAMPLES : 1;
}

/* TLB_Z: the stencil and Z tests of every live sample of each lane against that sample's
 * stencil and Z (the shader's one Z for all of a pixel's samples [chosen: the seed does not
 * say whether the TLB offsets Z per sample]); a failing sample leaves the lane's mask
 * (MS_FLAGS), a lane with none left is no longer written (depth_failed counts samples) */
static void tlb_z(struct vc4_3d *p, struct vc4_fragment_thread *r,
                  const uint32_t value[QPU_LANES], uint16_t lanes)
{
    struct vc4_render *t = &p->render;
    uint32_t bits = r->config_bits;
    unsigned function = bits >> 12 & 7;
    bool z_update = bits >> 15 & 1;
    unsigned face = r->batch->reverse ? 1 : 0;
    uint32_t sc = r->stencil_config[face];
    unsigned samples = sample_count(t);
    for (unsigned i = 0; i < QPU_LANES; i++) {
        if (!(lanes >> i & 1) || !(r->coverage >> i & 1))
            continue;
        uint32_t z = value[i] & 0xffffff;
        for (unsigned smp = 0; smp < samples; smp++) {
            if (samples > 1 && !(r->samples[i] >> smp & 1))
                continue;
            unsigned k = vc4_tile_entry(t, r->batch->x[i], r->batch->y[i], smp);
            bool stencil_pass = true;
            uint8_t s = t->stencil[k], ref = (uint8_t)(sc >> 8), mask = (uint8_t)sc;
            if (r->stencil_enabled) {
                uint8_t a = ref & mask, b = s & mask;
                switch (sc >> 16 & 7) {
                case 0: stencil_pass = false; break;
                case 1: stencil_pass = a < b; break;
                case 2: stencil_pass = a == b; break;
                case 3: stencil_pass = a <= b; break;
                case 4: stencil_pass = a > b; break;
                case 5: stencil_pass = a != b; break;
                case 6: stencil_pass = a >= b; break;
                default: stencil_pass = true; break;
                }
            }
            bool z_pass = stencil_pass && depth_test(function, z, t->depth[k]);
            if (r->stencil_enabled) {
                unsigned op = !stencil_pass ? sc >> 19 : !z_pass ? sc >> 25 : sc >> 22;
                uint8_t wm = r->stencil_write_mask[face];
                uint8_t n = stencil_op(op, s, ref);
                t->stencil[k] = (uint8_t)((s & ~wm) | (n & wm));
            }
            if (!z_pass) {
                r->samples[i] &= (uint8_t)~(samples > 1 ? 1u << smp : 0xfu);
                p->stats.depth_failed++;
                continue;
            }
            if (z_update)
                t->depth[k] = z;
        }
        if (!r->samples[i])
            r->coverage &= (uint16_t)~(1u << i);
    }
}

static void tlb_stencil_setup(struct vc4_fragment_thread *r, uint32_t v)
{
    static const uint8_t mask_code[4] = { 0x1, 0x3, 0xf, 0xff };   /* Table 27 SFWMC */
    unsigned which = v >> 30;
    if (which == 0) {              /* Table 28: full write masks */
        r->stencil_write_mask[0] = (uint8_t)v;
        r->stencil_write_mask[1] = (uint8_t)(v >> 8);
        return;
    }
    r->stencil_enabled = true;
    for (unsigned f = 0; f < 2; f++)
        if (which >> f & 1) {
            r->stencil_config[f] = v;
            r->stencil_write_mask[f] = mask_code[v >> 28 & 3];
        }
}

void vc4_fragment_begin(struct vc4_fragment_thread *f, const struct vc4_fragment_batch *b,
                        uint32_t config_bits)
{
    memset(f, 0, sizeof *f);
    f->batch = b;
    f->config_bits = config_bits;
    f->coverage = b->lanes;
    for (unsigned i = 0; i < QPU_LANES; i++)
        f->samples[i] = b->lanes >> i & 1 ? (b->coverage[i] ? b->coverage[i] & 0xf : 0xf) : 0;
    f->stencil_write_mask[0] = f->stencil_write_mask[1] = 0xff;
}

bool vc4_fragment_read(struct vc4_3d *p, struct vc4_fragment_thread *f, unsigned raddr,
                       bool file_b, uint32_t value[QPU_LANES], uint32_t c_coefficient[QPU_LANES])
{
    const struct vc4_fragment_batch *b = f->batch;
    switch (raddr) {
    case VC4_RADDR_A_VARYING_READ:
        if (f->next_varying >= b->varyings) {
            p->stats.unsupported++;
            return false;
        }
        memcpy(value, b->vp[f->next_varying], sizeof(uint32_t) * QPU_LANES);
        memcpy(c_coefficient, b->c[f->next_varying], sizeof(uint32_t) * QPU_LANES);
        f->next_varying++;
        return true;
    case VC4_RADDR_A_X_PIXEL_COORD:
        for (unsigned i = 0; i < QPU_LANES; i++)
            value[i] = file_b ? b->y[i] : b->x[i];
        return true;
    case VC4_RADDR_A_MS_FLAGS:
        for (unsigned i = 0; i < QPU_LANES; i++)
            value[i] = file_b ? b->reverse : (f->coverage >> i & 1 ? f->samples[i] : 0u);
        return true;
    default:
        p->stats.unsupported++;
        return false;
    }
}

bool vc4_fragment_write(struct vc4_3d *p, struct vc4_fragment_thread *f, unsigned waddr,
                        const uint32_t value[QPU_LANES], uint16_t lanes)
{
    struct vc4_render *t = &p->render;
    switch (waddr) {
    case VC4_WADDR_A_TLB_STENCIL_SETUP:
        tlb_stencil_setup(f, value[0]);
        return true;
    case VC4_WADDR_A_TLB_Z:
        tlb_z(p, f, value, lanes);
        return true;
    case VC4_WADDR_A_TLB_COLOUR_MS: case VC4_WADDR_A_TLB_COLOUR_ALL: {
        /* ALL writes every live sample; in 4x multisample mode MS writes one sample a write,
         * in the fixed order of the Colour Loads (0..3, @108711), outside it MS acts as ALL */
        unsigned samples = sample_count(t);
        bool one = waddr == VC4_WADDR_A_TLB_COLOUR_MS && samples > 1;
        unsigned which = f->colour_ms_writes % VC4_MS_SAMPLES;
        if (one)
            f->colour_ms_writes++;
        for (unsigned i = 0; i < QPU_LANES; i++) {
            if (!((lanes & f->coverage) >> i & 1))
                continue;
            bool wrote = false;
            for (unsigned smp = 0; smp < samples; smp++) {
                if (samples > 1 && (!(f->samples[i] >> smp & 1) || (one && smp != which)))
                    continue;
                t->colour[vc4_tile_entry(t, f->batch->x[i], f->batch->y[i], smp)] = value[i];
                wrote = true;
            }
            p->stats.fragments_written += wrote;
        }
        return true;
    }
    default:
        return false;
    }
}

/* Colour Load: one sample a load in the fixed order 0..3 in 4x multisample mode ("read one
 * multisample per Color Load signal", @108711), the pixel's colour otherwise */
void vc4_fragment_colour_load(struct vc4_3d *p, struct vc4_fragment_thread *f,
                              uint32_t value[QPU_LANES])
{
    struct vc4_render *t = &p->render;
    unsigned which = sample_count(t) > 1 ? f->colour_loads++ % VC4_MS_SAMPLES : 0;
    for (unsigned i = 0; i < QPU_LANES; i++)
        value[i] = t->colour[vc4_tile_entry(t, f->batch->x[i], f->batch->y[i], which)];
}

static void io_write(void *ctx, struct qpu_state *state, unsigned waddr, bool file_b,
                     const uint32_t value[QPU_LANES], uint16_t lanes)
{
    struct run *r = ctx;
    switch (waddr) {
    case VC4_WADDR_A_VPM_WRITE:
        if (!r->out) {
            r->p->stats.unsupported++;
            return;
        }
        vpm_vector(r->out, r->write_address, r->write_horizontal, (uint32_t *)value, true,
                   lanes);
        r->write_address += r->write_stride;
        return;
    case VC4_WADDR_A_VPMVCD_RD_SETUP: {
        uint32_t v = value[0];
        if (file_b) {              /* VPMVCD_WR_SETUP (Table 32) */
            if (v >> 30 != 0) {    /* VDW setups: the pipeline's VPM output is not DMA'd */
                r->p->stats.unsupported++;
                return;
            }
            if ((v >> 8 & 3) != 2)
                r->p->stats.unsupported++;
            r->write_address = v & 0xff;
            r->write_stride = v >> 12 & 63 ? v >> 12 & 63 : 64;
            r->write_horizontal = v >> 11 & 1;
        } else {                   /* Table 33 */
            if (v >> 30 != 0) {
                r->p->stats.unsupported++;
                return;
            }
            if ((v >> 8 & 3) != 2)
                r->p->stats.unsupported++;
            r->read_address = v & 0xff;
            r->read_stride = v >> 12 & 63 ? v >> 12 & 63 : 64;
            r->read_horizontal = v >> 11 & 1;
            r->read_left = v >> 20 & 15 ? v >> 20 & 15 : 16;
        }
        return;
    }
    case VC4_WADDR_A_SFU_RECIP: case VC4_WADDR_A_SFU_RECIPSQRT:
    case VC4_WADDR_A_SFU_EXP: case VC4_WADDR_A_SFU_LOG:
        for (unsigned i = 0; i < QPU_LANES; i++)
            state->acc[4][i] = vc4_sfu_compute(waddr, value[i]);
        return;
    case VC4_WADDR_A_TLB_STENCIL_SETUP:
    case VC4_WADDR_A_TLB_Z:
    case VC4_WADDR_A_TLB_COLOUR_MS: case VC4_WADDR_A_TLB_COLOUR_ALL:
        if (r->frag)
            vc4_fragment_write(r->p, &r->tlb, waddr, value, lanes);
        return;
    case VC4_WADDR_A_TMU_NOSWAP: case VC4_WADDR_A_UNIFORMS_ADDRESS: case VC4_WADDR_A_NOP:
    case VC4_WADDR_A_VPM_LD_ADDR:
        return;
    default:
        r->p->stats.unsupported++;
        return;
    }
}

static void io_signal(void *ctx, struct qpu_state *state, unsigned sig)
{
    struct run *r = ctx;
    if ((sig == VC4_SIG_COLOR_LOAD || sig == VC4_SIG_COLOR_LOAD_END) && r->frag) {
        vc4_fragment_colour_load(r->p, &r->tlb, state->acc[4]);
    } else if (sig == VC4_SIG_LOAD_TMU0 || sig == VC4_SIG_LOAD_TMU1 ||
               sig == VC4_SIG_COVERAGE_LOAD || sig == VC4_SIG_ALPHA_MASK_LOAD) {
        r->p->stats.unsupported++;
    }
}

/* runs a program; the instructions it executed */
static uint32_t run_program(struct run *r, uint32_t code, uint32_t uniforms,
                            struct qpu_state *st)
{
    const struct qpu_io io = { .ctx = r, .read = io_read, .write = io_write,
                               .signal = io_signal };
    st->pc = code;
    st->uniform_address = uniforms;
    int ending = -1;
    for (uint32_t n = 0; n < WATCHDOG_INSTRUCTIONS; n++) {
        uint32_t lo = read_memory_word(r, st->pc), hi = read_memory_word(r, st->pc + 4);
        if (r->faulted) {
            r->p->stats.shader_faults++;
            return n;
        }
        struct vc4_qpu_instr in;
        vc4_qpu_decode((uint64_t)hi << 32 | lo, &in);
        struct qpu_step_result res = qpu_step(st, &in, &io);
        if (ending > 0 && --ending == 0)
            return n + 1;
        if (res.program_end && ending < 0)
            ending = 2;            /* two delay-slot instructions (@56274) */
        qpu_advance(st, &res);
    }
    r->p->stats.shader_watchdogs++;
    return WATCHDOG_INSTRUCTIONS;
}

/* a batch's instructions x 4 clocks (@43385) over the shading QPUs, owed by a CLE thread */
static void charge(struct vc4_3d *p, unsigned thread, uint32_t instructions)
{
    unsigned qpus = p->shading_qpus ? p->shading_qpus : 1;
    uint64_t cycles = ((uint64_t)instructions * 4 + qpus - 1) / qpus;
    p->owed[thread] += cycles;
    if (thread)
        p->stats.render_work_cycles += cycles;
    else
        p->stats.bin_work_cycles += cycles;
}

/* the VCD: each selected array's bytes of vertex `index` into `column` at its VPM offset
 * (Table 45 @174647, one column per vertex @138512); returns the rows it wrote (0..64) */
static uint32_t vcd_fetch(struct vc4_3d *p, struct gpu_memory *mem,
                          const struct vc4_shader_record *rec, unsigned k, uint32_t index,
                          unsigned column, uint32_t (*seg)[16], uint32_t *bytes_fetched)
{
    uint32_t rows = 0;
    for (unsigned a = 0; a < rec->attribute_count; a++) {
        if (!(rec->select[k] >> a & 1))
            continue;
        uint8_t bytes[256] = { 0 };
        uint32_t size = rec->attribute[a].bytes;
        uint32_t at = rec->attribute[a].base + index * rec->attribute[a].stride;
        if (gpu_memory_read(mem, at & p->address_mask, bytes, size, NULL) < 0)
            p->stats.attribute_faults++;
        if (bytes_fetched)
            *bytes_fetched += size;
        for (uint32_t w = 0; w * 4 < size; w++) {
            uint32_t row = (rec->attribute[a].vpm_offset[k] + 4 * w) / 4;
            if (row < VC4_VPM_ROWS) {
                seg[row][column] = rd32(bytes + 4 * w);
                if (row + 1 > rows)
                    rows = row + 1;
            }
        }
    }
    return rows;
}

/* the functional QPU: n (<= 16) vertices fetched and shaded inside v3d */
static bool shade_functional(struct vc4_3d *p, struct gpu_memory *mem,
                             const struct vc4_shader_record *rec, bool coordinate,
                             const uint32_t *index, unsigned n, uint32_t out[][VC4_VERTEX_WORDS])
{
    unsigned k = coordinate ? 1 : 0;
    uint32_t in_seg[VC4_VPM_ROWS][16], out_seg[VC4_VPM_ROWS][16];
    memset(in_seg, 0, sizeof in_seg);
    memset(out_seg, 0, sizeof out_seg);
    if (n > 16)
        n = 16;
    for (unsigned v = 0; v < n; v++)
        vcd_fetch(p, mem, rec, k, index[v], v, in_seg, NULL);
    p->stats.vertices_fetched += n;
    struct run r = { .p = p, .mem = mem, .in = in_seg, .out = out_seg };
    struct qpu_state st;
    qpu_state_init(&st, 0);
    if (coordinate)
        p->stats.coordinate_shader_runs++;
    else
        p->stats.vertex_shader_runs++;
    uint32_t instructions = run_program(&r, rec->code[k], rec->uniforms[k], &st);
    if (coordinate)
        p->stats.coordinate_instructions += instructions;
    else
        p->stats.vertex_instructions += instructions;
    charge(p, coordinate ? 0 : 1, instructions);
    for (unsigned v = 0; v < n; v++)
        for (unsigned w = 0; w < VC4_VERTEX_WORDS && w < VC4_VPM_ROWS; w++)
            out[v][w] = out_seg[w][v];
    return !r.faulted;
}

/* ---- the vertex cache and batch queue of the QPU-unit path -------------------------------- */

#define EMPTY_SLOT 0xffffffffu

static uint32_t hash_index(uint32_t index, uint32_t slots)
{
    return (uint32_t)((index * 2654435761u) & (slots - 1));
}

static bool cache_grow(struct vc4_vertex_cache *c)
{
    uint32_t capacity = c->capacity ? 2 * c->capacity : 64;
    uint32_t *index = realloc(c->index, sizeof *index * capacity);
    if (index)
        c->index = index;
    uint8_t *state = realloc(c->state, capacity);
    if (state)
        c->state = state;
    uint32_t (*words)[VC4_VERTEX_WORDS] = realloc(c->words, sizeof *words * capacity);
    if (words)
        c->words = words;
    /* the hash slots (2 x capacity, open addressing), rebuilt from the dense part */
    uint32_t *slots = malloc(sizeof *slots * 2 * capacity);
    if (!index || !state || !words || !slots) {
        free(slots);
        return false;
    }
    free(c->slots);
    c->slots = slots;
    c->capacity = capacity;
    memset(c->slots, 0xff, sizeof *slots * 2 * capacity);
    for (uint32_t e = 0; e < c->count; e++) {
        uint32_t h = hash_index(c->index[e], 2 * capacity);
        while (c->slots[h] != EMPTY_SLOT)
            h = (h + 1) & (2 * capacity - 1);
        c->slots[h] = e;
    }
    return true;
}

/* the dense entry of `index` in c, or EMPTY_SLOT; with insert, a new empty one (EMPTY_SLOT
 * when out of memory or past VC4_VERTEX_CACHE_LIMIT) */
static uint32_t cache_find(struct vc4_vertex_cache *c, uint32_t index, bool insert)
{
    if (c->capacity) {
        uint32_t h = hash_index(index, 2 * c->capacity);
        while (c->slots[h] != EMPTY_SLOT) {
            if (c->index[c->slots[h]] == index)
                return c->slots[h];
            h = (h + 1) & (2 * c->capacity - 1);
        }
    }
    if (!insert || c->count >= VC4_VERTEX_CACHE_LIMIT)
        return EMPTY_SLOT;
    if (c->count == c->capacity && !cache_grow(c))
        return EMPTY_SLOT;
    uint32_t e = c->count++;
    c->index[e] = index;
    c->state[e] = 0;
    uint32_t h = hash_index(index, 2 * c->capacity);
    while (c->slots[h] != EMPTY_SLOT)
        h = (h + 1) & (2 * c->capacity - 1);
    c->slots[h] = e;
    return e;
}

static void vertex_queue_push(struct vc4_3d *p, const struct vc4_vertex_job *j)
{
    if (p->vertex_count == p->vertex_capacity) {
        uint32_t capacity = p->vertex_capacity ? 2 * p->vertex_capacity : 16;
        struct vc4_vertex_job *jobs = malloc(sizeof *jobs * capacity);
        if (!jobs) {
            vc4_vertex_job_fallback(p, j);
            return;
        }
        for (uint32_t i = 0; i < p->vertex_count; i++)
            jobs[i] = p->vertex_jobs[(p->vertex_head + i) % p->vertex_capacity];
        free(p->vertex_jobs);
        p->vertex_jobs = jobs;
        p->vertex_head = 0;
        p->vertex_capacity = capacity;
    }
    p->vertex_jobs[(p->vertex_head + p->vertex_count++) % p->vertex_capacity] = *j;
}

const struct vc4_vertex_job *vc4_vertex_queue_head(const struct vc4_3d *p)
{
    return p->vertex_count ? &p->vertex_jobs[p->vertex_head] : NULL;
}

void vc4_vertex_queue_pop(struct vc4_3d *p, struct vc4_vertex_job *out)
{
    if (!p->vertex_count)
        return;
    if (out)
        *out = p->vertex_jobs[p->vertex_head];
    p->vertex_head = (p->vertex_head + 1) % p->vertex_capacity;
    p->vertex_count--;
}

static void finish_job(struct vc4_3d *p, const struct vc4_vertex_job *j,
                       const uint32_t (*words)[VC4_VERTEX_WORDS])
{
    if (!p->vertex_cache || j->thread > 1)
        return;
    struct vc4_vertex_cache *c = &p->vertex_cache[j->thread];
    for (uint32_t v = 0; v < j->count && v < 16; v++) {
        uint32_t e = cache_find(c, j->index[v], false);
        if (e == EMPTY_SLOT || c->state[e] != 1)
            continue;
        if (words) {
            memcpy(c->words[e], words[v], sizeof c->words[e]);
            c->state[e] = 2;
        } else {
            c->state[e] = 0;       /* shaded inside v3d when the record executes */
        }
        if (c->pending)
            c->pending--;
    }
}

void vc4_vertex_job_done(struct vc4_3d *p, const struct vc4_vertex_job *j,
                         const uint32_t (*words)[VC4_VERTEX_WORDS])
{
    finish_job(p, j, words);
}

void vc4_vertex_job_fallback(struct vc4_3d *p, const struct vc4_vertex_job *j)
{
    finish_job(p, j, NULL);
}

/* the collecting walk: vertices of the record not yet in the cache go into batches */
static void collect_vertices(struct vc4_3d *p, struct gpu_memory *mem,
                             const struct vc4_shader_record *rec, bool coordinate,
                             const uint32_t *index, unsigned n)
{
    unsigned thread = p->collecting - 1;
    struct vc4_vertex_cache *c = &p->vertex_cache[thread];
    unsigned k = coordinate ? 1 : 0;
    for (unsigned v = 0; v < n; v++) {
        if (cache_find(c, index[v], false) != EMPTY_SLOT)
            continue;
        uint32_t e = cache_find(c, index[v], true);
        if (e == EMPTY_SLOT)
            continue;              /* past the limit: shaded inside v3d */
        struct vc4_vertex_job *j = c->filling;
        if (!j) {
            j = c->filling = calloc(1, sizeof *j);
            if (!j)
                continue;
        }
        if (!j->count) {
            memset(j, 0, sizeof *j);
            j->thread = (uint8_t)thread;
            j->coordinate = coordinate;
            j->code = rec->code[k];
            j->uniforms = rec->uniforms[k];
            unsigned base = rec->flags & 2 ? 4 : 3;      /* Fig 10 / Fig 11 */
            j->out_rows = coordinate ? 8 : base + rec->fs_varyings;
            if (j->out_rows > VC4_VPM_ROWS)
                j->out_rows = VC4_VPM_ROWS;
        }
        uint32_t rows = vcd_fetch(p, mem, rec, k, index[v], j->count, j->in,
                                  &j->attribute_bytes);
        if (rows > j->in_rows)
            j->in_rows = rows;
        j->index[j->count++] = index[v];
        c->state[e] = 1;
        c->pending++;
        if (j->count == 16) {
            vertex_queue_push(p, j);
            j->count = 0;
        }
    }
}

bool vc4_shade_vertices(struct vc4_3d *p, struct gpu_memory *mem,
                        const struct vc4_shader_record *rec, bool coordinate,
                        const uint32_t *index, unsigned n, uint32_t out[][VC4_VERTEX_WORDS])
{
    if (n > 16)
        n = 16;
    if (!p->queue_vertices || !p->vertex_cache)
        return shade_functional(p, mem, rec, coordinate, index, n, out);
    if (p->collecting) {
        collect_vertices(p, mem, rec, coordinate, index, n);
        for (unsigned v = 0; v < n; v++)
            memset(out[v], 0, sizeof out[v]);
        return true;
    }
    /* the record executes: its vertices come from the VPM rows the QPUs wrote; any the QPUs
     * did not shade (no QPU may, or past the limit) are shaded here, counted */
    struct vc4_vertex_cache *c = &p->vertex_cache[coordinate ? 0 : 1];
    uint32_t missing[16], where[16];
    unsigned m = 0;
    for (unsigned v = 0; v < n; v++) {
        uint32_t e = cache_find(c, index[v], false);
        if (e != EMPTY_SLOT && c->state[e] == 2) {
            memcpy(out[v], c->words[e], sizeof out[v]);
        } else {
            missing[m] = index[v];
            where[m++] = v;
        }
    }
    if (!m)
        return true;
    p->stats.vertex_fallbacks += m;
    uint32_t shaded[16][VC4_VERTEX_WORDS];
    bool ok = shade_functional(p, mem, rec, coordinate, missing, m, shaded);
    for (unsigned i = 0; i < m; i++)
        memcpy(out[where[i]], shaded[i], sizeof out[where[i]]);
    return ok;
}

bool vc4_3d_vertices_ready(struct vc4_3d *p, struct gpu_memory *mem, unsigned n, uint32_t at)
{
    if (!p->queue_vertices || n > 1)
        return true;
    if (!p->vertex_cache) {
        p->vertex_cache = calloc(2, sizeof *p->vertex_cache);
        if (!p->vertex_cache)
            return true;           /* shaded inside v3d */
    }
    struct vc4_vertex_cache *c = &p->vertex_cache[n];
    if (c->prepared && c->prepared_at == at)
        return c->pending == 0;
    if (c->prepared && !c->pending)
        vc4_3d_vertices_done(p, n);    /* a record that did not execute (CTERR): forgotten */
    else if (c->prepared)
        return false;              /* its batches are still out: wait for them [chosen] */
    uint8_t b[16] = { 0 };
    if (gpu_memory_read(mem, at & p->address_mask, b, sizeof b, NULL) < 0)
        gpu_memory_read(mem, at & p->address_mask, b, 1, NULL);
    /* the collecting walk changes nothing but the cache: the counts and the 49 word are kept */
    struct vc4_3d_stats saved = p->stats;
    uint32_t clipped_word = p->render.clipped_word;
    uint32_t pending_before = c->pending;
    p->collecting = n + 1;
    if (n == 0 && (b[0] == VC4_PACKET_VERTEX_ARRAY_PRIMITIVES ||
                   b[0] == VC4_PACKET_INDEXED_PRIMITIVE_LIST))
        vc4_bin_record(p, mem, b);
    else if (n == 1 && b[0] == VC4_PACKET_COMPRESSED_PRIMITIVE_LIST)
        vc4_render_compressed(p, mem, (at + 1) & p->address_mask);
    else if (n == 1 && b[0] == VC4_PACKET_CLIPPED_PRIMITIVE_WITH_COMPRESSED_PRIMITIVE_LIST)
        vc4_render_clipped(p, mem, (at + 1) & p->address_mask);
    p->collecting = 0;
    if (c->filling && c->filling->count) {
        vertex_queue_push(p, c->filling);
        c->filling->count = 0;
    }
    p->stats = saved;
    p->render.clipped_word = clipped_word;
    p->stats.vertices_fetched += c->pending - pending_before;
    c->prepared = true;
    c->prepared_at = at;
    return c->pending == 0;
}

void vc4_3d_vertices_done(struct vc4_3d *p, unsigned n)
{
    if (!p->vertex_cache || n > 1)
        return;
    struct vc4_vertex_cache *c = &p->vertex_cache[n];
    if (c->capacity)
        memset(c->slots, 0xff, sizeof *c->slots * 2 * c->capacity);
    c->count = c->pending = 0;
    c->prepared = false;
}

void vc4_shade_fragments(struct vc4_3d *p, struct gpu_memory *mem,
                         const struct vc4_shader_record *rec, struct vc4_fragment_batch *b)
{
    struct run r = { .p = p, .mem = mem, .frag = b };
    vc4_fragment_begin(&r.tlb, b, p->render.gl.config_bits);
    struct qpu_state st;
    qpu_state_init(&st, 0);
    for (unsigned i = 0; i < QPU_LANES; i++) {
        st.regfile_a[15][i] = b->w[i];     /* Table 29: 15-A W, 15-B Z */
        st.regfile_b[15][i] = b->z[i];
    }
    p->stats.fragment_shader_runs++;
    for (unsigned i = 0; i < QPU_LANES; i++)
        p->stats.fragments_shaded += b->lanes >> i & 1;
    uint32_t instructions = run_program(&r, rec->fs_code, rec->fs_uniforms, &st);
    p->stats.fragment_instructions += instructions;
    charge(p, 1, instructions);
}

/* ---- the fragment queue of the QPU-unit path ---------------------------------------------- */

void vc4_fragment_queue_push(struct vc4_3d *p, const struct vc4_shader_record *rec,
                             const struct vc4_fragment_batch *b)
{
    if (p->job_count == p->job_capacity) {
        uint32_t capacity = p->job_capacity ? 2 * p->job_capacity : 64;
        struct vc4_fragment_job *jobs = malloc(sizeof *jobs * capacity);
        if (!jobs)
            return;
        for (uint32_t i = 0; i < p->job_count; i++)
            jobs[i] = p->jobs[(p->job_head + i) % p->job_capacity];
        free(p->jobs);
        p->jobs = jobs;
        p->job_head = 0;
        p->job_capacity = capacity;
    }
    struct vc4_fragment_job *j = &p->jobs[(p->job_head + p->job_count++) % p->job_capacity];
    j->batch = *b;
    j->fs_code = rec->fs_code;
    j->fs_uniforms = rec->fs_uniforms;
    j->config_bits = p->render.gl.config_bits;
    j->threaded = !(rec->flags & 1);
    if (p->job_count > p->stats.fragment_queue_max)
        p->stats.fragment_queue_max = p->job_count;
    p->stats.fragment_shader_runs++;
    for (unsigned i = 0; i < QPU_LANES; i++)
        p->stats.fragments_shaded += b->lanes >> i & 1;
}

const struct vc4_fragment_job *vc4_fragment_queue_head(const struct vc4_3d *p)
{
    return p->job_count ? &p->jobs[p->job_head] : NULL;
}

void vc4_fragment_queue_pop(struct vc4_3d *p, struct vc4_fragment_job *out)
{
    if (!p->job_count)
        return;
    if (out)
        *out = p->jobs[p->job_head];
    p->job_head = (p->job_head + 1) % p->job_capacity;
    p->job_count--;
}

void vc4_3d_release(struct vc4_3d *p)
{
    if (p->vertex_cache)
        for (unsigned n = 0; n < 2; n++) {
            struct vc4_vertex_cache *c = &p->vertex_cache[n];
            free(c->index);
            free(c->state);
            free(c->words);
            free(c->slots);
            free(c->filling);
        }
    free(p->vertex_cache);
    p->vertex_cache = NULL;
    free(p->vertex_jobs);
    p->vertex_jobs = NULL;
    p->vertex_head = p->vertex_count = p->vertex_capacity = 0;
    free(p->jobs);
    p->jobs = NULL;
    p->job_head = p->job_count = p->job_capacity = 0;
    p->fragments_in_flight = 0;
}

uint32_t vc4_3d_fragments_busy(const struct vc4_3d *p)
{
    return p->job_count + p->fragments_in_flight;
}

bool vc4_render_record_passes_fragments(uint8_t id)
{
    switch (id) {
    case VC4_PACKET_NOP:
    case VC4_PACKET_BRANCH:
    case VC4_PACKET_BRANCH_TO_SUB_LIST:
    case VC4_PACKET_RETURN_FROM_SUB_LIST:
    case VC4_PACKET_COMPRESSED_PRIMITIVE_LIST:
    case VC4_PACKET_CLIPPED_PRIMITIVE_WITH_COMPRESSED_PRIMITIVE_LIST:
    case VC4_PACKET_PRIMITIVE_LIST_FORMAT:
    case VC4_PACKET_GL_SHADER_STATE:
        return true;
    default:
        /* the state records (96-106) the batches keep what they need of */
        return id >= VC4_PACKET_CONFIGURATION_BITS && id <= VC4_PACKET_CLIPPER_Z_SCALE_AND_OFFSET;
    }
}
