/* tools/bench/bench_sampler.c - issue 13's bench: the sampler unit alone
 * (units/sampler) taking SIMD16 sample_l messages on a 256 x 256 RGBA8 texture
 * with a full mip chain, bilinear (MIPFILTER_NONE) and trilinear (MIPFILTER_LINEAR
 * at LOD 1.5), each message's 16 coordinates walking across the texture; the
 * figure is texels fetched per host second of CPU (and pixel samples per
 * second), the sampler's own work: decode, state, LOD, addressing, format
 * unpack, filtering, the caches' timing and the write-back. Printed, never
 * asserted; the machine is shared, so the figure is indicative. */
#include "tools/bench/bench_sampler.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "spec_gen9_pack.h"
#include "units/common/sampler.h"
#include "units/common/thread_msg.h"
#include "units/sampler/sampler.h"

#define SSBA 0x100000u          /* surface state base */
#define BT 0x40u                /* binding table, from SSBA */
#define DSBA 0x200000u          /* dynamic state base */
#define SSP 0x100u              /* SAMPLER_STATE table, from DSBA */
#define TEX 0x400000u           /* the texture */
#define TEX_BYTES (2u << 20)
#define MESSAGES 20000u

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void release_memory(void *m)
{
    gpu_memory_destroy(m);
}

/* A sink for the write-backs. */
struct sink {
    struct port *in;
    uint64_t count;
};

static const struct port_desc sink_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "write-backs" },
    PORT_END
};

static int sink_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct sink *k = unit_state(u);
    k->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity sink_tick(struct unit *u)
{
    struct sink *k = unit_state(u);
    struct msg *m;
    while ((m = port_pop(k->in))) {
        k->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops sink_ops = {
    .kind = "bench_sampler_sink",
    .state_size = sizeof(struct sink),
    .ports = sink_ports,
    .realize = sink_realize,
    .tick = sink_tick,
};

static void put_state(struct gpu_memory *mem)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;                  /* 2D */
    v.SurfaceFormat = 0xC7;             /* R8G8B8A8_UNORM */
    v.Width = 255;
    v.Height = 255;
    v.SurfacePitch = 1023;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.MIPCountLOD = 8;
    v.SurfaceBaseAddress = TEX;
    v.ShaderChannelSelectRed = 4;
    v.ShaderChannelSelectGreen = 5;
    v.ShaderChannelSelectBlue = 6;
    v.ShaderChannelSelectAlpha = 7;
    uint32_t dw[16] = { 0 };
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    uint32_t state = 0x1000;
    gpu_memory_write(mem, SSBA + state, dw, sizeof dw, NULL);
    gpu_memory_write(mem, SSBA + BT, &state, 4, NULL);
    for (unsigned k = 0; k < 2; k++) {
        struct GEN9_SAMPLER_STATE s = { 0 };
        s.MinModeFilter = 1;
        s.MagModeFilter = 1;
        s.MipModeFilter = k ? 3 : 0;    /* LINEAR : NONE */
        s.TCXAddressControlMode = 0;    /* WRAP */
        s.TCYAddressControlMode = 0;
        s.TCZAddressControlMode = 0;
        s.MaxLOD = 14.0;
        uint32_t sdw[4] = { 0 };
        GEN9_SAMPLER_STATE_pack(sdw, &s);
        gpu_memory_write(mem, DSBA + SSP + 16 * k, sdw, sizeof sdw, NULL);
    }
    static uint8_t texels[64 * 1024];
    for (size_t i = 0; i < sizeof texels; i++)
        texels[i] = (uint8_t)(i * 2654435761u >> 24);
    for (uint32_t at = 0; at < TEX_BYTES; at += sizeof texels)
        gpu_memory_write(mem, TEX + at, texels, sizeof texels, NULL);
}

static struct msg *sample_l(struct sim *sim, uint32_t sampler, float lod, uint32_t n)
{
    const uint32_t mlen = 6, rlen = 8;
    struct msg *m = msg_alloc(sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + mlen * 32u));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p + mlen * 32u);
    p->sfid = 2;
    p->mlen = (uint8_t)mlen;
    p->rlen = (uint8_t)rlen;
    p->exec_size = 16;
    p->exec_mask = 0xffff;
    p->desc = mlen << 25 | rlen << 20 | 2u << 17 | (uint32_t)SAMPLER_SAMPLE_L << 12 | sampler << 8;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT,
                                         .surface_state_base = SSBA, .dynamic_state_base = DSBA,
                                         .binding_table_entries = 1, .sampler_state = SSP };
    uint8_t *regs = (uint8_t *)p->regs;
    for (unsigned lane = 0; lane < 16; lane++) {
        /* each message a 4 x 4 pixel block, blocks along rows of the texture */
        float u = ((float)(n % 64) * 4.0f + (float)(lane % 4) + 0.37f) / 256.0f;
        float v = ((float)(n / 64 % 64) * 4.0f + (float)(lane / 4) + 0.61f) / 256.0f;
        float param[3] = { lod, u, v };
        for (unsigned k = 0; k < 3; k++)
            memcpy(regs + (k * 2 + lane / 8) * 32 + (lane % 8) * 4, &param[k], 4);
    }
    return m;
}

