/* units/vc4_host/vc4_submit.c - reading a vc4 submit dump and doing what the kernel does with
 * each submit; see vc4_submit.h. Section numbers (§) are those of
 * ../shared/notes/vc4-submit.md. */
#include "units/vc4_host/vc4_submit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabric/alloc.h"
#include "vc4_packets.h"

#define MAX_DUMP_BYTES (512u << 20)
#define MAX_BO_BYTES (256u << 20)
#define MAX_HANDLES 4096u
#define PAGE 4096u

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t round_up(uint32_t v, uint32_t to)
{
    return (v + to - 1) / to * to;
}

/* ---- the dump file ---------------------------------------------------------------------- */

bool vc4_dump_file_is_dump(const char *path)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return false;
    char magic[8];
    int n = gzread(f, magic, sizeof magic);
    gzclose(f);
    return n == 8 && memcmp(magic, "VC4DUMP1", 8) == 0;
}

void vc4_dump_free(struct vc4_dump *d)
{
    for (uint32_t i = 0; i < d->count; i++) {
        free(d->submit[i].handles);
        free(d->submit[i].bo);
    }
    free(d->submit);
    free(d->bytes);
    memset(d, 0, sizeof *d);
}

static void read_surface(const uint8_t *p, struct vc4_surface *s)
{
    s->hindex = rd32(p);
    s->offset = rd32(p + 4);
    s->bits = rd16(p + 8);
    s->flags = rd16(p + 10);
}

/* struct drm_vc4_submit_cl at p (176 bytes; offsets of vc4-submit.md §2) */
static void read_fields(const uint8_t *p, struct vc4_submit_fields *f)
{
    f->bin_cl_size = rd32(p + 32);
    f->shader_rec_size = rd32(p + 36);
    f->shader_rec_count = rd32(p + 40);
    f->uniforms_size = rd32(p + 44);
    f->bo_handle_count = rd32(p + 48);
    f->width = rd16(p + 52);
    f->height = rd16(p + 54);
    f->min_x_tile = p[56];
    f->min_y_tile = p[57];
    f->max_x_tile = p[58];
    f->max_y_tile = p[59];
    read_surface(p + 60, &f->color_read);
    read_surface(p + 72, &f->color_write);
    read_surface(p + 84, &f->zs_read);
    read_surface(p + 96, &f->zs_write);
    read_surface(p + 108, &f->msaa_color_write);
    read_surface(p + 120, &f->msaa_zs_write);
    f->clear_color[0] = rd32(p + 132);
    f->clear_color[1] = rd32(p + 136);
    f->clear_z = rd32(p + 140);
    f->clear_s = p[144];
    f->flags = rd32(p + 148);
}

int vc4_dump_parse(uint8_t *bytes, size_t size, const char *name, struct vc4_dump *d,
                   struct gt_error *err)
{
    memset(d, 0, sizeof *d);
    d->bytes = bytes;
    d->size = size;
    if (size < 16 || memcmp(bytes, "VC4DUMP1", 8) != 0) {
        gt_error_set(err, "%s: not a vc4 submit dump (no VC4DUMP1 header)", name);
        goto fail;
    }
    if (rd32(bytes + 8) != 1 || rd32(bytes + 12) != VC4_SUBMIT_STRUCT_SIZE) {
        gt_error_set(err, "%s: dump version %u with a %u-byte submit struct; gtsim reads version "
                     "1 with %u bytes", name, rd32(bytes + 8), rd32(bytes + 12),
                     VC4_SUBMIT_STRUCT_SIZE);
        goto fail;
    }
    size_t o = 16;
    struct vc4_dump_submit *cur = NULL;
    uint32_t capacity = 0, bos_seen = 0;
    bool got_bcl = false, got_srec = false, got_unif = false, got_bohl = false;
    while (o < size) {
        if (size - o < 8) {
            gt_error_set(err, "%s: byte 0x%zx: truncated record header", name, o);
            goto fail;
        }
        char tag[5];
        memcpy(tag, bytes + o, 4);
        tag[4] = 0;
        for (int i = 0; i < 4; i++)
            if (tag[i] < 0x20 || tag[i] > 0x7e)
                tag[i] = '?';
        uint32_t len = rd32(bytes + o + 4);
        const uint8_t *p = bytes + o + 8;
        if (len > size - o - 8) {
            gt_error_set(err, "%s: record '%s' at byte 0x%zx: its %u bytes run past the end of "
                         "the file (truncated dump)", name, tag, o, len);
            goto fail;
        }
        if (!strcmp(tag, "SUBM")) {
            if (cur) {
                gt_error_set(err, "%s: record SUBM at byte 0x%zx: submit %u has no ENDS", name, o,
                             cur->index);
                goto fail;
            }
            if (len != 4 + VC4_SUBMIT_STRUCT_SIZE) {
                gt_error_set(err, "%s: record SUBM at byte 0x%zx: %u bytes, expected %u", name, o,
                             len, 4 + VC4_SUBMIT_STRUCT_SIZE);
                goto fail;
            }
            if (d->count == capacity) {
                capacity = capacity ? 2 * capacity : 4;
                d->submit = gt_xrealloc(d->submit, capacity * sizeof *d->submit);
            }
            cur = &d->submit[d->count++];
            memset(cur, 0, sizeof *cur);
            cur->index = rd32(p);
            cur->file_offset = o;
            read_fields(p + 4, &cur->f);
            if (cur->f.bo_handle_count > MAX_HANDLES) {
                gt_error_set(err, "%s: record SUBM at byte 0x%zx: bo_handle_count %u (at most "
                             "%u)", name, o, cur->f.bo_handle_count, MAX_HANDLES);
                goto fail;
            }
            cur->bo = gt_xcalloc(cur->f.bo_handle_count + 1, sizeof *cur->bo);
            got_bcl = got_srec = got_unif = got_bohl = false;
            bos_seen = 0;
        } else if (!cur) {
            gt_error_set(err, "%s: record '%s' at byte 0x%zx outside a submit (no SUBM before "
                         "it)", name, tag, o);
            goto fail;
        } else if (!strcmp(tag, "BCL ") || !strcmp(tag, "SREC") || !strcmp(tag, "UNIF")) {
            uint32_t want = tag[0] == 'B' ? cur->f.bin_cl_size :
                            tag[0] == 'S' ? cur->f.shader_rec_size : cur->f.uniforms_size;
            bool *got = tag[0] == 'B' ? &got_bcl : tag[0] == 'S' ? &got_srec : &got_unif;
            if (len != want || *got) {
                gt_error_set(err, "%s: record '%s' at byte 0x%zx: %u bytes where submit %u says "
                             "%u%s", name, tag, o, len, cur->index, want,
                             *got ? " (and a second such record)" : "");
                goto fail;
            }
            *got = true;
            if (tag[0] == 'B')
                cur->bcl = p;
            else if (tag[0] == 'S')
                cur->shader_rec = p;
            else
                cur->uniforms = p;
        } else if (!strcmp(tag, "BOHL")) {
            if (got_bohl || len != 4u * cur->f.bo_handle_count) {
                gt_error_set(err, "%s: record BOHL at byte 0x%zx: %u bytes for %u handles", name,
                             o, len, cur->f.bo_handle_count);
                goto fail;
            }
            got_bohl = true;
            cur->handles = gt_xcalloc(cur->f.bo_handle_count + 1, sizeof *cur->handles);
            for (uint32_t i = 0; i < cur->f.bo_handle_count; i++)
                cur->handles[i] = rd32(p + 4 * i);
        } else if (!strcmp(tag, "BO  ")) {
            if (len < 16) {
                gt_error_set(err, "%s: record BO at byte 0x%zx: %u bytes, shorter than its "
                             "16-byte head", name, o, len);
                goto fail;
            }
            uint32_t index = rd32(p), handle = rd32(p + 4), bo_size = rd32(p + 8);
            if (!got_bohl || index >= cur->f.bo_handle_count || cur->bo[index].present ||
                cur->handles[index] != handle) {
                gt_error_set(err, "%s: record BO at byte 0x%zx: index %u handle %u is not a "
                             "new entry of submit %u's %u handles%s", name, o, index, handle,
                             cur->index, cur->f.bo_handle_count, got_bohl ? "" : " (no BOHL yet)");
                goto fail;
            }
            if (bo_size > MAX_BO_BYTES || len - 16 != bo_size) {
                gt_error_set(err, "%s: record BO at byte 0x%zx: size %u with %u bytes of data%s",
                             name, o, bo_size, len - 16,
                             bo_size > MAX_BO_BYTES ? " (larger than 256 MiB)" : "");
                goto fail;
            }
            cur->bo[index] = (struct vc4_dump_bo){ index, handle, bo_size, rd32(p + 12), p + 16,
                                                   true };
            bos_seen++;
        } else if (!strcmp(tag, "ENDS")) {
            if (len < 4 || rd32(p) != cur->index) {
                gt_error_set(err, "%s: record ENDS at byte 0x%zx does not end submit %u", name, o,
                             cur->index);
                goto fail;
            }
            const char *missing = !got_bcl && cur->f.bin_cl_size ? "BCL " :
                                  !got_srec && cur->f.shader_rec_size ? "SREC" :
                                  !got_unif && cur->f.uniforms_size ? "UNIF" :
                                  !got_bohl && cur->f.bo_handle_count ? "BOHL" :
                                  bos_seen != cur->f.bo_handle_count ? "BO  " : NULL;
            if (missing) {
                gt_error_set(err, "%s: record ENDS at byte 0x%zx: submit %u lacks its '%s' "
                             "record%s", name, o, cur->index, missing,
                             missing[0] == 'B' && missing[1] == 'O' && missing[2] == ' ' ?
                             "s (one per handle)" : "");
                goto fail;
            }
            cur = NULL;
        } else {
            gt_error_set(err, "%s: byte 0x%zx: unknown record '%s' (SUBM, BCL, SREC, UNIF, "
                         "BOHL, BO, ENDS)", name, o, tag);
            goto fail;
        }
        o += 8 + (size_t)len;
    }
    if (cur) {
        gt_error_set(err, "%s: submit %u (SUBM at byte 0x%zx) has no ENDS (truncated dump)",
                     name, cur->index, cur->file_offset);
        goto fail;
    }
    if (!d->count) {
        gt_error_set(err, "%s: the dump holds no submit", name);
        goto fail;
    }
    return 0;
fail:
    d->bytes = NULL;   /* the caller's to free */
    vc4_dump_free(d);
    return -1;
}

