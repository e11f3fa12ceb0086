/* units/vc4_host/vc4_host.c - plays a vc4 job file; see vc4_host.h. */
#include "units/vc4_host/vc4_host.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/file.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "units/common/mmio.h"
#include "units/vc4_host/vc4_gpu_fft.h"
#include "units/vc4_host/vc4_submit.h"
#include "vc4_v3d_regs.h"

#define MAX_JOB_BYTES (64u << 20)
/* bus address bits 31:30 select the BCM2835's cache alias (configs/vc4-bcm2835.cfg) */
#define VC4_BUS_ADDRESS_MASK 0x3fffffffu

enum command_kind { CMD_MEMORY, CMD_REG, CMD_WAIT, CMD_EXPECT, CMD_FFT_CHECK };

struct command {
    enum command_kind kind;
    uint32_t address;           /* memory, expect: address; reg: offset */
    uint32_t value;             /* reg */
    uint8_t *data;              /* memory, expect: bytes */
    uint32_t bytes;
    unsigned line;
};

struct vc4_host {
    char workload[PARAM_STRING_MAX];
    struct port *v3d, *v3d_reply;
    struct command *cmd;
    uint32_t count, capacity, next;
    bool waiting, timing;
    uint64_t started_cycle;     /* the first register write after the last wait */
    struct vc4_gpu_fft *fft;    /* a gpu_fft workload: the batch and its reference */
    uint64_t busy_cycles, fft_transforms, fft_within, fft_beyond;
    double fft_rms_ppm, fft_us_per_transform, fft_published_ppm, fft_published_us;
    uint64_t commands, memory_bytes, register_writes, waits, expect_matches, expect_mismatches;
    uint64_t submits, bin_list_bytes, render_list_bytes, shader_records, texture_samples;
};

static const struct param_desc host_params[] = {
    PARAM_STRING_FIELD("workload", struct vc4_host, workload, "",
                       "a vc4 job file or dump, or gpu_fft[:KEY=VALUE,...] "
                       "(units/vc4_host/vc4_host.h); empty: nothing to play"),
    PARAM_END
};

static const struct port_desc host_ports[] = {
    { .name = "v3d", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "V3D register writes and syncs" },
    { .name = "v3d_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "sync answers" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_host, f, m, h)
static const struct stat_desc host_stats[] = {
    C("commands", commands, "commands", "job commands played"),
    C("memory_bytes", memory_bytes, "bytes", "bytes written into memory"),
    C("register_writes", register_writes, "writes", "V3D register writes sent"),
    C("waits", waits, "commands", "waits for completion"),
    C("expect_matches", expect_matches, "words", "expected words found in memory"),
    C("expect_mismatches", expect_mismatches, "words", "expected words not found (logged)"),
    C("submits", submits, "submits", "vc4 submits of a dump validated and started"),
    C("bin_list_bytes", bin_list_bytes, "bytes", "validated binning control list bytes"),
    C("render_list_bytes", render_list_bytes, "bytes", "generated render control list bytes"),
    C("shader_records", shader_records, "records", "shader records validated and relocated"),
    C("texture_samples", texture_samples, "samples", "texture uniforms relocated"),
    C("busy_cycles", busy_cycles, "cycles",
      "cycles from the first register write after a wait to that wait's answer, summed"),
    C("gpu_fft.transforms", fft_transforms, "transforms", "GPU_FFT outputs checked"),
    C("gpu_fft.within_accuracy", fft_within, "transforms",
      "outputs whose rms error is within twice gpu_fft.txt's typical figure"),
    C("gpu_fft.beyond_accuracy", fft_beyond, "transforms", "outputs beyond it (logged)"),
    STAT_REAL_FIELD("gpu_fft.rms_error_ppm", struct vc4_host, fft_rms_ppm, "ppm",
                    "the worst relative rms error of the batch's outputs against the CPU FFT"),
    STAT_REAL_FIELD("gpu_fft.published_ppm", struct vc4_host, fft_published_ppm, "ppm",
                    "gpu_fft.txt's typical rms error for this length"),
    STAT_REAL_FIELD("gpu_fft.us_per_transform", struct vc4_host, fft_us_per_transform, "us",
                    "simulated busy time per transform (busy_cycles at the V3D clock / batch)"),
    STAT_REAL_FIELD("gpu_fft.published_us", struct vc4_host, fft_published_us, "us",
                    "gpu_fft.txt's Pi 1 time per transform for this length and batch (0: none)"),
    STAT_END
};
#undef C

static struct command *add(struct vc4_host *s, enum command_kind kind, unsigned line)
{
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 32;
        s->cmd = gt_xrealloc(s->cmd, s->capacity * sizeof *s->cmd);
    }
    struct command *c = &s->cmd[s->count++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->line = line;
    return c;
}

static bool number(const char **p, uint32_t *v)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!isdigit((unsigned char)**p))
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(*p, &end, 0);
    if (errno || x > 0xffffffffull || (*end && !isspace((unsigned char)*end) && *end != '#'))
        return false;
    *v = (uint32_t)x;
    *p = end;
    return true;
}

