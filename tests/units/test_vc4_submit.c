/* tests/units/test_vc4_submit.c - reading vc4 submit dumps and doing what the kernel does with
 * them (units/vc4_host/vc4_submit.h). The captures are copies of
 * ../shared/traces/vc4/vc4_tri.vc4dump.gz and ../shared/traces/ext/vc4/vc4_strip_fan.vc4dump.gz
 * in tests/data/vc4/. Expected values come from ../shared/notes/vc4-submit.md (the kernel's
 * rules, and its worked example for vc4_tri in §10) and are computed here from the submit
 * fields, not taken from the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <zlib.h>

#include "tests/test.h"
#include "units/vc4_host/vc4_submit.h"

#define TRI "tests/data/vc4/vc4_tri.vc4dump.gz"
#define STRIP_FAN "tests/data/vc4/vc4_strip_fan.vc4dump.gz"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

/* the decompressed file */
static uint8_t *inflate_file(const char *path, size_t *size)
{
    gzFile f = gzopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t cap = 1 << 24;
    uint8_t *b = malloc(cap);
    int n = gzread(f, b, (unsigned)cap);
    gzclose(f);
    CU_ASSERT_TRUE_FATAL(n > 0);
    *size = (size_t)n;
    return b;
}

static const struct vc4_region *region(const struct vc4_job *job, const char *what)
{
    for (uint32_t i = 0; i < job->regions; i++)
        if (!strcmp(job->region[i].what, what))
            return &job->region[i];
    return NULL;
}

