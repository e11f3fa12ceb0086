/* rtl-cosim/l3_directed.c - see l3_directed.h. */
#include "rtl-cosim/l3_directed.h"

#include <stdbool.h>

/* A read of `line` (target 0: R/W data, 4: RO data) in one bank: served, and
 * when it misses its memory read taken and filled 5 cycles later. 1: a hit,
 * 0: a miss, -1: the RTL did not behave as an L3 (no reply, another line read). */
static int read_line(struct l3_rtl *r, uint64_t *now, uint64_t line, uint8_t target)
{
    uint64_t t = *now, mem_line;
    uint8_t op;
    bool writeback;
    struct l3_rtl_req q = { line * 64, 1, 1, 0, target, 0 };
    l3_rtl_enq(r, t, &q);
    l3_rtl_serve(r, t);
    if (l3_rtl_mem_head(r, &mem_line, &op, &writeback)) {
        if (mem_line != line || writeback)
            return -1;
        l3_rtl_mem_pop(r, t);
        t += 5;
        l3_rtl_fill(r, t, line * 64, 0);
    }
    struct l3_rtl_reply rep;
    if (!l3_rtl_reply_head(r, &rep))
        return -1;
    l3_rtl_reply_pop(r, rep.due);
    *now = rep.due + 1;
    return rep.hit ? 1 : 0;
}

/* Reads lines[0..n) in order, then lines[0] again: its hit (1), miss (0) or -1. */
static int fill_then_reread(enum l3_rtl_variant variant, uint32_t dc_ways, uint32_t ro_ways,
                            uint8_t target, const uint64_t *lines, int n)
{
    struct l3_rtl *r = l3_rtl_create(variant, false);
    /* 4 ways, 4 miss entries, hit 5, fill 2, URB 3, atomics 2, one bank */
    struct l3_rtl_cfg cfg = { 4, 4, 5, 2, 3, 2, 1, dc_ways, ro_ways, false };
    l3_rtl_reset(r, &cfg);
    uint64_t now = 1;
    int rc = 0;
    for (int k = 0; k < n && rc >= 0; k++)
        if (read_line(r, &now, lines[k], target) != 0)
            rc = -1;                    /* every line is new: a miss */
    if (rc >= 0)
        rc = read_line(r, &now, lines[0], target);
    l3_rtl_destroy(r);
    return rc;
}

/* Capacities (l3_rtl.h: past them the RTL sets its sticky overflow flag): `n` requests of
 * `target` to line 0x100 given to one bank and, when
 * `serve`, served as they come, with no reply popped and no fill. Returns the overflow pin
 * after n - 1 requests (bit 0) and after n (bit 1), and in bits 2.. the replies waiting. */
static uint32_t fill_up(enum l3_rtl_variant variant, uint32_t n, uint8_t target, bool serve)
{
    struct l3_rtl *r = l3_rtl_create(variant, false);
    struct l3_rtl_cfg cfg = { 4, 4, 5, 2, 3, 2, 1, 0, 0, false };
    l3_rtl_reset(r, &cfg);
    uint32_t out = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (k == n - 1 && l3_rtl_overflow(r))
            out |= 1;
        struct l3_rtl_req q = { 0x100 * 64, k, k, 0, target, 0 };
        l3_rtl_enq(r, 1 + k, &q);
        if (serve)
            l3_rtl_serve(r, 1 + k);
    }
    if (l3_rtl_overflow(r))
        out |= 2;
    out |= l3_rtl_reply_count(r) << 2;
    l3_rtl_destroy(r);
    return out;
}

/* A bank queue holds L3_RTL_QDEPTH (16): the 17th request unserved overflows. The reply
 * heap holds L3_RTL_RCAP (512): the 513th URB reply (3 cycles, never popped) is not
 * kept and overflows. A miss entry holds L3_RTL_WPE (64) waiters: the 65th read of a
 * line never filled overflows. */
static uint32_t capacity_checks(enum l3_rtl_variant variant, FILE *report)
{
    static const struct {
        const char *what;
        uint32_t n;
        uint8_t target;
        bool serve;
        uint32_t want;
    } checks[] = {
        { "a bank queue of 16 given a 17th request", L3_RTL_QDEPTH + 1, 0, false, 2 },
        { "the reply heap of 512 given a 513th reply", L3_RTL_RCAP + 1, 1, true,
          2 | L3_RTL_RCAP << 2 },
        { "a miss entry of 64 waiters given a 65th", L3_RTL_WPE + 1, 0, true, 2 },
    };
    uint32_t failed = 0;
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
        uint32_t got = fill_up(variant, checks[k].n, checks[k].target, checks[k].serve);
        if (got != checks[k].want) {
            failed++;
            if (report)
                fprintf(report, "l3_slice directed check failed: %s: overflow %u before, %u "
                        "after, %u replies waiting; expected 0, 1, %u\n", checks[k].what,
                        got & 1, (got >> 1) & 1, got >> 2, checks[k].want >> 2);
        }
    }
    return failed;
}

uint32_t l3_pool_checks(enum l3_rtl_variant variant, FILE *report)
{
    /* one bank of 32 sets: these four lines share set 0 */
    static const uint64_t set0[4] = { 0x100, 0x120, 0x140, 0x160 };
    static const struct {
        const char *what;
        uint32_t dc_ways, ro_ways;
        uint8_t target;
        int lines, reread_hits;
    } checks[] = {
        /* DC 1, RO 1: R/W data fills ways 0..2; the fourth line finds every bit of
         * the pool set, clears them and takes way 0: the first line is gone */
        { "R/W pool of 3 ways (DC 1, RO 1) filled by a fourth line evicts the first",
          1, 1, 0, 4, 0 },
        /* RO 4: the R/W pool [0, 0) is empty, so R/W data fills every way: four
         * lines fit and the first is still there */
        { "R/W pool with no ways (RO 4) fills all four ways", 0, 4, 0, 4, 1 },
        /* DC 4: the RO pool [4, 4) is empty: read-only data fills every way */
        { "RO pool with no ways (DC 4) fills all four ways", 4, 0, 4, 4, 1 },
        /* RO 1, DC 1: read-only data fills ways 1..3; the fourth RO line evicts */
        { "RO pool of 3 ways (DC 1, RO 1) filled by a fourth line evicts the first",
          1, 1, 4, 4, 0 },
    };
    uint32_t failed = capacity_checks(variant, report);
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
        int got = fill_then_reread(variant, checks[k].dc_ways, checks[k].ro_ways,
                                   checks[k].target, set0, checks[k].lines);
        if (got != checks[k].reread_hits) {
            failed++;
            if (report)
                fprintf(report, "l3_slice directed check failed: %s: the first line read again "
                        "%s, expected %s\n", checks[k].what,
                        got < 0 ? "did not behave as an L3" : got ? "hits" : "misses",
                        checks[k].reread_hits ? "a hit" : "a miss");
        }
    }
    return failed;
}