static double stat_of(struct sim *sim, const char *path)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = 0;
    stats_lookup(w, path, &v);
    stats_writer_destroy(w);
    return v;
}

static void run_mode(const char *name, uint32_t sampler, float lod)
{
    struct gt_error err;
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_add_clock(sim, "clk", 1000, NULL);
    struct gpu_memory *mem = gpu_memory_create(&err);
    sim_set_memory(sim, mem, release_memory);
    struct unit *smp = sim_add_unit(sim, &sampler_ops, "smp", 0, NULL, NULL, &err);
    struct unit *sink = smp ? sim_add_unit(sim, &sink_ops, "wb", 0, NULL, NULL, &err) : NULL;
    struct port *out = sink ? sim_resolve_port(sim, "smp.writeback[0]", PORT_OUT, &err) : NULL;
    struct port *in = out ? sim_resolve_port(sim, "wb.in", PORT_IN, &err) : NULL;
    struct port *eu = in ? sim_resolve_port(sim, "smp.eu[0]", PORT_IN, &err) : NULL;
    struct link_params lp = { 1, 8, 4 };
    if (!eu || sim_connect(sim, out, in, &lp, &err) < 0 || sim_realize(sim, &err) < 0) {
        printf("  %s: %s: no figure\n", name, err.message);
        sim_destroy(sim);
        return;
    }
    put_state(mem);
    double c0 = cpu_seconds();
    for (uint32_t n = 0; n < MESSAGES; n++) {
        if (!port_inject(eu, sample_l(sim, sampler, lod, n)))
            break;
        sim_run(sim, 0);
    }
    double seconds = cpu_seconds() - c0;
    double texels = stat_of(sim, "smp.texels"), samples = 16.0 * MESSAGES;
    double replies = (double)((struct sink *)unit_state(sink))->count;
    if (seconds > 0 && replies == MESSAGES)
        printf("  %s: %.0f texels (%.0f pixel samples) in %.3f s of CPU = %.2f M texels/s "
               "(%.2f M samples/s)\n", name, texels, samples, seconds, texels / seconds / 1e6,
               samples / seconds / 1e6);
    else
        printf("  %s: %.0f of %u replies: no figure\n", name, replies, MESSAGES);
    sim_destroy(sim);
}

void bench_sampler(void)
{
    printf("\nsampler (one subslice sampler, SIMD16 sample_l on a 256x256 RGBA8 mip chain, "
           "%u messages each):\n", MESSAGES);
    run_mode("bilinear (MIPFILTER_NONE)", 0, 0.0f);
    run_mode("trilinear (MIPFILTER_LINEAR, LOD 1.5)", 1, 1.5f);
}