static void test_tri_loads_and_relocates(void)
{
    struct vc4_dump d;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_dump_read(TRI, &d, &err), 0);
    CU_ASSERT_EQUAL_FATAL(d.count, 1u);
    const struct vc4_dump_submit *s = &d.submit[0];
    /* vc4-submit.md §2 table, vc4_tri column */
    CU_ASSERT_EQUAL(s->f.bin_cl_size, 107u);
    CU_ASSERT_EQUAL(s->f.shader_rec_size, 144u);
    CU_ASSERT_EQUAL(s->f.shader_rec_count, 2u);
    CU_ASSERT_EQUAL(s->f.uniforms_size, 64u);
    CU_ASSERT_EQUAL(s->f.bo_handle_count, 6u);
    CU_ASSERT_EQUAL(s->f.width, 64);
    CU_ASSERT_EQUAL(s->f.color_write.hindex, 5u);
    CU_ASSERT_EQUAL(s->f.color_write.bits, 0x44);
    CU_ASSERT_EQUAL(s->f.clear_color[0], 0xff400000u);
    CU_ASSERT_EQUAL(s->f.flags, 1u);
    static const uint32_t handles[6] = { 5, 6, 7, 4, 9, 1 };
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(s->handles[i], handles[i]);
    CU_ASSERT_EQUAL(s->bo[5].size, 16384u);
    CU_ASSERT_EQUAL(s->bo[0].flags & 1, 1u);

    struct vc4_placement pl = { 0 };
    struct vc4_job job;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_prepare(&d, 0, &pl, &job, &err), 0);
    const uint32_t E = job.exec_address, T = job.tile_address;
    /* §10.3: exec buffer 320 bytes; tile buffer 1,052,928 bytes, allocation at T + 0x1000 */
    CU_ASSERT_EQUAL(job.exec_size, 320u);
    CU_ASSERT_EQUAL(job.tile_size, 1052928u);
    CU_ASSERT_EQUAL(job.tile_alloc_address, T + 0x1000);
    CU_ASSERT_EQUAL(job.tile_alloc_size, 0x00100100u);
    CU_ASSERT_EQUAL(job.ct0ca, E);
    CU_ASSERT_EQUAL(job.ct0ea, E + 107);
    CU_ASSERT_EQUAL(job.bin_tiles_x, 1);
    CU_ASSERT_EQUAL(job.bin_tiles_y, 1);
    /* every BO is page aligned and distinct */
    for (uint32_t i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(job.bo_address[i] % 4096, 0u);
        for (uint32_t k = 0; k < i; k++)
            CU_ASSERT_NOT_EQUAL(job.bo_address[i], job.bo_address[k]);
    }
    const struct vc4_region *exec = region(&job, "exec");
    CU_ASSERT_PTR_NOT_NULL_FATAL(exec);
    CU_ASSERT_EQUAL(exec->address, E);
    /* validated BCL = user BCL except packet 112 and the two 64s (§10.3) */
    uint8_t want[107];
    memcpy(want, s->bcl, 107);
    wr32(want + 1, T + 0x1000);
    wr32(want + 5, 0x00100100);
    wr32(want + 9, T);
    want[15] = 0x44;
    wr32(want + 0x4c, (E + 0x70) | 2);
    wr32(want + 0x5b, (E + 0xb0) | 2);
    CU_ASSERT_EQUAL(memcmp(exec->data, want, 107), 0);
    /* records at E+0x70 and E+0xB0 (§10.3) */
    const uint8_t *r0 = exec->data + 0x70, *r1 = exec->data + 0xb0;
    const uint32_t *A = job.bo_address;
    CU_ASSERT_EQUAL(rd32(r0 + 4), A[0]);
    CU_ASSERT_EQUAL(rd32(r0 + 8), E + 0x100);
    CU_ASSERT_EQUAL(rd32(r0 + 16), A[1]);
    CU_ASSERT_EQUAL(rd32(r0 + 20), E + 0x100);
    CU_ASSERT_EQUAL(rd32(r0 + 28), A[2]);
    CU_ASSERT_EQUAL(rd32(r0 + 32), E + 0x110);
    CU_ASSERT_EQUAL(rd32(r0 + 36), A[3] + 0x10);
    CU_ASSERT_EQUAL(rd32(r0 + 44), A[3]);
    CU_ASSERT_EQUAL(rd32(r1 + 8), E + 0x120);
    CU_ASSERT_EQUAL(rd32(r1 + 32), E + 0x130);
    CU_ASSERT_EQUAL(rd32(r1 + 36), A[4]);
    CU_ASSERT_EQUAL(rd32(r1 + 44), A[4] + 0x10);
    /* the rest of each record is the user's (flags 0x0005 etc.) */
    CU_ASSERT_EQUAL(r0[0], 0x05);
    CU_ASSERT_EQUAL(memcmp(r0 + 12, s->shader_rec + 20 + 12, 4), 0);
    /* uniforms: 512.0, 512.0, 0.5, 0.5 per block (§10.2) */
    for (int i = 0; i < 16; i++) {
        static const uint32_t values[4] = { 0x44000000, 0x44000000, 0x3f000000, 0x3f000000 };
        CU_ASSERT_EQUAL(rd32(exec->data + 0x100 + 4 * i), values[i % 4]);
    }
    /* the BOs' bytes are placed as dumped */
    for (uint32_t i = 0; i < job.regions; i++)
        if (!strcmp(job.region[i].what, "bo")) {
            uint32_t b = job.region[i].bo_index;
            CU_ASSERT_EQUAL(job.region[i].address, A[b]);
            CU_ASSERT_EQUAL(memcmp(job.region[i].data, s->bo[b].data, s->bo[b].size), 0);
        }
    vc4_job_free(&job);
    vc4_placement_free(&pl);
    vc4_dump_free(&d);
}

/* The RCL of §8 for a submit with only a colour write, written from the note's tables. */
static size_t expected_rcl(const struct vc4_submit_fields *f, uint32_t color_address,
                           uint32_t tile_alloc, uint32_t bin_tiles_x, uint8_t *b)
{
    size_t n = 0;
#define B(v) (b[n++] = (uint8_t)(v))
#define W16(v) (B(v), B((v) >> 8))
#define W32(v) (W16(v), W16((v) >> 16))
    B(113); W32(color_address); W16(f->width); W16(f->height); W16(f->color_write.bits);
    if (f->flags & 1) {
        B(114); W32(f->clear_color[0]); W32(f->clear_color[1]); W32(f->clear_z); B(f->clear_s);
        B(115); B(0); B(0);
        B(28); W16(0); W32(0);
    }
    for (unsigned y = f->min_y_tile; y <= f->max_y_tile; y++)
        for (unsigned x = f->min_x_tile; x <= f->max_x_tile; x++) {
            bool first = x == f->min_x_tile && y == f->min_y_tile;
            bool last = x == f->max_x_tile && y == f->max_y_tile;
            B(115); B(x); B(y);
            if (first)
                B(8);
            B(17); W32(tile_alloc + 32 * (y * bin_tiles_x + x));
            B(last ? 25 : 24);
        }
#undef B
#undef W16
#undef W32
    return n;
}