int vc4_dump_read(const char *path, struct vc4_dump *out, struct gt_error *err)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return gt_error_set(err, "%s: cannot open", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *bytes = gt_xmalloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap >= MAX_DUMP_BYTES) {
                gzclose(f);
                free(bytes);
                return gt_error_set(err, "%s: larger than %u MiB", path, MAX_DUMP_BYTES >> 20);
            }
            cap *= 2;
            bytes = gt_xrealloc(bytes, cap);
        }
        int got = gzread(f, bytes + n, (unsigned)(cap - n));
        if (got < 0) {
            int code;
            const char *message = gzerror(f, &code);
            gt_error_set(err, "%s: read error at byte 0x%zx: %s", path, n, message);
            gzclose(f);
            free(bytes);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(f);
    if (vc4_dump_parse(bytes, n, path, out, err) < 0) {
        free(bytes);
        return -1;
    }
    return 0;
}

/* ---- QPU code scan (§6) ----------------------------------------------------------------- */

/* QPU instruction fields (seed 002 Fig 3 @70261, Fig 5-7): signal 63:60, waddr_add 43:38,
 * waddr_mul 37:32, op_add 28:24, raddr_a 23:18, raddr_b 17:12. Register numbers (Table 14):
 * uniform read 32, UNIFORMS_ADDRESS write 40, TMU0_S..TMU1_B writes 56-63. */
enum {
    SIG_THREAD_SWITCH = 2, SIG_PROGRAM_END = 3, SIG_LAST_THREAD_SWITCH = 6,
    SIG_SMALL_IMMEDIATE = 13, SIG_LOAD_IMMEDIATE = 14, SIG_BRANCH = 15,
    REG_UNIFORM = 32, REG_UNIFORMS_ADDRESS = 40, REG_TMU0_S = 56, REG_TMU1_S = 60,
    REG_TMU_LAST = 63, OP_ADD = 12,
};