static void append_word(struct command *c, uint32_t w)
{
    c->data = gt_xrealloc(c->data, c->bytes + 4);
    memcpy(c->data + c->bytes, &w, 4);
    c->bytes += 4;
}

/* every 0x token of a C-array text, skipping // comments */
static void hex_words(struct command *c, const char *text)
{
    uint32_t *words = NULL;
    uint32_t count = vc4_hex_words(text, &words, 0);
    for (uint32_t i = 0; i < count; i++)
        append_word(c, words[i]);
    free(words);
}

static int parse(struct vc4_host *s, const char *path, const char *text, struct gt_error *err)
{
    char dir[PARAM_STRING_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    unsigned line = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char buf[4096];
        if (len >= sizeof buf)
            return gt_error_set(err, "%s:%u: line too long", path, line);
        memcpy(buf, p, len);
        buf[len] = 0;
        p = eol ? eol + 1 : p + len;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char word[32];
        int used = 0;
        if (sscanf(buf, "%31s%n", word, &used) != 1)
            continue;
        const char *q = buf + used;
        uint32_t a, b, v;
        if (!strcmp(word, "words") || !strcmp(word, "expect")) {
            struct command *c = add(s, word[0] == 'w' ? CMD_MEMORY : CMD_EXPECT, line);
            if (!number(&q, &c->address))
                return gt_error_set(err, "%s:%u: %s ADDRESS W0 W1 ...", path, line, word);
            while (number(&q, &v))
                append_word(c, v);
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q || !c->bytes)
                return gt_error_set(err, "%s:%u: %s: words are numbers", path, line, word);
        } else if (!strcmp(word, "fill")) {
            struct command *c = add(s, CMD_MEMORY, line);
            if (!number(&q, &c->address) || !number(&q, &b) || !number(&q, &v) || b > MAX_JOB_BYTES)
                return gt_error_set(err, "%s:%u: fill ADDRESS BYTES VALUE", path, line);
            c->bytes = b & ~3u;
            c->data = gt_xcalloc(1, c->bytes + 4);
            for (uint32_t i = 0; i < c->bytes; i += 4)
                memcpy(c->data + i, &v, 4);
        } else if (!strcmp(word, "hex32") || !strcmp(word, "binary")) {
            struct command *c = add(s, CMD_MEMORY, line);
            char name[PARAM_STRING_MAX], full[2 * PARAM_STRING_MAX];
            if (!number(&q, &c->address) || sscanf(q, "%255s", name) != 1)
                return gt_error_set(err, "%s:%u: %s ADDRESS PATH", path, line, word);
            snprintf(full, sizeof full, "%s%s", name[0] == '/' ? "" : dir, name);
            uint8_t *bytes;
            size_t n;
            if (gt_read_file(full, MAX_JOB_BYTES, &bytes, &n, err) < 0)
                return -1;
            if (word[0] == 'h') {
                hex_words(c, (const char *)bytes);
                free(bytes);
            } else {
                c->data = bytes;
                c->bytes = (uint32_t)n;
            }
        } else if (!strcmp(word, "reg")) {
            struct command *c = add(s, CMD_REG, line);
            if (!number(&q, &c->address) || !number(&q, &c->value))
                return gt_error_set(err, "%s:%u: reg OFFSET VALUE", path, line);
        } else if (!strcmp(word, "run")) {
            if (!number(&q, &a) || !number(&q, &b) || !number(&q, &v))
                return gt_error_set(err, "%s:%u: run PC UNIFORMS COUNT", path, line);
            struct command *c = add(s, CMD_REG, line);
            c->address = V3D_SRQUA;
            c->value = b;
            c = add(s, CMD_REG, line);
            c->address = V3D_SRQUL;
            c->value = v;
            c = add(s, CMD_REG, line);
            c->address = V3D_SRQPC;
            c->value = a;
        } else if (!strcmp(word, "wait")) {
            add(s, CMD_WAIT, line);
        } else {
            return gt_error_set(err, "%s:%u: unknown command '%s' (words, fill, hex32, binary, "
                                "reg, run, wait, expect)", path, line, word);
        }
    }
    return 0;
}

