/* rtl-cosim/cs_alu_directed.c - see cs_alu_directed.h. */
#include "rtl-cosim/cs_alu_directed.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

enum { WATCHDOG = 2000 };

struct directed {
    enum cs_alu_rtl_variant variant;
    FILE *report;
    uint32_t failed;
    uint64_t cycle;
};

static void check(struct directed *d, int ok, const char *what, uint64_t got, uint64_t want)
{
    if (ok)
        return;
    d->failed++;
    if (d->report)
        fprintf(d->report, "cs_alu directed: %s: rtl %" PRIu64 ", expected %" PRIu64 "\n", what,
                got, want);
}

/* A fresh model out of reset at cycles_per_instruction cpi, resp_ready as given. */
static struct cs_alu_rtl *fresh(struct directed *d, uint32_t cpi, int resp_ready)
{
    struct cs_alu_rtl *r = cs_alu_rtl_create(d->variant, false);
    cs_alu_rtl_reset(r);
    cs_alu_rtl_set_cpi(r, cpi);
    cs_alu_rtl_set_resp_ready(r, resp_ready);
    d->cycle = 1;
    return r;
}

/* Presents q (count n) and clocks until the RTL takes it (at most WATCHDOG clocks);
 * the request stays driven when `hold` (for the check of a request held valid).
 * 1 when taken. */
static int take(struct directed *d, struct cs_alu_rtl *r, const struct cs_alu_request *q,
                uint32_t n, int hold)
{
    cs_alu_rtl_set_request(r, q, n);
    for (int i = 0; i < WATCHDOG; i++) {
        int ready = cs_alu_rtl_req_ready(r);
        cs_alu_rtl_clock(r, d->cycle++);
        if (ready) {
            if (!hold)
                cs_alu_rtl_set_request(r, NULL, 0);
            return 1;
        }
    }
    return 0;
}

/* Clocks after a take until resp_valid: the clocks, or WATCHDOG when none came. */
static uint64_t wait_answer(struct directed *d, struct cs_alu_rtl *r)
{
    uint64_t clocks = 0;
    while (!cs_alu_rtl_resp_valid(r) && clocks < WATCHDOG) {
        cs_alu_rtl_clock(r, d->cycle++);
        clocks++;
    }
    return clocks;
}

/* Clocks from the take of n NOOPs to resp_valid at cpi, resp_ready low. */
static uint64_t answer_clocks(struct directed *d, uint32_t cpi, uint32_t n)
{
    struct cs_alu_rtl *r = fresh(d, cpi, 0);
    struct cs_alu_request *q = gt_xcalloc(1, sizeof *q);
    q->count = n;
    uint64_t clocks = take(d, r, q, n, 0) ? wait_answer(d, r) : WATCHDOG;
    free(q);
    cs_alu_rtl_destroy(r);
    return clocks;
}

