/* rtl-cosim/math_aub.c - see math_aub.h. */
#include "rtl-cosim/math_aub.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/aub.h"

/* ALU instruction dword (seed 003 L1467-1475): opcode 31:20, operand 1 19:10,
 * operand 2 9:0. Opcodes L1449-1462, registers L1492-1524. */
#define I(op, a, b) ((uint32_t)(op) << 20 | (uint32_t)(a) << 10 | (uint32_t)(b))
enum { NOOP = 0x000, LOAD = 0x080, LOADINV = 0x480, LOAD0 = 0x081, LOAD1 = 0x481, ADD = 0x100,
       SUB = 0x101, AND = 0x102, OR = 0x103, XOR = 0x104, STORE = 0x180, STOREINV = 0x580 };
enum { SRCA = 0x20, SRCB = 0x21, ACCU = 0x31, ZF = 0x32, CF = 0x33 };

const uint64_t math_aub_initial_gprs[16] = {
    0xFFFFFFFFFFFFFFFFull, 0x0000000000000001ull, 0x8000000000000000ull, 0x123456789ABCDEF0ull,
    0x0F0F0F0F0F0F0F0Full, 0x0000000000000000ull, 0x00000000FFFFFFFFull, 0x7FFFFFFFFFFFFFFFull,
    0xDEADBEEFCAFEF00Dull, 0x0000000100000000ull, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull,
    0x0000000000000040ull, 0xFFFFFFFF00000000ull, 0x0123456789ABCDEFull, 0x8000000000000001ull,
};

const struct math_aub_program math_aub_programs[MATH_AUB_PROGRAMS] = {
    /* 0: ADD with carry out and a zero result: ~0 + 1 */
    { 6, { I(LOAD, SRCA, 0), I(LOAD, SRCB, 1), I(ADD, 0, 0), I(STORE, 5, ACCU),
           I(STORE, 6, CF), I(STORE, 13, ZF) } },
    /* 1: SUB with a borrow: 1 - ~0 (LOADINV of R5 = 0), flags stored inverted */
    { 7, { I(LOAD, SRCA, 1), I(LOADINV, SRCB, 5), I(SUB, 0, 0), I(STORE, 7, ACCU),
           I(STOREINV, 8, CF), I(STOREINV, 9, ZF), I(STOREINV, 10, ACCU) } },
    /* 2: the logic operations on the same inputs, NOOPs between */
    { 12, { I(LOAD, SRCA, 3), I(LOAD, SRCB, 4), I(AND, 0, 0), I(STORE, 11, ACCU), I(NOOP, 0, 0),
            I(OR, 0, 0), I(STORE, 12, ACCU), I(XOR, 0, 0), I(STORE, 14, ACCU),
            I(STORE, 15, CF), I(STORE, 0, ZF), I(NOOP, 0, 0) } },
    /* 3: LOAD1 / LOAD0: ~0 - 0, ~0 + ~0 (carry), 0 - ~0 */
    { 12, { I(LOAD1, SRCA, 0), I(LOAD0, SRCB, 0), I(SUB, 0, 0), I(STORE, 1, ACCU),
            I(STORE, 2, CF), I(LOAD1, SRCB, 0), I(ADD, 0, 0), I(STORE, 3, ACCU),
            I(STORE, 4, CF), I(LOAD0, SRCA, 0), I(SUB, 0, 0), I(STORE, 5, CF) } },
    /* 4: equal operands: SUB gives zero, ZF set, no borrow; XOR also zero; then
     * R12..R14 (results of earlier programs) as sources */
    { 15, { I(LOAD, SRCA, 8), I(LOAD, SRCB, 8), I(SUB, 0, 0), I(STORE, 6, ZF),
            I(STORE, 7, CF), I(XOR, 0, 0), I(STOREINV, 8, ZF), I(LOADINV, SRCA, 8),
            I(STORE, 9, ACCU), I(LOAD, SRCA, 12), I(LOADINV, SRCB, 13), I(ADD, 0, 0),
            I(STORE, 4, ACCU), I(LOAD, SRCB, 14), I(SUB, 0, 0) } },
    /* 5: the sign boundary: 0x7fff.. + 1, 0x8000.. - 1, 0x8000.. + 0x8000..1 */
    { 12, { I(LOAD, SRCA, 7), I(LOAD, SRCB, 1), I(ADD, 0, 0), I(STORE, 10, ACCU),
            I(LOAD, SRCA, 2), I(SUB, 0, 0), I(STORE, 11, ACCU), I(STORE, 12, CF),
            I(LOAD, SRCB, 15), I(ADD, 0, 0), I(STORE, 13, ACCU), I(STORE, 14, CF) } },
    /* 6: every GPR as a LOAD source and STORE destination, chained adds */
    { 24, { I(LOAD, SRCA, 0), I(LOAD, SRCB, 1), I(ADD, 0, 0), I(STORE, 15, ACCU),
            I(LOAD, SRCA, 2), I(LOAD, SRCB, 3), I(OR, 0, 0), I(STORE, 14, ACCU),
            I(LOAD, SRCA, 4), I(LOAD, SRCB, 5), I(AND, 0, 0), I(STORE, 13, ACCU),
            I(LOAD, SRCA, 6), I(LOAD, SRCB, 7), I(XOR, 0, 0), I(STORE, 12, ACCU),
            I(LOAD, SRCA, 8), I(LOAD, SRCB, 9), I(SUB, 0, 0), I(STORE, 11, CF),
            I(LOAD, SRCA, 10), I(LOAD, SRCB, 11), I(ADD, 0, 0), I(STORE, 10, ACCU) } },
    /* 7: SRCA, SRCB, ACCU, ZF and CF persist from the last MI_MATH: no loads */
    { 5, { I(STORE, 0, ACCU), I(STORE, 1, ZF), I(STORE, 2, CF), I(SUB, 0, 0),
           I(STORE, 3, ACCU) } },
};