static void test_rcl_as_the_kernel_generates_it(void)
{
    const char *files[2] = { TRI, STRIP_FAN };
    for (int k = 0; k < 2; k++) {
        struct vc4_dump d;
        struct gt_error err;
        CU_ASSERT_EQUAL_FATAL(vc4_dump_read(files[k], &d, &err), 0);
        struct vc4_placement pl = { 0 };
        struct vc4_job job;
        CU_ASSERT_EQUAL_FATAL(vc4_submit_prepare(&d, 0, &pl, &job, &err), 0);
        const struct vc4_submit_fields *f = &d.submit[0].f;
        uint32_t color = job.bo_address[f->color_write.hindex] + f->color_write.offset;
        uint8_t want[512];
        size_t n = expected_rcl(f, color, job.tile_alloc_address, job.bin_tiles_x, want);
        /* the length formula of §8.2: 11 + 24 (clear) + 1 (wait) + tiles x (3 + 5 + 1) */
        uint32_t tiles = (f->max_x_tile - f->min_x_tile + 1u) * (f->max_y_tile - f->min_y_tile + 1u);
        CU_ASSERT_EQUAL(n, 11 + ((f->flags & 1) ? 24 : 0) + 1 + tiles * (3 + 5 + 1));
        CU_ASSERT_EQUAL(job.rcl_size, n);
        CU_ASSERT_EQUAL(job.ct1ea - job.ct1ca, n);
        CU_ASSERT_EQUAL(memcmp(job.rcl, want, n), 0);
        if (k == 0) {
            /* §10.3's 45 bytes */
            CU_ASSERT_EQUAL(n, 45u);
            static const uint8_t clear[14] = { 0x72, 0x00, 0x00, 0x40, 0xff, 0x00, 0x00, 0x40,
                                               0xff, 0, 0, 0, 0, 0 };
            CU_ASSERT_EQUAL(memcmp(job.rcl + 0x0b, clear, 14), 0);
            CU_ASSERT_EQUAL(job.rcl[0x26], 0x08);
            CU_ASSERT_EQUAL(rd32(job.rcl + 0x28), job.tile_address + 0x1000);
            CU_ASSERT_EQUAL(job.rcl[0x2c], 0x19);
        }
        vc4_job_free(&job);
        vc4_placement_free(&pl);
        vc4_dump_free(&d);
    }
}