int vc4_shader_scan(const uint8_t *code, uint32_t size, struct vc4_shader_scan *s,
                    struct gt_error *err)
{
    memset(s, 0, sizeof *s);
    unsigned tmu_writes[2] = { 0, 0 };
    uint32_t end_at = 0;
    bool ended = false, backward_branch = false;
    for (uint32_t o = 0; o + 8 <= size; o += 8) {
        uint64_t w = (uint64_t)rd32(code + o + 4) << 32 | rd32(code + o);
        unsigned sig = (unsigned)(w >> 60);
        if (sig == SIG_BRANCH) {
            /* branch: bit 51 relative, bit 50 register (seed Fig 7 @84940); the kernel
             * accepts only relative, non-register branches */
            if (!(w >> 51 & 1) || (w >> 50 & 1))
                return gt_error_set(err, "instruction at code byte 0x%x: a %s branch (the "
                                    "kernel accepts only PC-relative immediate branches)", o,
                                    (w >> 50 & 1) ? "register" : "absolute");
            if ((int32_t)(uint32_t)w < 0)
                backward_branch = true;
        } else {
            unsigned waddr[2] = { (unsigned)(w >> 38 & 63), (unsigned)(w >> 32 & 63) };
            unsigned op_add = (unsigned)(w >> 24 & 31);
            unsigned raddr_a = (unsigned)(w >> 18 & 63), raddr_b = (unsigned)(w >> 12 & 63);
            bool alu = sig != SIG_LOAD_IMMEDIATE;
            bool reads_uniform = alu && (raddr_a == REG_UNIFORM ||
                                         (raddr_b == REG_UNIFORM && sig != SIG_SMALL_IMMEDIATE));
            if (sig == SIG_THREAD_SWITCH || sig == SIG_LAST_THREAD_SWITCH)
                s->threaded = true;
            /* writes before reads, as the kernel checks them */
            for (int side = 0; side < 2; side++) {
                unsigned a = waddr[side];
                if (side == 0 && a == REG_UNIFORMS_ADDRESS && alu &&
                    s->address_slot_count < 8)
                    s->address_slots[s->address_slot_count++] = s->uniforms;
                if (a < REG_TMU0_S || a > REG_TMU_LAST)
                    continue;
                unsigned tmu = a >= REG_TMU1_S;
                bool submit = a == REG_TMU0_S || a == REG_TMU1_S;
                bool direct = submit && tmu_writes[tmu] == 0 && side == 0 && alu &&
                              op_add == OP_ADD && reads_uniform;
                if (direct) {
                    /* a direct (general) lookup: address = uniform + offset; the uniform is
                     * counted as this instruction's read */
                    if (s->samples < 16) {
                        s->sample_p0[s->samples] = s->uniforms;
                        s->sample_direct[s->samples] = true;
                    }
                    s->samples++;
                    continue;
                }
                if (tmu_writes[tmu] == 0 && s->samples < 16) {
                    s->sample_p0[s->samples] = s->uniforms;
                    s->sample_direct[s->samples] = false;
                }
                tmu_writes[tmu]++;
                s->uniforms++;          /* the TMU pops a configuration uniform */
                if (submit) {
                    s->samples++;
                    tmu_writes[tmu] = 0;
                }
            }
            if (reads_uniform)
                s->uniforms++;
        }
        if (ended && o >= end_at)
            break;
        if (!ended && sig == SIG_PROGRAM_END) {
            ended = true;
            end_at = o + 16;            /* two delay-slot instructions follow */
            if (end_at + 8 > size)
                return gt_error_set(err, "program end at code byte 0x%x leaves no room for its "
                                    "two delay slots in the %u-byte BO", o, size);
        }
    }
    if (!ended)
        return gt_error_set(err, "no program end inside the %u-byte shader BO", size);
    if (s->samples > 16)
        return gt_error_set(err, "%u texture samples (gtsim relocates at most 16 per shader)",
                            s->samples);
    if (backward_branch && s->address_slot_count < 8)
        s->address_slots[s->address_slot_count++] = s->uniforms++;   /* trailing loop slot */
    return 0;
}

/* ---- submit preparation ------------------------------------------------------------------ */

struct record_state {
    uint32_t pointer_bits;       /* packet 64 bits 3:0 */
    uint32_t address;            /* validated record address */
    uint32_t max_index;
    bool has_primitives;
};

struct prep {
    const struct vc4_dump_submit *s;
    struct vc4_job *job;
    struct gt_error *err;
    uint8_t *exec;               /* the exec buffer image */
    struct record_state *rec;
    uint32_t records;
};

/* a refusal naming the submit, the record ("BCL", "SREC", "UNIF", "SUBM" field) and the byte */
#define REJECT(p, what, offset, ...)                                                          \
    do {                                                                                      \
        char detail_[256];                                                                    \
        snprintf(detail_, sizeof detail_, __VA_ARGS__);                                       \
        return gt_error_set((p)->err, "submit %u: %s byte 0x%x: %s", (p)->s->index, what,     \
                            (unsigned)(offset), detail_);                                     \
    } while (0)

static uint32_t record_size(uint32_t pointer_bits)
{
    uint32_t n = pointer_bits & 7 ? pointer_bits & 7 : 8;
    return pointer_bits & 8 ? 100 + 4 * n : 36 + 8 * n;
}

static bool is_shader_bo(const struct vc4_dump_submit *s, uint32_t index)
{
    return s->bo[index].flags & 1;
}