struct batch {
    uint32_t dw[4096];
    uint32_t n;
};

static void emit(struct batch *b, uint32_t v)
{
    if (b->n < 4096)
        b->dw[b->n++] = v;
}

/* MI_LOAD_REGISTER_IMM: opcode 0x22, DWord Length 2n - 1. */
static void lri2(struct batch *b, uint32_t reg0, uint32_t v0, uint32_t reg1, uint32_t v1)
{
    emit(b, 0x22u << 23 | 3);
    emit(b, reg0);
    emit(b, v0);
    emit(b, reg1);
    emit(b, v1);
}

/* MI_STORE_REGISTER_MEM (Gen8/9): opcode 0x24, bit 22 Use Global GTT, length 2. */
static void srm(struct batch *b, uint32_t reg, uint64_t ggtt)
{
    emit(b, 0x24u << 23 | 1u << 22 | 2);
    emit(b, reg);
    emit(b, (uint32_t)ggtt);
    emit(b, (uint32_t)(ggtt >> 32));
}

#define GGTT_PAGES 64
#define GGTT_PHYS 0x100000ull       /* GGTT page i (i >= 1) -> physical 0x100000 + i * 4 KiB */
#define RING_GGTT 0x1000u
#define LRCA_GGTT 0x2000u
#define HWS_GGTT 0x19000u
#define BATCH_GGTT 0x20000u
#define CONTEXT_BYTES 94208u        /* PPHWSP + 22 pages */