static void test_more_tiles_and_surfaces(void)
{
    /* vc4_tri with a 2 x 2 tile range (bin config patched to 2 x 2 tiles) and a Z/S write:
     * the per-tile order and stores of §8.2 steps c-e, h, i */
    size_t size;
    uint8_t *b = inflate_file(TRI, &size);
    /* SUBM payload starts 16 (file header) + 8 (record header) + 4 (submit index) */
    uint8_t *sub = b + 28;
    sub[58] = 1;   /* max_x_tile */
    sub[59] = 1;   /* max_y_tile */
    sub[52] = 128; /* width */
    sub[54] = 128;
    /* zs_write into BO 3 (1 MiB), raster Z/S: buffer 2 */
    wr32(sub + 96, 3);
    wr32(sub + 100, 0x40000);
    sub[104] = 0x02;
    sub[105] = 0;
    /* colour write 128 x 128 needs 64 KiB but BO 5 has 16 KiB: move it to BO 3 too */
    wr32(sub + 72, 3);
    wr32(sub + 76, 0);
    /* bin config tiles 2 x 2: the BCL record follows SUBM (8 + 180 bytes) */
    uint8_t *bcl = b + 16 + 8 + 180 + 8;
    CU_ASSERT_EQUAL_FATAL(bcl[0], 0x70);
    bcl[13] = 2;
    bcl[14] = 2;
    struct vc4_dump d;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_dump_parse(b, size, "patched", &d, &err), 0);
    struct vc4_placement pl = { 0 };
    struct vc4_job job;
    int rc = vc4_submit_prepare(&d, 0, &pl, &job, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    uint32_t zs = job.bo_address[3] + 0x40000;
    uint8_t want[512];
    size_t n = 0;
    const uint8_t *head = job.rcl;
    CU_ASSERT_EQUAL(head[0], 113);
    n = 11 + 24;
    /* tiles (0,0) (1,0) (0,1) (1,1) */
    static const uint8_t order[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
    size_t w = 0;
    for (int t = 0; t < 4; t++) {
        uint8_t x = order[t][0], y = order[t][1];
        want[w++] = 115; want[w++] = x; want[w++] = y;
        if (t == 0)
            want[w++] = 8;
        want[w++] = 17;
        wr32(want + w, job.tile_alloc_address + 32u * (y * 2u + x));
        w += 4;
        want[w++] = 28;                        /* h: zs_write, colour clear disabled */
        want[w++] = 0x02;
        want[w++] = 0x20;
        wr32(want + w, zs);                    /* EOF only with no colour write */
        w += 4;
        want[w++] = 115; want[w++] = x; want[w++] = y;   /* i after h */
        want[w++] = t == 3 ? 25 : 24;
    }
    CU_ASSERT_EQUAL(job.rcl_size, n + w);
    CU_ASSERT_EQUAL(memcmp(job.rcl + n, want, w), 0);
    /* the length formula: 11 + 24 + 1 + 4 x (3 + 5 + 7 + 1 + 3 x (2 - 1)) */
    CU_ASSERT_EQUAL(job.rcl_size, 11u + 24 + 1 + 4 * (3 + 5 + 7 + 1 + 3));
    vc4_job_free(&job);
    vc4_placement_free(&pl);
    vc4_dump_free(&d);
}

static void test_shader_scan_counts_uniforms(void)
{
    /* §10.2: FS 0 uniforms, VS 4, CS 4, no textures; the FS is single-threaded */
    struct vc4_dump d;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_dump_read(TRI, &d, &err), 0);
    static const uint32_t uniforms[3] = { 0, 4, 4 };
    for (int i = 0; i < 3; i++) {
        struct vc4_shader_scan scan;
        CU_ASSERT_EQUAL_FATAL(vc4_shader_scan(d.submit[0].bo[i].data, d.submit[0].bo[i].size,
                                              &scan, &err), 0);
        CU_ASSERT_EQUAL(scan.uniforms, uniforms[i]);
        CU_ASSERT_EQUAL(scan.samples, 0u);
        CU_ASSERT_FALSE(scan.threaded);
    }
    /* a program without an end, and one with an absolute branch, are refused */
    uint8_t code[64] = { 0 };
    for (int i = 0; i < 8; i++)
        wr32(code + 8 * i + 4, 0x10000000u);          /* signal 1: no signal */
    struct vc4_shader_scan scan;
    CU_ASSERT_EQUAL(vc4_shader_scan(code, sizeof code, &scan, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no program end"));
    wr32(code + 4, 0xf0000000u);                      /* branch, bit 51 (relative) clear */
    CU_ASSERT_EQUAL(vc4_shader_scan(code, sizeof code, &scan, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "absolute"));
    /* a texture sample: writes of TMU0_T (57) then TMU0_S (56) pop two configuration
     * uniforms; a uniform read elsewhere adds one; program end + two delay slots */
    memset(code, 0, sizeof code);
    wr32(code + 4, 0x10000000u | 57u << 6 | 39u);      /* add waddr 57, mul waddr nop */
    wr32(code + 12, 0x10000000u | 56u << 6 | 39u);
    wr32(code + 16, 32u << 18);                       /* raddr_a = uniform */
    wr32(code + 20, 0x10000000u | 39u << 6 | 39u);
    wr32(code + 28, 0x30000000u | 39u << 6 | 39u);    /* program end */
    wr32(code + 36, 0x10000000u | 39u << 6 | 39u);
    wr32(code + 44, 0x10000000u | 39u << 6 | 39u);
    CU_ASSERT_EQUAL_FATAL(vc4_shader_scan(code, 48, &scan, &err), 0);
    CU_ASSERT_EQUAL(scan.samples, 1u);
    CU_ASSERT_EQUAL(scan.uniforms, 3u);
    CU_ASSERT_EQUAL(scan.sample_p0[0], 0u);
    vc4_dump_free(&d);
}

/* parses a modified copy and returns the message (empty when it was accepted) */
static int try_bytes(const uint8_t *b, size_t size, bool prepare, char *message, size_t cap)
{
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, b, size);
    struct vc4_dump d;
    struct gt_error err;
    message[0] = 0;
    if (vc4_dump_parse(copy, size, "bad", &d, &err) < 0) {
        free(copy);
        snprintf(message, cap, "%s", err.message);
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; prepare && i < d.count && rc == 0; i++) {
        struct vc4_placement pl = { 0 };
        struct vc4_job job;
        rc = vc4_submit_prepare(&d, i, &pl, &job, &err);
        if (rc == 0)
            vc4_job_free(&job);
        else
            snprintf(message, cap, "%s", err.message);
        vc4_placement_free(&pl);
    }
    vc4_dump_free(&d);
    return rc;
}

static void expect_refusal(const uint8_t *b, size_t size, const char *needle1, const char *needle2)
{
    char msg[512];
    CU_ASSERT_EQUAL(try_bytes(b, size, true, msg, sizeof msg), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, needle1));
    if (needle2)
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, needle2));
    if (!strstr(msg, needle1) || (needle2 && !strstr(msg, needle2)))
        fprintf(stderr, "message was: %s\n", msg);
}