/* BCL validation and relocation (§4) into the exec buffer at +0. */
static int validate_bcl(struct prep *p)
{
    const struct vc4_dump_submit *s = p->s;
    const uint8_t *bcl = s->bcl;
    uint32_t size = s->f.bin_cl_size, out = 0, records_base = round_up(size, 16);
    uint32_t record_address = p->job->exec_address + records_base;
    bool found_112 = false, found_6 = false, found_7 = false, found_4 = false;
    bool have_handles = false;
    uint32_t index_bo = 0, tsda_patch = 0;
    uint32_t n_packets = 0;
    for (uint32_t o = 0; o < size;) {
        uint8_t id = bcl[o];
        uint32_t len;
        switch (id) {
        case VC4_PACKET_HALT: case VC4_PACKET_NOP: case VC4_PACKET_FLUSH:
        case VC4_PACKET_FLUSH_ALL_STATE: case VC4_PACKET_START_TILE_BINNING:
        case VC4_PACKET_INCREMENT_SEMAPHORE: case VC4_PACKET_INDEXED_PRIMITIVE_LIST:
        case VC4_PACKET_VERTEX_ARRAY_PRIMITIVES: case VC4_PACKET_PRIMITIVE_LIST_FORMAT:
        case VC4_PACKET_GL_SHADER_STATE: case VC4_PACKET_CONFIGURATION_BITS:
        case VC4_PACKET_FLAT_SHADE_FLAGS: case VC4_PACKET_POINT_SIZE: case VC4_PACKET_LINE_WIDTH:
        case VC4_PACKET_RHT_X_BOUNDARY: case VC4_PACKET_DEPTH_OFFSET: case VC4_PACKET_CLIP_WINDOW:
        case VC4_PACKET_VIEWPORT_OFFSET: case VC4_PACKET_CLIPPER_XY_SCALING:
        case VC4_PACKET_CLIPPER_Z_SCALE_AND_OFFSET: case VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION:
            len = vc4_packets[id].length;
            break;
        case 254:                       /* GEM_HANDLES, software only [packet] */
            len = 9;
            break;
        default:
            REJECT(p, "BCL", o, "packet ID %u (%s) is not accepted in a binning control list",
                   id, vc4_packets[id].name ? vc4_packets[id].name : "no such packet");
        }
        if (len > size - o)
            REJECT(p, "BCL", o, "packet %u needs %u bytes; the BCL has %u left", id, len,
                   size - o);
        const uint8_t *in = bcl + o;
        if (id != VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION && !found_112 && id != 254)
            REJECT(p, "BCL", o, "packet %u before Tile Binning Mode Configuration (112 must come "
                   "first)", id);
        if (id != 254) {
            memcpy(p->exec + out, in, len);
        }
        uint8_t *copy = p->exec + out;
        switch (id) {
        case VC4_PACKET_FLUSH:
            if (o != size - 1)
                REJECT(p, "BCL", o, "Flush must be the last byte (the BCL is %u bytes)", size);
            found_4 = true;
            break;
        case VC4_PACKET_INCREMENT_SEMAPHORE:
            if (o != size - 2)
                REJECT(p, "BCL", o, "Increment Semaphore must be the second-last byte (the BCL "
                       "is %u bytes)", size);
            found_7 = true;
            break;
        case VC4_PACKET_START_TILE_BINNING:
            if (found_6)
                REJECT(p, "BCL", o, "a second Start Tile Binning");
            found_6 = true;
            break;
        case VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION: {
            if (found_112)
                REJECT(p, "BCL", o, "a second Tile Binning Mode Configuration");
            found_112 = true;
            uint8_t tx = in[13], ty = in[14], flags = in[15];
            if (!tx || !ty)
                REJECT(p, "BCL", o + 13, "tile binning width %u x height %u tiles (both must be "
                       "at least 1)", tx, ty);
            if (flags & 0x82)
                REJECT(p, "BCL", o + 15, "binning flags 0x%02x: double-buffer (bit 7) and 64-bit "
                       "colour (bit 1) are refused", flags);
            p->job->bin_tiles_x = tx;
            p->job->bin_tiles_y = ty;
            /* §4.3: keep MS 4x, auto-initialise the TSDA, initial blocks 32 B, then 128 B */
            copy[15] = (uint8_t)((flags & 1) | 1u << 2 | 0u << 3 | 2u << 5);
            tsda_patch = out;
            break;
        }
        case VC4_PACKET_GL_SHADER_STATE: {
            uint32_t v = rd32(in + 1);
            if (v & ~0xfu)
                REJECT(p, "BCL", o + 1, "GL Shader State 0x%08x: only the attribute count and "
                       "the extended bit (3:0) may be set by user space", v);
            if (p->records >= s->f.shader_rec_count)
                REJECT(p, "BCL", o, "shader state %u, but the submit declares %u records",
                       p->records + 1, s->f.shader_rec_count);
            struct record_state *r = &p->rec[p->records++];
            r->pointer_bits = v;
            r->address = record_address;
            record_address += round_up(record_size(v), 16);
            wr32(copy + 1, r->address | v);
            break;
        }
        case VC4_PACKET_VERTEX_ARRAY_PRIMITIVES:
        case VC4_PACKET_INDEXED_PRIMITIVE_LIST: {
            if (!p->records)
                REJECT(p, "BCL", o, "a primitive before any GL Shader State");
            struct record_state *r = &p->rec[p->records - 1];
            uint32_t count = rd32(in + 2), max;
            if (id == VC4_PACKET_VERTEX_ARRAY_PRIMITIVES) {
                uint32_t first = rd32(in + 6);
                if (count && first + count - 1 < first)
                    REJECT(p, "BCL", o + 6, "first vertex %u + %u vertices overflows", first,
                           count);
                max = count ? first + count - 1 : 0;
            } else {
                if (!have_handles)
                    REJECT(p, "BCL", o, "an indexed primitive list without a GEM handles "
                           "packet (254) naming its index buffer");
                uint32_t offset = rd32(in + 6), bytes = (in[1] >> 4) ? 2 : 1;
                const struct vc4_dump_bo *bo = &s->bo[index_bo];
                if (offset > bo->size || count > (bo->size - offset) / bytes)
                    REJECT(p, "BCL", o + 6, "%u indices of %u bytes at offset %u run past index "
                           "BO %u (%u bytes)", count, bytes, offset, index_bo, bo->size);
                wr32(copy + 6, p->job->bo_address[index_bo] + offset);
                max = rd32(in + 10);
            }
            if (count && (!r->has_primitives || max > r->max_index))
                r->max_index = max;
            r->has_primitives |= count != 0;
            break;
        }
        case 254: {
            uint32_t a = rd32(in + 1), b = rd32(in + 5);
            if (a >= s->f.bo_handle_count || b >= s->f.bo_handle_count)
                REJECT(p, "BCL", o + 1, "GEM handles %u, %u: the submit has %u BOs", a, b,
                       s->f.bo_handle_count);
            if (is_shader_bo(s, a))
                REJECT(p, "BCL", o + 1, "index buffer BO %u is a shader BO", a);
            index_bo = a;
            have_handles = true;
            break;
        }
        default:
            break;
        }
        if (id != 254)
            out += len;
        o += len;
        n_packets++;
        if (id == VC4_PACKET_HALT)
            break;
    }
    if (!found_112 || !found_6)
        REJECT(p, "BCL", size, "the list lacks %s", !found_112 ? "Tile Binning Mode "
               "Configuration (112)" : "Start Tile Binning (6)");
    if (!found_7 || !found_4)
        REJECT(p, "BCL", size, "the list must end with Increment Semaphore (7) and Flush (4)");
    p->job->bin_length = out;
    (void)n_packets;
    /* tile buffer (§7): TSDA at +0, tile allocation at roundup(48 x tiles, 4096) */
    uint32_t tiles = (uint32_t)p->job->bin_tiles_x * p->job->bin_tiles_y;
    uint32_t alloc_offset = round_up(48 * tiles, PAGE);
    p->job->tile_alloc_size = round_up(32 * tiles, 256) + (1u << 20);
    p->job->tile_size = alloc_offset + p->job->tile_alloc_size;
    p->job->tile_address = round_up(p->job->exec_address + p->job->exec_size, PAGE);
    p->job->tile_alloc_address = p->job->tile_address + alloc_offset;
    wr32(p->exec + tsda_patch + 1, p->job->tile_alloc_address);
    wr32(p->exec + tsda_patch + 5, p->job->tile_alloc_size);
    wr32(p->exec + tsda_patch + 9, p->job->tile_address);
    return 0;
}

