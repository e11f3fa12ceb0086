/* tests/support/wm_rig.h - a WM unit (units/wm) alone on the fabric for
 * its tests (tests/units/test_wm.c, test_wm_late.c): catchers on its "td",
 * "om" and "drained" outputs that keep what they receive, a feeder on its
 * "eot" input for thread ends, builders of state packets, and the test
 * triangle set up by SF's library. */
#ifndef GTSIM_TESTS_SUPPORT_WM_RIG_H
#define GTSIM_TESTS_SUPPORT_WM_RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/sim.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/thread_msg.h"

#define WM_CATCH_MAX 32
#define WM_CATCH_REGS 48

/* What one catcher received: per message its kind and, by kind, the
 * dispatch header and registers, the state id, or the MMIO and registers. */
struct wm_catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[WM_CATCH_MAX];
    struct eu_dispatch head[WM_CATCH_MAX];
    uint32_t grf[WM_CATCH_MAX][WM_CATCH_REGS][8];
    uint32_t state_id[WM_CATCH_MAX];
    struct cs_mmio mmio[WM_CATCH_MAX];
    struct pipeline_registers regs[WM_CATCH_MAX];
};

/* A probe L3 on WM's "l3" / "l3_reply" (wm_rig_new_l3): it keeps each line
 * request (address, op, cycle) and answers it `latency` cycles later. */
#define WM_L3_PROBE_MAX 512
struct wm_l3_probe {
    struct port *in, *out;
    uint32_t latency, count, pending;
    uint64_t address[WM_L3_PROBE_MAX], cycle[WM_L3_PROBE_MAX];
    uint8_t op[WM_L3_PROBE_MAX];
    struct msg *held[WM_L3_PROBE_MAX];
    uint64_t ready[WM_L3_PROBE_MAX];
};

struct wm_rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *wm, *idle, *feeder;
    struct wm_catcher *td, *om, *drained;
    struct wm_l3_probe *l3;         /* wm_rig_new_l3 only */
};

/* Runs the rig `cycles` cycles (an idle unit keeps the clock going). */
void wm_rig_run(struct wm_rig *r, uint64_t cycles);
/* A gen-9 state packet of `dwords` with a zeroed body of `body` bytes;
 * *common points at the body. */
struct msg *wm_rig_state_msg(struct wm_rig *r, uint32_t id, uint32_t dwords, size_t body,
                             void **common);
void wm_rig_to_wm(struct wm_rig *r, struct msg *m);     /* on WM's "sf" input */
struct wm_rig wm_rig_new(void);
/* The rig with a probe L3 answering WM's HiZ line requests after `latency`. */
struct wm_rig wm_rig_new_l3(uint32_t latency);
/* The same with WM's parameters overridden ("key=value", NULL-terminated). */
struct wm_rig wm_rig_new_l3_with(uint32_t latency, const char *const *wm_overrides);
uint64_t wm_rig_stat(struct wm_rig *r, const char *name); /* "wm.<name>" */

/* 3DSTATE_WM, 3DSTATE_PS and friends for a pixel shader test. */
struct wm_ps_setup {
    bool e8, e16, e32, source_depth, attributes, statistics, push;
    uint32_t modes, grf[3], max_threads;
    uint64_t ksp[3];
    bool no_rt;
};

void wm_rig_ps_state(struct wm_rig *r, struct wm_ps_setup s);

/* The triangle (0,0) (4,0) (0,4) at (ox, oy), w = 1, 2, 4, z = 0.5, 0.25,
 * 0.75, set up by SF's library, with its barycentric planes and 1/w filled
 * from the positions (b1 = x / 4, b2 = y / 4) and two attributes. */
struct setup_primitive wm_rig_triangle(int32_t ox, int32_t oy);
void wm_rig_send_setup(struct wm_rig *r, const struct setup_primitive *p);
/* A PS thread's end from the pixel back end (eot), with its counts. */
void wm_rig_end_thread(struct wm_rig *r, uint32_t request, uint32_t written, uint32_t passed);

#endif