uint32_t cs_alu_directed_checks(enum cs_alu_rtl_variant variant, FILE *report)
{
    struct directed d = { .variant = variant, .report = report };
    struct cs_alu_request *q = gt_xcalloc(2, sizeof *q);
    struct cs_alu_response resp;

    /* cfg_cpi: n x cpi clocks an answer, and cpi 0 reads as 1 (no instruction
     * takes zero clocks; the fabric's param has minimum 1, so only here) */
    uint64_t one = answer_clocks(&d, 1, 5);
    check(&d, answer_clocks(&d, 2, 5) == one + 5, "5 NOOPs at cpi 2 (clocks)",
          answer_clocks(&d, 2, 5), one + 5);
    check(&d, answer_clocks(&d, 0, 5) == one, "5 NOOPs at cpi 0 = cpi 1 (clocks)",
          answer_clocks(&d, 0, 5), one);

    /* the first request after reset, no instruction: ZF and CF clear, nothing executed */
    struct cs_alu_rtl *r = fresh(&d, 1, 1);
    memset(q, 0, sizeof *q);
    check(&d, take(&d, r, q, 0, 0), "a request of 0 instructions taken", 0, 1);
    wait_answer(&d, r);
    cs_alu_rtl_response(r, &resp);
    check(&d, cs_alu_rtl_resp_valid(r), "answer to 0 instructions", 0, 1);
    check(&d, resp.flags == 0, "flags of the first answer after reset", resp.flags, 0);
    check(&d, resp.executed == 0, "executed of 0 instructions", resp.executed, 0);
    cs_alu_rtl_destroy(r);

    /* a count over 256 runs 256 instructions (cs_alu_request_count, the adapters and
     * cs_alu_rtl_set_request clamp it before the pin, so the RTL's own clamp of
     * req_count is never reached through this API: this checks the path end to end) */
    static const uint32_t counts[] = { 257, 300 };
    for (unsigned k = 0; k < 2; k++) {
        r = fresh(&d, 1, 1);
        memset(q, 0, sizeof *q);
        check(&d, take(&d, r, q, counts[k], 0), "a request over 256 taken", 0, 1);
        uint64_t clocks = wait_answer(&d, r);
        cs_alu_rtl_response(r, &resp);
        check(&d, resp.executed == 256, "executed of a count over 256", resp.executed, 256);
        check(&d, clocks == one - 5 + 256, "clocks of a count over 256", clocks, one - 5 + 256);
        cs_alu_rtl_destroy(r);
    }

    /* R2 = R0 + R1 with resp_ready high throughout and a second request (R2 = R0 - R1)
     * held valid from the first's take: the first runs its four instructions
     * undisturbed (not ready while running), answers 5 + 7 = 12 with ZF, CF clear after
     * n clocks, then the second is taken and answers 5 - 7 with CF (borrow) set */
    r = fresh(&d, 1, 1);
    memset(q, 0, 2 * sizeof *q);
    for (int k = 0; k < 2; k++) {
        q[k].gpr[0] = 5;
        q[k].gpr[1] = 7;
        q[k].count = 4;
        q[k].instruction[0] = cs_alu_instruction(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, 0);
        q[k].instruction[1] = cs_alu_instruction(CS_ALU_OP_LOAD, CS_ALU_REG_SRCB, 1);
        q[k].instruction[2] = cs_alu_instruction(k ? CS_ALU_OP_SUB : CS_ALU_OP_ADD, 0, 0);
        q[k].instruction[3] = cs_alu_instruction(CS_ALU_OP_STORE, 2, CS_ALU_REG_ACCU);
    }
    check(&d, take(&d, r, &q[0], 4, 0), "the first request taken", 0, 1);
    cs_alu_rtl_set_request(r, &q[1], 4);
    uint64_t clocks = 0;
    while (!cs_alu_rtl_resp_valid(r) && clocks < WATCHDOG) {
        check(&d, !cs_alu_rtl_req_ready(r), "req_ready while running (resp_ready high)", 1, 0);
        cs_alu_rtl_clock(r, d.cycle++);
        clocks++;
    }
    check(&d, clocks == one - 1, "clocks of 4 instructions, resp_ready high", clocks, one - 1);
    cs_alu_rtl_response(r, &resp);
    check(&d, resp.gpr[2] == 12, "R2 = 5 + 7 with a second request held valid", resp.gpr[2],
          12);
    check(&d, resp.flags == 0, "flags of 5 + 7", resp.flags, 0);
    /* the answer leaves on this clock (resp_ready high) and the held request is taken */
    check(&d, cs_alu_rtl_req_ready(r), "ready as the answer leaves", 0, 1);
    cs_alu_rtl_clock(r, d.cycle++);
    cs_alu_rtl_set_request(r, NULL, 0);
    wait_answer(&d, r);
    cs_alu_rtl_response(r, &resp);
    check(&d, resp.gpr[2] == (uint64_t)5 - 7, "R2 = 5 - 7 (the held request)", resp.gpr[2],
          (uint64_t)5 - 7);
    check(&d, resp.flags == 2, "flags of 5 - 7 (CF: the borrow)", resp.flags, 2);
    cs_alu_rtl_destroy(r);
    free(q);
    return d.failed;
}