static void test_malformed_dumps(void)
{
    size_t size;
    uint8_t *b = inflate_file(TRI, &size);
    char msg[512];
    CU_ASSERT_EQUAL(try_bytes(b, size, true, msg, sizeof msg), 0);
    /* every truncation is refused with a message, never a crash: each cut in the headers,
     * records and code at the start, then every 997th byte through the BO data */
    for (size_t cut = 0; cut < size; cut += cut < 4096 ? 1 : 997) {
        CU_ASSERT_EQUAL(try_bytes(b, cut, true, msg, sizeof msg), -1);
        CU_ASSERT_TRUE(msg[0] != 0);
    }
    CU_ASSERT_EQUAL(try_bytes(b, size - 3, true, msg, sizeof msg), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "ENDS"));
    uint8_t *m = malloc(size);
    uint8_t *sub = m + 28;
    size_t bcl_at = 16 + 8 + 180;             /* the BCL record's header */
    size_t srec_at = bcl_at + 8 + 107;
    size_t unif_at = srec_at + 8 + 144;
    /* bad counts: a bin_cl_size that does not match the BCL record */
    memcpy(m, b, size);
    wr32(sub + 32, 108);
    expect_refusal(m, size, "BCL ", "byte 0xcc");
    /* a record length past the end of the file */
    memcpy(m, b, size);
    wr32(m + unif_at + 4, 0x7fffffff);
    expect_refusal(m, size, "UNIF", "run past the end");
    /* a huge handle count */
    memcpy(m, b, size);
    wr32(sub + 48, 0xffffffff);
    expect_refusal(m, size, "SUBM", "bo_handle_count");
    /* bad handles: a shader record naming BO 9 of 6 */
    memcpy(m, b, size);
    wr32(m + srec_at + 8 + 12, 9);
    expect_refusal(m, size, "SREC byte 0xc", "names BO 9");
    /* colour write naming BO 6 of 6 */
    memcpy(m, b, size);
    wr32(sub + 72, 6);
    expect_refusal(m, size, "SUBM byte 0x48", "names BO 6");
    /* a shader BO used as attributes */
    memcpy(m, b, size);
    wr32(m + srec_at + 8 + 12, 0);
    expect_refusal(m, size, "SREC", "shader BO used for attributes");
    /* a packet the binner list may not hold (113 at byte 0x11) */
    memcpy(m, b, size);
    m[bcl_at + 8 + 0x11] = 113;
    expect_refusal(m, size, "BCL byte 0x11", "not accepted");
    /* Flush not last: NOP over the final Flush, Flush over Increment Semaphore */
    memcpy(m, b, size);
    m[bcl_at + 8 + 105] = 4;
    m[bcl_at + 8 + 106] = 1;
    expect_refusal(m, size, "BCL byte 0x69", "last byte");
    /* packet 64 with address bits set by user space */
    memcpy(m, b, size);
    m[bcl_at + 8 + 0x4c] = 0x12;
    expect_refusal(m, size, "BCL byte 0x4c", "GL Shader State");
    /* a vertex beyond the attribute BO: 1000 vertices at stride 32 in a 4 KiB BO (record 1) */
    memcpy(m, b, size);
    wr32(m + bcl_at + 8 + 0x5f + 2, 1000);
    expect_refusal(m, size, "SREC", "runs past BO 4");
    /* too few uniforms: the stream is 60 bytes where the shaders read 64 */
    memcpy(m, b, size);
    wr32(sub + 44, 60);
    wr32(m + unif_at + 4, 60);
    memmove(m + unif_at + 8 + 60, m + unif_at + 8 + 64, size - (unif_at + 8 + 64));
    expect_refusal(m, size - 4, "UNIF", "bytes left");
    /* a tile range beyond the binned tiles */
    memcpy(m, b, size);
    sub[58] = 2;
    expect_refusal(m, size, "SUBM byte 0x3a", "beyond");
    /* a colour surface too small for its size: 64 x 65 T-format needs 4 more tile rows */
    memcpy(m, b, size);
    sub[54] = 65;
    expect_refusal(m, size, "SUBM byte 0x48", "needs");
    /* an unknown record tag */
    memcpy(m, b, size);
    memcpy(m + unif_at, "UNIX", 4);
    expect_refusal(m, size, "unknown record", "UNIX");
    /* a bad header */
    memcpy(m, b, size);
    m[0] = 'X';
    expect_refusal(m, size, "VC4DUMP1", NULL);
    /* random byte flips anywhere: an answer, never a crash */
    unsigned seed = 12345;
    for (int i = 0; i < 1000; i++) {
        memcpy(m, b, size);
        for (int k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            /* mostly in the first 4 KiB, where the structure is */
            size_t at = (seed >> 8) % (k == 2 ? size : 4096);
            m[at] ^= (uint8_t)(1u << ((seed >> 4) & 7));
        }
        try_bytes(m, size, true, msg, sizeof msg);
    }
    free(m);
    free(b);
}