/* Shader records and uniforms (§5, §6). */
static int validate_records(struct prep *p)
{
    const struct vc4_dump_submit *s = p->s;
    uint32_t records_base = round_up(s->f.bin_cl_size, 16);
    uint32_t uniforms_base = records_base + s->f.shader_rec_size;
    uint32_t user = 0, user_uniforms = 0, uniform_out = uniforms_base;
    for (uint32_t i = 0; i < p->records; i++) {
        struct record_state *r = &p->rec[i];
        uint32_t n = r->pointer_bits & 7 ? r->pointer_bits & 7 : 8;
        uint32_t rsize = record_size(r->pointer_bits), prefix = 4 * (3 + n);
        if (prefix + rsize > s->f.shader_rec_size - user || user > s->f.shader_rec_size)
            REJECT(p, "SREC", user, "shader record %u (%u BO indices + %u bytes) runs past "
                   "shader_rec_size %u", i, 3 + n, rsize, s->f.shader_rec_size);
        uint32_t index[11];
        for (uint32_t k = 0; k < 3 + n; k++) {
            index[k] = rd32(s->shader_rec + user + 4 * k);
            if (index[k] >= s->f.bo_handle_count)
                REJECT(p, "SREC", user + 4 * k, "record %u names BO %u; the submit has %u", i,
                       index[k], s->f.bo_handle_count);
            if ((k < 3) != is_shader_bo(s, index[k]))
                REJECT(p, "SREC", user + 4 * k, "record %u: BO %u %s", i, index[k], k < 3 ?
                       "holds shader code but is not a shader BO" :
                       "is a shader BO used for attributes");
        }
        const uint8_t *in = s->shader_rec + user + prefix;
        uint32_t rec_offset = user + prefix;
        uint8_t *rec = p->exec + (r->address - p->job->exec_address);
        memcpy(rec, in, rsize);
        /* FS, VS, CS: code at BO offset 0, uniforms from the stream */
        static const char *const shader_name[3] = { "fragment", "vertex", "coordinate" };
        for (int k = 0; k < 3; k++) {
            uint32_t code_field = 4 + 12 * (uint32_t)k;
            if (rd32(in + code_field))
                REJECT(p, "SREC", rec_offset + code_field, "record %u: %s shader code offset "
                       "0x%x (the kernel requires code at offset 0 of its BO)", i,
                       shader_name[k], rd32(in + code_field));
            const struct vc4_dump_bo *bo = &s->bo[index[k]];
            struct vc4_shader_scan scan;
            struct gt_error local;
            if (vc4_shader_scan(bo->data, bo->size, &scan, &local) < 0)
                REJECT(p, "SREC", user + 4 * (uint32_t)k, "record %u: %s shader BO %u: %s", i,
                       shader_name[k], index[k], local.message);
            bool single = rd16(in) & 1;
            if (k == 0 && scan.threaded == single)
                REJECT(p, "SREC", rec_offset, "record %u: flags say the fragment shader is %s "
                       "but its code %s thread switches", i, single ? "single-threaded" :
                       "threaded", scan.threaded ? "has" : "has no");
            if (k > 0 && scan.threaded)
                REJECT(p, "SREC", user + 4 * (uint32_t)k, "record %u: the %s shader has thread "
                       "switches", i, shader_name[k]);
            uint32_t need = 4 * (scan.samples + scan.uniforms);
            if (need > s->f.uniforms_size - user_uniforms)
                REJECT(p, "UNIF", user_uniforms, "record %u %s shader reads %u uniforms and %u "
                       "textures; the stream has %u bytes left", i, shader_name[k],
                       scan.uniforms, scan.samples, s->f.uniforms_size - user_uniforms);
            const uint8_t *tex = s->uniforms + user_uniforms;
            const uint8_t *values = tex + 4 * scan.samples;
            uint8_t *dst = p->exec + uniform_out;
            memcpy(dst, values, 4 * scan.uniforms);
            uint32_t block = p->job->exec_address + uniform_out;
            for (uint32_t t = 0; t < scan.samples; t++) {
                uint32_t tb = rd32(tex + 4 * t);
                if (tb >= s->f.bo_handle_count || is_shader_bo(s, tb))
                    REJECT(p, "UNIF", user_uniforms + 4 * t, "texture %u of record %u's %s "
                           "shader names BO %u (%s)", t, i, shader_name[k], tb,
                           tb >= s->f.bo_handle_count ? "no such index" : "a shader BO");
                uint32_t at = scan.sample_p0[t];
                if (at < scan.uniforms)
                    wr32(dst + 4 * at, rd32(dst + 4 * at) + p->job->bo_address[tb]);
                p->job->samples++;
            }
            for (uint32_t a = 0; a < scan.address_slot_count; a++)
                if (scan.address_slots[a] < scan.uniforms)
                    wr32(dst + 4 * scan.address_slots[a], block);
            wr32(rec + code_field, p->job->bo_address[index[k]]);
            wr32(rec + code_field + 4, block);
            user_uniforms += need;
            uniform_out += 4 * scan.uniforms;
        }
        /* attributes */
        for (uint32_t a = 0; a < n; a++) {
            uint32_t bo_index = index[3 + a];
            const struct vc4_dump_bo *bo = &s->bo[bo_index];
            uint32_t offset = rd32(in + 36 + 8 * a), attr_size = in[40 + 8 * a] + 1u;
            uint32_t stride = in[41 + 8 * a];
            if (r->pointer_bits & 8)
                stride |= rd32(in + 100 + 4 * a) & 0xffffff00u;
            if (offset > bo->size || attr_size > bo->size - offset)
                REJECT(p, "SREC", rec_offset + 36 + 8 * a, "record %u attribute %u: %u bytes at "
                       "offset %u run past BO %u (%u bytes)", i, a, attr_size, offset,
                       bo_index, bo->size);
            if (stride && r->has_primitives &&
                r->max_index > (bo->size - offset - attr_size) / stride)
                REJECT(p, "SREC", rec_offset + 36 + 8 * a, "record %u attribute %u: vertex "
                       "%u at stride %u runs past BO %u (%u bytes)", i, a, r->max_index, stride,
                       bo_index, bo->size);
            wr32(rec + 36 + 8 * a, p->job->bo_address[bo_index] + offset);
        }
        user += prefix + rsize;
        p->job->records++;
    }
    return 0;
}

/* ---- render control list (§8) ----------------------------------------------------------- */

struct surface_use {
    bool present;
    uint32_t address;            /* BO base + offset */
    uint32_t bo_size_left;       /* BO size - offset */
};

struct rcl {
    uint8_t *b;
    uint32_t n, cap;
};

static void put8(struct rcl *r, uint32_t v)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->b = gt_xrealloc(r->b, r->cap);
    }
    r->b[r->n++] = (uint8_t)v;
}

static void put16(struct rcl *r, uint32_t v)
{
    put8(r, v);
    put8(r, v >> 8);
}

static void put32(struct rcl *r, uint32_t v)
{
    put16(r, v);
    put16(r, v >> 16);
}