int math_aub_write(const char *path, struct gt_error *err)
{
    struct batch *b = gt_xcalloc(1, sizeof *b);
    for (int i = 0; i < 16; i++)
        lri2(b, 0x2600 + 8 * i, (uint32_t)math_aub_initial_gprs[i], 0x2604 + 8 * i,
             (uint32_t)(math_aub_initial_gprs[i] >> 32));
    for (int p = 0; p < MATH_AUB_PROGRAMS; p++) {
        const struct math_aub_program *m = &math_aub_programs[p];
        emit(b, 0x1Au << 23 | (m->count - 1));          /* MI_MATH */
        for (uint32_t k = 0; k < m->count; k++)
            emit(b, m->instruction[k]);
        for (int i = 0; i < 16; i++) {
            uint64_t at = MATH_AUB_RESULT_GGTT + (uint64_t)p * 128 + (uint64_t)i * 8;
            srm(b, 0x2600 + 8 * i, at);
            srm(b, 0x2604 + 8 * i, at + 4);
        }
    }
    emit(b, 0x05000000);                                /* MI_BATCH_BUFFER_END */

    uint64_t pte[GGTT_PAGES];
    pte[0] = 0x1;
    for (uint64_t i = 1; i < GGTT_PAGES; i++)
        pte[i] = (GGTT_PHYS + i * 4096) | 1;
    /* PPGTT: PML4 at physical 0, PDP 0x1000, PD 0x2000, PT 0x3000; VA page i ->
     * GGTT page i's physical page (i >= 1) */
    uint64_t *tables = gt_xcalloc(4 * 512, sizeof(uint64_t));
    tables[0] = 0x1000 | 1;
    tables[512] = 0x2000 | 1;
    tables[1024] = 0x3000 | 1;
    for (uint64_t i = 1; i < GGTT_PAGES; i++)
        tables[1536 + i] = (GGTT_PHYS + i * 4096) | 1;
    /* the context image (aub-format §4.3): register state at LRCA + 4 KiB */
    uint32_t *ctx = gt_xcalloc(CONTEXT_BYTES / 4, sizeof(uint32_t));
    uint32_t *img = ctx + 0x1000 / 4;
    static const uint32_t lri14[] = {
        0x00000000, 0x1100101B, 0x2244, 0x00090009, 0x2034, 0, 0x2030, 0, 0x2038, RING_GGTT,
        0x203C, 1, 0x2168, 0, 0x2140, 0, 0x2110, 0, 0x211C, 0, 0x2114, 0, 0x2118, 0,
        0x21C0, 0, 0x21C4, 0, 0x21C8, 0, 0, 0, 0,
        0x11001011, 0x23A8, 0, 0x228C, 0, 0x2288, 0, 0x2284, 0, 0x2280, 0, 0x227C, 0, 0x2278, 0,
        0x2274, 0, 0x2270, 0,
    };
    memcpy(img, lri14, sizeof lri14);
    img[0x41] = 0x11000001;
    img[0x42] = 0x20C8;
    img[0x43] = 0x7FFFFFFF;
    img[0x44] = 0x05000000;
    uint32_t ring[4] = { 0x18800001, BATCH_GGTT, 0, 0 };   /* BBS, ASI 0 (GGTT); MI_NOOP */
    uint32_t zero = 0, tail = 16;
    uint8_t *zeros = gt_xcalloc(1, 4096);

    struct aub_writer w;
    int rc = -1;
    if (aub_writer_open(&w, path, 0, err) < 0)
        goto out;
    if (aub_write_memtrace_version(&w, 0x1912, 12, "gtsim-cosim build-math-aub", err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT_ENTRY, 0, &pte[0], 8, err) < 0 ||
        aub_write_register(&w, 0x229C, 0x80008000, err) < 0 ||
        aub_write_register(&w, 0x1229C, 0x80008000, err) < 0 ||
        aub_write_register(&w, 0x2229C, 0x80008000, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_PHYSICAL, 0, tables, 4 * 4096, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT_ENTRY, 8, &pte[1], 8 * (GGTT_PAGES - 1), err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, BATCH_GGTT, b->dw, 4ull * b->n, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, MATH_AUB_RESULT_GGTT, zeros, 4096, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, RING_GGTT, zeros, 4096, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, LRCA_GGTT, ctx, CONTEXT_BYTES, err) < 0 ||
        aub_write_register(&w, 0x2080, HWS_GGTT, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, RING_GGTT, ring, sizeof ring, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, LRCA_GGTT + 0x1014, &zero, 4, err) < 0 ||
        aub_write_memory(&w, AUB_SPACE_GGTT, LRCA_GGTT + 0x101C, &tail, 4, err) < 0 ||
        aub_write_register(&w, 0x2230, 0, err) < 0 || aub_write_register(&w, 0x2230, 0, err) < 0 ||
        aub_write_register(&w, 0x2230, 0, err) < 0 ||
        aub_write_register(&w, 0x2230, LRCA_GGTT | 0x19, err) < 0 ||
        aub_write_register_poll(&w, 0x2234, 0x10, 0, err) < 0) {
        struct gt_error ignored;
        aub_writer_close(&w, &ignored);
        goto out;
    }
    rc = aub_writer_close(&w, err);
out:
    free(b);
    free(tables);
    free(ctx);
    free(zeros);
    return rc;
}