static void slurp(const char *path, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
}

static double csv_value(const char *csv, const char *path)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,", path);
    const char *p = strstr(csv, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

static void test_gtsim_run_chooses_the_vc4_config(void)
{
    const char *dir = test_temp_dir();
    char cmd[2048], path[512];
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/out %s >%s/stdout 2>%s/stderr </dev/null",
             test_gtsim_binary(), dir, TRI, dir, dir);
    int s = system(cmd);
    CU_ASSERT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    static char text[1 << 20];
    snprintf(path, sizeof path, "%s/out/config.cfg", dir);
    slurp(path, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "vc4_host"));
    snprintf(path, sizeof path, "%s/out/stats.csv", dir);
    slurp(path, text, sizeof text);
    CU_ASSERT_EQUAL(csv_value(text, "host.submits"), 1);
    CU_ASSERT_EQUAL(csv_value(text, "host.bin_list_bytes"), 107);
    CU_ASSERT_EQUAL(csv_value(text, "host.render_list_bytes"), 45);
    CU_ASSERT_EQUAL(csv_value(text, "host.shader_records"), 2);
    /* the control list threads ran both lists (vc4-submit.md §9: one flush, one frame) */
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.bin_records"), 18);
    /* the RCL's 8 records and the tile list the PTB wrote: per draw the 7 state records, 56
     * and 64, then one Compressed Primitive List (48); a Branch (16) out of the 32-byte
     * initial block and the closing Return from sub-list (18): 8 + 2 x 10 + 2 = 30 */
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.render_records"), 30);
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.bfc"), 1);
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.rfc"), 1);
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.invalid_records"), 0);
    CU_ASSERT_EQUAL(csv_value(text, "gpu.v3d.unknown_registers"), 0);
    CU_ASSERT_EQUAL(csv_value(text, "host.waits"), 1);
    /* a refused dump is a clear error and exit status 1-ish, not a crash */
    size_t size;
    uint8_t *b = inflate_file(TRI, &size);
    b[16 + 8 + 180 + 8 + 0x11] = 113;
    snprintf(path, sizeof path, "%s/bad.vc4dump", dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(b, 1, size, f);
    fclose(f);
    free(b);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/out2 %s >%s/stdout 2>%s/stderr </dev/null",
             test_gtsim_binary(), dir, path, dir, dir);
    s = system(cmd);
    CU_ASSERT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) != 0 && WEXITSTATUS(s) < 128);
    snprintf(path, sizeof path, "%s/stderr", dir);
    slurp(path, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "BCL byte 0x11"));
}

static const struct test_case cases[] = {
    { "vc4_tri loads, validates and relocates as vc4-submit.md 10.3", test_tri_loads_and_relocates },
    { "render control list as the kernel generates it", test_rcl_as_the_kernel_generates_it },
    { "2 x 2 tiles with a Z/S and a colour write", test_more_tiles_and_surfaces },
    { "shader code scan counts uniforms and samples", test_shader_scan_counts_uniforms },
    { "malformed dumps give clear errors", test_malformed_dumps },
    { "gtsim run picks the VideoCore IV config for a dump", test_gtsim_run_chooses_the_vc4_config },
    { 0 }
};
TEST_SUITE(vc4_submit, cases);