/* field: the surface's byte offset in struct drm_vc4_submit_cl, for messages */
static int check_size(struct prep *p, const char *name, uint32_t field, const struct surface_use *u,
                      uint32_t tiling, uint32_t cpp)
{
    const struct vc4_submit_fields *f = &p->s->f;
    /* a micro-tile is 64 bytes: 4 x 4 pixels at 4 B, 8 x 4 at 2 B; T-format tiles are 8 x 8
     * micro-tiles (notes/002-videocore4.md 4.7; the kernel's vc4_check_tex_size as
     * vc4-submit.md 8.3 summarises it) */
    uint32_t utile_w = cpp == 4 ? 4 : 8, utile_h = 4;
    uint32_t w = f->width, h = f->height;
    if (tiling == 1) {           /* T-format: 4 KiB tiles of 8 x 8 micro-tiles */
        w = round_up(w, utile_w * 8);
        h = round_up(h, utile_h * 8);
    } else if (tiling == 2) {    /* LT */
        w = round_up(w, utile_w);
        h = round_up(h, utile_h);
    } else {
        w = round_up(w, utile_w);
    }
    uint64_t need = (uint64_t)w * h * cpp;
    if (need > u->bo_size_left)
        REJECT(p, "SUBM", field, "%s surface %u x %u (%u B a pixel, tiling %u) needs %llu bytes; "
               "its BO has %u after the offset", name, f->width, f->height, cpp, tiling,
               (unsigned long long)need, u->bo_size_left);
    return 0;
}

static int surface(struct prep *p, const char *name, uint32_t field, const struct vc4_surface *s,
                   struct surface_use *u, int kind /* 0 general load/store, 1 render config,
                                                     2 msaa */)
{
    memset(u, 0, sizeof *u);
    if (s->hindex == VC4_NO_SURFACE)
        return 0;
    const struct vc4_dump_submit *d = p->s;
    if (s->hindex >= d->f.bo_handle_count)
        REJECT(p, "SUBM", field, "%s names BO %u; the submit has %u", name, s->hindex,
               d->f.bo_handle_count);
    if (is_shader_bo(d, s->hindex))
        REJECT(p, "SUBM", field, "%s is shader BO %u", name, s->hindex);
    if (s->offset & 15)
        REJECT(p, "SUBM", field + 4, "%s offset 0x%x is not 16-byte aligned", name, s->offset);
    const struct vc4_dump_bo *bo = &d->bo[s->hindex];
    if (s->offset > bo->size)
        REJECT(p, "SUBM", field + 4, "%s offset 0x%x is past BO %u (%u bytes)", name, s->offset,
               s->hindex, bo->size);
    u->present = true;
    u->address = p->job->bo_address[s->hindex] + s->offset;
    u->bo_size_left = bo->size - s->offset;
    uint32_t tile_w = p->job->tile_width;
    uint32_t tiles_w = (d->f.width + tile_w - 1) / tile_w;
    bool full_res = kind == 2 || (kind == 0 && (s->flags & VC4_SURFACE_READ_IS_FULL_RES));
    if (kind == 1 ? s->flags != 0 : (s->flags & ~VC4_SURFACE_READ_IS_FULL_RES) ||
                                    (kind == 2 && s->flags))
        REJECT(p, "SUBM", field + 10, "%s flags 0x%x", name, s->flags);
    if (full_res) {
        if (s->bits)
            REJECT(p, "SUBM", field + 8, "%s is full resolution: its bits must be 0, not 0x%x",
                   name, s->bits);
        if (u->bo_size_left / 16384 < tiles_w * d->f.max_y_tile + d->f.max_x_tile)
            REJECT(p, "SUBM", field, "%s: full-resolution tiles up to (%u, %u) do not fit in "
                   "the %u bytes of BO %u after the offset", name, d->f.max_x_tile,
                   d->f.max_y_tile, u->bo_size_left, s->hindex);
        return 0;
    }
    if (kind == 1) {
        /* Tile Rendering Mode Configuration's last u16: user space may set memory format
         * (7:6), format (3:2), MS 4x (0) and decimate 4x (4) */
        if (s->bits & ~0xddu)
            REJECT(p, "SUBM", field + 8, "%s bits 0x%x: only 0x00dd may be set", name, s->bits);
        uint32_t format = s->bits >> 2 & 3, tiling = s->bits >> 6 & 3;
        if (format == 3 || tiling == 3)
            REJECT(p, "SUBM", field + 8, "%s bits 0x%x: format %u / memory format %u", name,
                   s->bits, format, tiling);
        return check_size(p, name, field, u, tiling, format == 1 ? 4 : 2);   /* 1 rgba8888 */
    }
    /* Load/Store Tile Buffer General's first u16: tiling 5:4, buffer 2:0, format 9:8 */
    if (s->bits & ~0x337u)
        REJECT(p, "SUBM", field + 8, "%s bits 0x%x: only 0x0337 may be set", name, s->bits);
    uint32_t buffer = s->bits & 7, tiling = s->bits >> 4 & 3, format = s->bits >> 8 & 3, cpp;
    if (tiling == 3)
        REJECT(p, "SUBM", field + 8, "%s bits 0x%x: tiling 3", name, s->bits);
    if (buffer == 2) {
        if (format)
            REJECT(p, "SUBM", field + 8, "%s: a Z/stencil buffer must have format 0, not %u",
                   name, format);
        cpp = 4;
    } else if (buffer == 1) {
        if (format == 3)
            REJECT(p, "SUBM", field + 8, "%s: colour format 3", name);
        cpp = format ? 2 : 4;
    } else {
        REJECT(p, "SUBM", field + 8, "%s: buffer %u (colour 1 or Z/stencil 2)", name, buffer);
    }
    return check_size(p, name, field, u, tiling, cpp);
}

static uint32_t full_res_address(const struct prep *p, const struct surface_use *u, uint32_t x,
                                 uint32_t y)
{
    uint32_t tiles_w = (p->s->f.width + p->job->tile_width - 1) / p->job->tile_width;
    return u->address + 16384u * (tiles_w * y + x);
}