static void add_register(struct vc4_host *s, uint32_t offset, uint32_t value)
{
    struct command *c = add(s, CMD_REG, 0);
    c->address = offset;
    c->value = value;
}

/* A DRM_IOCTL_VC4_SUBMIT_CL dump: each submit is validated, relocated and given its render
 * list as the kernel does (vc4_submit.h), its memory images are written, and the two control
 * list threads are started through their registers, CA before EA (vc4-submit.md §9: writing
 * CTnEA starts a thread stopped at its end); a wait follows each submit, as Mesa's simulator
 * runs one job to completion before the next. */
static int load_dump(struct vc4_host *s, struct gt_error *err)
{
    struct vc4_dump d;
    if (vc4_dump_read(s->workload, &d, err) < 0)
        return -1;
    struct vc4_placement placement = { 0 };
    int rc = 0;
    for (uint32_t i = 0; i < d.count && rc == 0; i++) {
        struct vc4_job job;
        struct gt_error local;
        if (vc4_submit_prepare(&d, i, &placement, &job, &local) < 0) {
            rc = gt_error_set(err, "%s: %s", s->workload, local.message);
            break;
        }
        for (uint32_t r = 0; r < job.regions; r++) {
            struct command *c = add(s, CMD_MEMORY, 0);
            c->address = job.region[r].address;
            c->bytes = job.region[r].size;
            c->data = job.region[r].data;   /* taken over */
            job.region[r].data = NULL;
        }
        if (job.has_bin) {
            add_register(s, V3D_CT0CA, job.ct0ca);
            add_register(s, V3D_CT0EA, job.ct0ea);
        }
        add_register(s, V3D_CT1CA, job.ct1ca);
        add_register(s, V3D_CT1EA, job.ct1ea);
        add(s, CMD_WAIT, 0);
        s->submits++;
        s->bin_list_bytes += job.bin_length;
        s->render_list_bytes += job.rcl_size;
        s->shader_records += job.records;
        s->texture_samples += job.samples;
        vc4_job_free(&job);
    }
    vc4_placement_free(&placement);
    vc4_dump_free(&d);
    return rc;
}

/* A GPU_FFT batch (vc4_gpu_fft.h): its memory images, gpu_fft_base_exec_direct's register
 * writes, a wait for the eight completions, then the output check. */