static int generate_rcl(struct prep *p, struct rcl *r)
{
    const struct vc4_submit_fields *f = &p->s->f;
    struct surface_use color_read, color_write, zs_read, zs_write, msaa_color, msaa_zs;
    p->job->tile_width = (f->color_write.hindex != VC4_NO_SURFACE && (f->color_write.bits & 1))
                         ? 32 : 64;
    if (surface(p, "color_read", 60, &f->color_read, &color_read, 0) < 0 ||
        surface(p, "color_write", 72, &f->color_write, &color_write, 1) < 0 ||
        surface(p, "zs_read", 84, &f->zs_read, &zs_read, 0) < 0 ||
        surface(p, "zs_write", 96, &f->zs_write, &zs_write, 0) < 0 ||
        surface(p, "msaa_color_write", 108, &f->msaa_color_write, &msaa_color, 2) < 0 ||
        surface(p, "msaa_zs_write", 120, &f->msaa_zs_write, &msaa_zs, 2) < 0)
        return -1;
    if (f->min_x_tile > f->max_x_tile || f->min_y_tile > f->max_y_tile)
        REJECT(p, "SUBM", 56, "tile range x %u..%u, y %u..%u is empty", f->min_x_tile,
               f->max_x_tile, f->min_y_tile, f->max_y_tile);
    bool has_bin = f->bin_cl_size != 0;
    if (has_bin && (f->max_x_tile > p->job->bin_tiles_x || f->max_y_tile > p->job->bin_tiles_y))
        REJECT(p, "SUBM", 58, "render tiles up to (%u, %u) beyond the %u x %u binned tiles",
               f->max_x_tile, f->max_y_tile, p->job->bin_tiles_x, p->job->bin_tiles_y);
    if (!color_write.present && !zs_write.present && !msaa_color.present && !msaa_zs.present)
        REJECT(p, "SUBM", 72, "no surface is written (color_write, zs_write, msaa_color_write, "
               "msaa_zs_write all absent)");
    p->job->color_write_address = color_write.present ? color_write.address : 0;
    /* prologue (§8.1) */
    put8(r, VC4_PACKET_TILE_RENDERING_MODE_CONFIGURATION);
    put32(r, color_write.present ? color_write.address : 0);
    put16(r, f->width);
    put16(r, f->height);
    put16(r, f->color_write.bits);
    if (f->flags & VC4_SUBMIT_USE_CLEAR_COLOR) {
        put8(r, VC4_PACKET_CLEAR_COLORS);
        put32(r, f->clear_color[0]);
        put32(r, f->clear_color[1]);
        put32(r, f->clear_z);
        put8(r, f->clear_s);
        put8(r, VC4_PACKET_TILE_COORDINATES);
        put8(r, 0);
        put8(r, 0);
        put8(r, VC4_PACKET_STORE_TILE_BUFFER_GENERAL);
        put16(r, 0);
        put32(r, 0);
    }
    /* tiles (§8.2) */
    bool fixed = f->flags & VC4_SUBMIT_FIXED_RCL_ORDER;
    bool x_up = !fixed || (f->flags & VC4_SUBMIT_RCL_ORDER_INCREASING_X);
    bool y_up = !fixed || (f->flags & VC4_SUBMIT_RCL_ORDER_INCREASING_Y);
    uint32_t nx = f->max_x_tile - f->min_x_tile + 1u, ny = f->max_y_tile - f->min_y_tile + 1u;
    for (uint32_t j = 0; j < ny; j++) {
        for (uint32_t i = 0; i < nx; i++) {
            uint32_t x = x_up ? f->min_x_tile + i : f->max_x_tile - i;
            uint32_t y = y_up ? f->min_y_tile + j : f->max_y_tile - j;
            bool first = i == 0 && j == 0, last = i == nx - 1 && j == ny - 1;
            if (color_read.present) {                                   /* a, a' */
                if (f->color_read.flags & VC4_SURFACE_READ_IS_FULL_RES) {
                    put8(r, VC4_PACKET_RE_LOAD_FULL_RESOLUTION_TILE_BUFFER);
                    put32(r, full_res_address(p, &color_read, x, y) | 2u);
                } else {
                    put8(r, VC4_PACKET_LOAD_TILE_BUFFER_GENERAL);
                    put16(r, f->color_read.bits);
                    put32(r, color_read.address);
                }
            }
            if (zs_read.present) {                                      /* b, b' */
                if (color_read.present) {
                    put8(r, VC4_PACKET_TILE_COORDINATES);
                    put8(r, x);
                    put8(r, y);
                    put8(r, VC4_PACKET_STORE_TILE_BUFFER_GENERAL);
                    put16(r, 0xe000);
                    put32(r, 0);
                }
                if (f->zs_read.flags & VC4_SURFACE_READ_IS_FULL_RES) {
                    put8(r, VC4_PACKET_RE_LOAD_FULL_RESOLUTION_TILE_BUFFER);
                    put32(r, full_res_address(p, &zs_read, x, y) | 1u);
                } else {
                    put8(r, VC4_PACKET_LOAD_TILE_BUFFER_GENERAL);
                    put16(r, f->zs_read.bits);
                    put32(r, zs_read.address);
                }
            }
            put8(r, VC4_PACKET_TILE_COORDINATES);                       /* c */
            put8(r, x);
            put8(r, y);
            if (first && has_bin)                                       /* d */
                put8(r, VC4_PACKET_WAIT_ON_SEMAPHORE);
            if (has_bin) {                                              /* e */
                put8(r, VC4_PACKET_BRANCH_TO_SUB_LIST);
                put32(r, p->job->tile_alloc_address + 32u * (y * p->job->bin_tiles_x + x));
            }
            bool stored = false;
            if (msaa_color.present) {                                   /* f */
                bool more = msaa_zs.present || zs_write.present || color_write.present;
                put8(r, VC4_PACKET_STORE_FULL_RESOLUTION_TILE_BUFFER);
                put32(r, full_res_address(p, &msaa_color, x, y) | 2u |
                         (more ? 4u : (last ? 8u : 0u)));
                stored = true;
            }
            if (msaa_zs.present) {                                      /* g */
                bool more = zs_write.present || color_write.present;
                if (stored) {
                    put8(r, VC4_PACKET_TILE_COORDINATES);
                    put8(r, x);
                    put8(r, y);
                }
                put8(r, VC4_PACKET_STORE_FULL_RESOLUTION_TILE_BUFFER);
                put32(r, full_res_address(p, &msaa_zs, x, y) | 1u |
                         (more ? 4u : (last ? 8u : 0u)));
                stored = true;
            }
            if (zs_write.present) {                                     /* h */
                if (stored) {
                    put8(r, VC4_PACKET_TILE_COORDINATES);
                    put8(r, x);
                    put8(r, y);
                }
                put8(r, VC4_PACKET_STORE_TILE_BUFFER_GENERAL);
                put16(r, f->zs_write.bits | (color_write.present ? 0x2000u : 0u));
                put32(r, zs_write.address | (last && !color_write.present ? 8u : 0u));
                stored = true;
            }
            if (color_write.present) {                                  /* i */
                if (stored) {
                    put8(r, VC4_PACKET_TILE_COORDINATES);
                    put8(r, x);
                    put8(r, y);
                }
                put8(r, last ? VC4_PACKET_STORE_MULTI_SAMPLE_RESOLVED_TILE_COLOR_BUFFER_AND_EOF
                             : VC4_PACKET_STORE_MULTI_SAMPLE_RESOLVED_TILE_COLOR_BUFFER);
            }
        }
    }
    return 0;
}

/* ---- placement and the whole submit ----------------------------------------------------- */

static struct vc4_region *add_region(struct vc4_job *job, uint32_t address, uint32_t size,
                                     const char *what)
{
    job->region = gt_xrealloc(job->region, (job->regions + 1) * sizeof *job->region);
    struct vc4_region *r = &job->region[job->regions++];
    *r = (struct vc4_region){ address, size, gt_xcalloc(1, size ? size : 1), what, 0 };
    return r;
}

void vc4_job_free(struct vc4_job *job)
{
    for (uint32_t i = 0; i < job->regions; i++)
        free(job->region[i].data);
    free(job->region);
    free(job->bo_address);
    memset(job, 0, sizeof *job);
}

void vc4_placement_free(struct vc4_placement *p)
{
    free(p->handle);
    free(p->address);
    free(p->size);
    free(p->data);
    memset(p, 0, sizeof *p);
}

static int place(struct vc4_placement *pl, uint32_t size, uint32_t *address, struct gt_error *err)
{
    uint64_t end = (uint64_t)round_up(pl->next_address, PAGE) + size;
    if (end > 0x20000000u)     /* 512 MiB of memory (configs/vc4-bcm2835.cfg) */
        return gt_error_set(err, "the submits need more than 512 MiB of memory");
    *address = round_up(pl->next_address, PAGE);
    pl->next_address = (uint32_t)end;
    return 0;
}

int vc4_submit_prepare(const struct vc4_dump *d, uint32_t submit, struct vc4_placement *pl,
                       struct vc4_job *job, struct gt_error *err)
{
    memset(job, 0, sizeof *job);
    if (submit >= d->count)
        return gt_error_set(err, "no submit %u (the dump has %u)", submit, d->count);
    const struct vc4_dump_submit *s = &d->submit[submit];
    struct prep p = { s, job, err, NULL, NULL, 0 };
    if (!pl->next_address)
        pl->next_address = 0x00100000u;
    job->bo_count = s->f.bo_handle_count;
    job->bo_address = gt_xcalloc(job->bo_count + 1, sizeof *job->bo_address);
    /* 1. BOs: a handle keeps its address; its bytes go again only when they changed */
    for (uint32_t i = 0; i < s->f.bo_handle_count; i++) {
        const struct vc4_dump_bo *bo = &s->bo[i];
        uint32_t k;
        for (k = 0; k < pl->count && pl->handle[k] != bo->handle; k++)
            ;
        bool write = true;
        if (k < pl->count) {
            if (pl->size[k] < bo->size) {
                vc4_job_free(job);
                return gt_error_set(err, "submit %u: BO %u (handle %u) is %u bytes, larger than "
                                    "the %u it had in an earlier submit", s->index, i,
                                    bo->handle, bo->size, pl->size[k]);
            }
            write = memcmp(pl->data[k], bo->data, bo->size) != 0;
        } else {
            if (pl->count == pl->capacity) {
                pl->capacity = pl->capacity ? 2 * pl->capacity : 16;
                pl->handle = gt_xrealloc(pl->handle, pl->capacity * sizeof *pl->handle);
                pl->address = gt_xrealloc(pl->address, pl->capacity * sizeof *pl->address);
                pl->size = gt_xrealloc(pl->size, pl->capacity * sizeof *pl->size);
                pl->data = gt_xrealloc(pl->data, pl->capacity * sizeof *pl->data);
            }
            if (place(pl, bo->size, &pl->address[pl->count], err) < 0) {
                vc4_job_free(job);
                return -1;
            }
            pl->handle[pl->count] = bo->handle;
            pl->size[pl->count] = bo->size;
            k = pl->count++;
        }
        pl->data[k] = bo->data;
        job->bo_address[i] = pl->address[k];
        if (write) {
            struct vc4_region *r = add_region(job, pl->address[k], bo->size, "bo");
            memcpy(r->data, bo->data, bo->size);
            r->bo_index = i;
        }
    }
    /* 2. exec buffer (§7) */
    uint64_t exec_size = (uint64_t)round_up(s->f.bin_cl_size, 16) + s->f.shader_rec_size +
                         s->f.uniforms_size;
    if (exec_size > 64u << 20) {
        vc4_job_free(job);
        return gt_error_set(err, "submit %u: SUBM byte 32: control list, records and uniforms "
                            "of %llu bytes", s->index, (unsigned long long)exec_size);
    }
    job->exec_size = (uint32_t)exec_size;
    job->has_bin = s->f.bin_cl_size != 0;
    int rc = 0;
    struct rcl r = { 0 };
    uint32_t exec_index = 0;
    if (job->has_bin) {
        if (place(pl, job->exec_size, &job->exec_address, err) < 0) {
            vc4_job_free(job);
            return -1;
        }
        exec_index = job->regions;
        add_region(job, job->exec_address, job->exec_size, "exec");
        p.exec = job->region[exec_index].data;
        p.rec = gt_xcalloc(s->f.shader_rec_count + 1, sizeof *p.rec);
        rc = validate_bcl(&p);
        if (rc == 0)
            rc = validate_records(&p);
        if (rc == 0) {
            uint32_t tile_address;
            rc = place(pl, job->tile_size, &tile_address, err);
            /* the tile buffer was laid out right after the exec buffer's page */
            if (rc == 0 && tile_address != job->tile_address)
                rc = gt_error_set(err, "submit %u: internal: tile buffer placement", s->index);
            if (rc == 0)
                add_region(job, job->tile_address, job->tile_size, "tile");
        }
        free(p.rec);
        job->ct0ca = job->exec_address;
        job->ct0ea = job->exec_address + job->bin_length;
    } else if (s->f.shader_rec_count) {
        rc = gt_error_set(err, "submit %u: SUBM byte 40: %u shader records without a binning "
                          "list", s->index, s->f.shader_rec_count);
    }
    if (rc == 0)
        rc = generate_rcl(&p, &r);
    if (rc == 0)
        rc = place(pl, r.n, &job->rcl_address, err);
    if (rc < 0) {
        free(r.b);
        vc4_job_free(job);
        return -1;
    }
    struct vc4_region *rr = add_region(job, job->rcl_address, r.n, "rcl");
    memcpy(rr->data, r.b, r.n);
    free(r.b);
    job->rcl = rr->data;
    job->rcl_size = r.n;
    job->ct1ca = job->rcl_address;
    job->ct1ea = job->rcl_address + r.n;
    return 0;
}