static int load_gpu_fft(struct vc4_host *s, struct gt_error *err)
{
    struct vc4_gpu_fft_options o;
    if (vc4_gpu_fft_parse(s->workload, &o, err) < 0)
        return -1;
    s->fft = gt_xcalloc(1, sizeof *s->fft);
    if (vc4_gpu_fft_prepare(&o, s->fft, err) < 0)
        return -1;
    for (uint32_t r = 0; r < s->fft->regions; r++) {
        struct command *c = add(s, CMD_MEMORY, 0);
        c->address = s->fft->region[r].address & VC4_BUS_ADDRESS_MASK;
        c->bytes = s->fft->region[r].size;
        c->data = s->fft->region[r].data;   /* taken over */
        s->fft->region[r].data = NULL;
    }
    for (uint32_t i = 0; i < s->fft->registers; i++)
        add_register(s, s->fft->reg[i].offset, s->fft->reg[i].value);
    add(s, CMD_WAIT, 0);
    add(s, CMD_FFT_CHECK, 0);
    return 0;
}

/* Reads every job's output and compares it with the CPU FFT; the pass mark is twice
 * gpu_fft.txt's typical rms error for the length (its figures are typical, not bounds). */
static void check_gpu_fft(struct vc4_host *s, struct unit *u, struct gpu_memory *mem)
{
    const struct vc4_gpu_fft *f = s->fft;
    uint32_t n = f->length;
    float *out = gt_xcalloc((size_t)n * 2, sizeof *out);
    double published = vc4_gpu_fft_published_ppm(f->options.log2n);
    double worst = 0;
    for (uint32_t j = 0; j < f->options.batch; j++) {
        gpu_memory_read(mem, f->out_address[j] & VC4_BUS_ADDRESS_MASK, out, (size_t)n * 8, NULL);
        double ppm = vc4_gpu_fft_relative_rms(f, j, out) * 1e6;
        s->fft_transforms++;
        if (ppm <= 2 * published) {
            s->fft_within++;
        } else {
            s->fft_beyond++;
            unit_log(u, SIM_LOG_NOTE, "gpu_fft job %u: rms error %.3g ppm against the CPU FFT, "
                     "beyond twice gpu_fft.txt's %.2g ppm", j, ppm, published);
        }
        if (!(ppm <= worst))
            worst = ppm;
    }
    free(out);
    s->fft_rms_ppm = worst;
    s->fft_published_ppm = published;
    double us = (double)s->busy_cycles * (double)unit_clock_period(u) * 1e-6;
    s->fft_us_per_transform = us / f->options.batch;
    s->fft_published_us = vc4_gpu_fft_published_ms(f->options.log2n, f->options.batch) * 1e3;
}

static void free_commands(struct vc4_host *s)
{
    for (uint32_t i = 0; i < s->count; i++)
        free(s->cmd[i].data);
    free(s->cmd);
    s->cmd = NULL;
    s->count = s->capacity = 0;
    if (s->fft) {
        vc4_gpu_fft_free(s->fft);
        free(s->fft);
        s->fft = NULL;
    }
}

static int host_realize(struct unit *u, struct gt_error *err)
{
    struct vc4_host *s = unit_state(u);
    s->v3d = unit_port(u, "v3d", 0);
    s->v3d_reply = unit_port(u, "v3d_reply", 0);
    free_commands(s);
    s->submits = s->bin_list_bytes = s->render_list_bytes = s->shader_records = 0;
    s->texture_samples = 0;
    if (!s->workload[0])
        return 0;
    if (vc4_gpu_fft_is_workload(s->workload)) {
        if (!sim_memory(unit_sim(u)))
            return gt_error_set(err, "%s: the machine has no memory to run '%s' in",
                                unit_name(u), s->workload);
        return load_gpu_fft(s, err);
    }
    if (vc4_dump_file_is_dump(s->workload)) {
        if (!sim_memory(unit_sim(u)))
            return gt_error_set(err, "%s: the machine has no memory to load '%s' into",
                                unit_name(u), s->workload);
        return load_dump(s, err);
    }
    uint8_t *text;
    size_t n;
    if (gt_read_file(s->workload, MAX_JOB_BYTES, &text, &n, err) < 0)
        return -1;
    int rc = parse(s, s->workload, (const char *)text, err);
    free(text);
    if (rc == 0 && !sim_memory(unit_sim(u)))
        return gt_error_set(err, "%s: the machine has no memory to load '%s' into", unit_name(u),
                            s->workload);
    return rc;
}

static void host_reset(struct unit *u)
{
    struct vc4_host *s = unit_state(u);
    s->next = 0;
    s->waiting = s->timing = false;
    s->busy_cycles = s->fft_transforms = s->fft_within = s->fft_beyond = 0;
    s->fft_rms_ppm = s->fft_us_per_transform = s->fft_published_ppm = s->fft_published_us = 0;
    if (s->count)
        unit_wake_at(u, 0);
}

static bool send_mmio(struct vc4_host *s, struct unit *u, uint32_t op, uint32_t offset,
                      uint32_t value)
{
    if (!port_can_send(s->v3d))
        return false;
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *r = (struct cs_mmio *)m->payload;
    r->op = op;
    r->offset = offset;
    r->value = value;
    if (!port_try_send(s->v3d, m)) {
        msg_free(unit_sim(u), m);
        return false;
    }
    return true;
}

static enum unit_activity host_tick(struct unit *u)
{
    struct vc4_host *s = unit_state(u);
    struct msg *m;
    while (s->v3d_reply && (m = port_pop(s->v3d_reply)) != NULL) {
        const struct cs_mmio *r = (const struct cs_mmio *)m->payload;
        if (m->kind == MSG_MMIO && m->size >= sizeof *r && r->op == CS_MMIO_SYNC_DONE &&
            s->waiting) {
            s->waiting = false;
            if (s->timing)
                s->busy_cycles += unit_cycle(u) - s->started_cycle;
            s->timing = false;
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    while (!s->waiting && s->next < s->count) {
        struct command *c = &s->cmd[s->next];
        switch (c->kind) {
        case CMD_MEMORY:
            gpu_memory_write(mem, c->address, c->data, c->bytes, NULL);
            s->memory_bytes += c->bytes;
            break;
        case CMD_EXPECT:
            for (uint32_t i = 0; i < c->bytes; i += 4) {
                uint32_t want, got = 0;
                memcpy(&want, c->data + i, 4);
                gpu_memory_read(mem, c->address + i, &got, 4, NULL);
                if (got == want) {
                    s->expect_matches++;
                } else {
                    s->expect_mismatches++;
                    unit_log(u, SIM_LOG_NOTE, "%s:%u: memory 0x%08x holds 0x%08x, expected "
                             "0x%08x", s->workload, c->line, c->address + i, got, want);
                }
            }
            break;
        case CMD_REG:
            if (!port_is_bound(s->v3d))
                break;
            if (!send_mmio(s, u, CS_MMIO_WRITE, c->address, c->value))
                return UNIT_IDLE;   /* woken when the channel frees */
            if (!s->timing) {
                s->timing = true;
                s->started_cycle = unit_cycle(u);
            }
            s->register_writes++;
            break;
        case CMD_FFT_CHECK:
            if (s->fft)
                check_gpu_fft(s, u, mem);
            break;
        case CMD_WAIT:
            if (!port_is_bound(s->v3d) || !port_is_bound(s->v3d_reply))
                break;
            if (!send_mmio(s, u, CS_MMIO_SYNC, 0, 0))
                return UNIT_IDLE;
            s->waits++;
            s->waiting = true;
            break;
        }
        s->next++;
        s->commands++;
        unit_progress(u);
    }
    return UNIT_IDLE;
}

static void host_destroy(struct unit *u)
{
    free_commands(unit_state(u));
}

const struct unit_ops vc4_host_ops = {
    .kind = "vc4_host",
    .help = "Host of a VideoCore IV machine: plays a vc4 job file (memory images, V3D user "
            "program requests, waits, expected memory words).",
    .state_size = sizeof(struct vc4_host),
    .params = host_params,
    .ports = host_ports,
    .stats = host_stats,
    .realize = host_realize,
    .reset = host_reset,
    .tick = host_tick,
    .destroy = host_destroy,
};
