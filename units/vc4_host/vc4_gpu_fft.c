/* units/vc4_host/vc4_gpu_fft.c - a GPU_FFT 3.0 batch for the VideoCore IV machine; see
 * vc4_gpu_fft.h for the facts it carries over and where they come from. */
#include "units/vc4_host/vc4_gpu_fft.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/file.h"
#include "vc4_v3d_regs.h"

#define PREFIX "gpu_fft"
#define DEFAULT_HEX_DIR "../shared/workloads/gpu_fft/hex"
#define HEADER_BYTES 4096u
#define BLOCK_BYTES (16u * 8u)          /* 16 complex floats */
#define MAX_SHADER_BYTES (1u << 20)

bool vc4_gpu_fft_is_workload(const char *name)
{
    size_t n = strlen(PREFIX);
    return name && strncmp(name, PREFIX, n) == 0 && (name[n] == 0 || name[n] == ':');
}

static int parse_number(const char *text, uint32_t min, uint32_t max, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || end == text || *end || v < min || v > max || !isdigit((unsigned char)text[0]))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int vc4_gpu_fft_parse(const char *name, struct vc4_gpu_fft_options *o, struct gt_error *err)
{
    memset(o, 0, sizeof *o);
    o->log2n = 8;
    o->batch = 1;
    o->cached = true;
    o->seed = 1;
    o->base = 0x08000000u;
    snprintf(o->hex_dir, sizeof o->hex_dir, "%s", DEFAULT_HEX_DIR);
    if (!vc4_gpu_fft_is_workload(name))
        return gt_error_set(err, "'%s' is not a gpu_fft workload", name ? name : "");
    const char *p = name + strlen(PREFIX);
    if (*p == ':')
        p++;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[VC4_GPU_FFT_PATH_MAX + 16];
        if (len >= sizeof item)
            return gt_error_set(err, "%s: option too long", name);
        memcpy(item, p, len);
        item[len] = 0;
        p += len + (comma ? 1 : 0);
        char *eq = strchr(item, '=');
        if (!eq)
            return gt_error_set(err, "%s: '%s' is not KEY=VALUE", name, item);
        *eq = 0;
        const char *key = item, *value = eq + 1;
        uint32_t v;
        int bad = 0;
        if (!strcmp(key, "log2n")) {
            bad = parse_number(value, VC4_GPU_FFT_MIN_LOG2N, VC4_GPU_FFT_MAX_LOG2N, &v);
            o->log2n = v;
        } else if (!strcmp(key, "batch")) {
            bad = parse_number(value, 1, VC4_GPU_FFT_MAX_BATCH, &v);
            o->batch = v;
        } else if (!strcmp(key, "dir")) {
            bad = strcmp(value, "fwd") && strcmp(value, "rev");
            o->forward = !strcmp(value, "fwd");
        } else if (!strcmp(key, "input")) {
            bad = strcmp(value, "tone") && strcmp(value, "random");
            o->random_input = !strcmp(value, "random");
        } else if (!strcmp(key, "seed")) {
            bad = parse_number(value, 0, 0xffffffffu, &o->seed);
        } else if (!strcmp(key, "cached")) {
            bad = parse_number(value, 0, 1, &v);
            o->cached = v;
        } else if (!strcmp(key, "base")) {
            bad = parse_number(value, 0, 0x3fffffffu, &v) || (v & 4095u);
            o->base = v;
        } else if (!strcmp(key, "hex")) {
            bad = !value[0];
            snprintf(o->hex_dir, sizeof o->hex_dir, "%s", value);
        } else {
            return gt_error_set(err, "%s: unknown key '%s' (log2n, batch, dir, input, seed, "
                                "cached, base, hex)", name, key);
        }
        if (bad)
            return gt_error_set(err, "%s: bad value '%s' for %s (log2n %d..%d, batch 1..%d, "
                                "dir fwd|rev, input tone|random, cached 0|1, base 4 KiB "
                                "aligned below 1 GiB)", name, value, key, VC4_GPU_FFT_MIN_LOG2N,
                                VC4_GPU_FFT_MAX_LOG2N, VC4_GPU_FFT_MAX_BATCH);
    }
    return 0;
}

uint32_t vc4_hex_words(const char *text, uint32_t **words, uint32_t count)
{
    const char *p = text;
    while (*p) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
            (p == text || !isalnum((unsigned char)p[-1]))) {
            char *end;
            unsigned long long v = strtoull(p, &end, 16);
            *words = gt_xrealloc(*words, (count + 1) * sizeof **words);
            (*words)[count++] = (uint32_t)v;
            p = end > p + 1 ? end : p + 2;
            continue;
        }
        p++;
    }
    return count;
}

/* ---- twiddles -------------------------------------------------------------------------
 * GPU_FFT's twiddle blocks (gpu_fft_twiddles.c, facts): a "base" block holds rotations
 * e^(i angle); a "step" block holds the pair (alpha, beta) = (2 sin^2(d/2), sin d) with which
 * the shader advances a rotation by d (cos(a + d) = cos a - (alpha cos a + beta sin a), the
 * accurate recurrence). The sixteen lanes of a 16-point block take the radix-2 stage order:
 * lane 0 has factor 0, lane 1 factor 8, lanes 2-3 factor 4, lanes 4-7 factor 2, lanes 8-15
 * factor 1, and within a stage the index from its first lane. A 32-point block is 16 lanes
 * of one angle followed by a 16-point block at twice the angle; a 64-point block is 32 lanes
 * then a 32-point block. Angles are in units of two_pi = -2 pi (forward) or +2 pi (inverse). */

static void lane_stage(unsigned lane, double *factor, double *index)
{
    if (lane == 0) {
        *factor = 0;
        *index = 0;
        return;
    }
    unsigned level = 0;
    while ((2u << level) <= lane)
        level++;                        /* 1 -> 0, 2..3 -> 1, 4..7 -> 2, 8..15 -> 3 */
    *factor = (double)(8u >> level);
    *index = (double)(lane - (1u << level));
}

static float *put(float *out, double re, double im)
{
    out[0] = (float)re;
    out[1] = (float)im;
    return out + 2;
}

static float *base_16(float *out, double two_pi, double theta)
{
    for (unsigned lane = 0; lane < 16; lane++) {
        double factor, index;
        lane_stage(lane, &factor, &index);
        double angle = two_pi / 16 * factor * index + theta * factor;
        out = put(out, cos(angle), sin(angle));
    }
    return out;
}

static float *base_32(float *out, double two_pi, double theta)
{
    for (unsigned i = 0; i < 16; i++)
        out = put(out, cos(two_pi / 32 * i + theta), sin(two_pi / 32 * i + theta));
    return base_16(out, two_pi, 2 * theta);
}

static float *base_64(float *out, double two_pi)
{
    for (unsigned i = 0; i < 32; i++)
        out = put(out, cos(two_pi / 64 * i), sin(two_pi / 64 * i));
    return base_32(out, two_pi, 0);
}

static float *step_pair(float *out, double d)
{
    double s = sin(d / 2);
    return put(out, 2 * s * s, sin(d));
}

static float *step_16(float *out, double delta)
{
    for (unsigned lane = 0; lane < 16; lane++) {
        double factor, index;
        lane_stage(lane, &factor, &index);
        out = step_pair(out, delta * factor);
    }
    return out;
}

static float *step_32(float *out, double delta)
{
    for (unsigned i = 0; i < 16; i++)
        out = step_pair(out, delta);
    return step_16(out, 2 * delta);
}

enum block { BASE_16, BASE_32, BASE_64, STEP_16, STEP_32 };

struct segment {
    enum block block;
    double multiple;        /* the angle (base) or step (step) in units of two_pi / N */
};

/* Per length: passes, the shared segments in order, the per-QPU unique block (its angle is
 * two_pi / N x q). Blocks: 16-point = 1, 32-point = 2, 64-point = 4 blocks of 16. */
static const struct length_table {
    unsigned passes, shared, unique, segments;
    struct segment segment[3];
    enum block unique_block;
} lengths[VC4_GPU_FFT_MAX_LOG2N - VC4_GPU_FFT_MIN_LOG2N + 1] = {
    [0] = { 2, 2, 1, 2, { { BASE_16, 0 }, { STEP_16, VC4_GPU_FFT_QPUS } }, BASE_16 },
    [1] = { 2, 3, 1, 2, { { BASE_32, 0 }, { STEP_16, VC4_GPU_FFT_QPUS } }, BASE_16 },
    [2] = { 2, 4, 2, 2, { { BASE_32, 0 }, { STEP_32, VC4_GPU_FFT_QPUS } }, BASE_32 },
    [3] = { 2, 6, 2, 2, { { BASE_64, 0 }, { STEP_32, VC4_GPU_FFT_QPUS } }, BASE_32 },
    [4] = { 3, 3, 1, 3, { { BASE_16, 0 }, { STEP_16, 16 }, { STEP_16, VC4_GPU_FFT_QPUS } },
            BASE_16 },
};

static float *segment(float *out, enum block b, double two_pi, double angle)
{
    switch (b) {
    case BASE_16: return base_16(out, two_pi, angle);
    case BASE_32: return base_32(out, two_pi, angle);
    case BASE_64: return base_64(out, two_pi);
    case STEP_16: return step_16(out, angle);
    case STEP_32: return step_32(out, angle);
    }
    return out;
}

/* ---- the reference ------------------------------------------------------------------ */

void vc4_fft_reference(double *x, uint32_t n, int sign)
{
    for (uint32_t i = 1, j = 0; i < n; i++) {         /* bit-reversal permutation */
        uint32_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            double t0 = x[2 * i], t1 = x[2 * i + 1];
            x[2 * i] = x[2 * j];
            x[2 * i + 1] = x[2 * j + 1];
            x[2 * j] = t0;
            x[2 * j + 1] = t1;
        }
    }
    for (uint32_t half = 1; half < n; half <<= 1) {    /* radix-2 butterflies */
        for (uint32_t k = 0; k < half; k++) {
            double angle = sign * M_PI * (double)k / (double)half;
            double wr = cos(angle), wi = sin(angle);
            for (uint32_t i = k; i < n; i += 2 * half) {
                uint32_t j = i + half;
                double tr = wr * x[2 * j] - wi * x[2 * j + 1];
                double ti = wr * x[2 * j + 1] + wi * x[2 * j];
                x[2 * j] = x[2 * i] - tr;
                x[2 * j + 1] = x[2 * i + 1] - ti;
                x[2 * i] += tr;
                x[2 * i + 1] += ti;
            }
        }
    }
}

static uint32_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state >> 32);
}

static void put_word(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put_float(uint8_t *p, float v)
{
    memcpy(p, &v, 4);
}

int vc4_gpu_fft_prepare(const struct vc4_gpu_fft_options *o, struct vc4_gpu_fft *f,
                        struct gt_error *err)
{
    memset(f, 0, sizeof *f);
    if (o->log2n < VC4_GPU_FFT_MIN_LOG2N || o->log2n > VC4_GPU_FFT_MAX_LOG2N || o->batch < 1 ||
        o->batch > VC4_GPU_FFT_MAX_BATCH)
        return gt_error_set(err, "gpu_fft: log2n %u or batch %u out of range", o->log2n,
                            o->batch);
    f->options = *o;
    const struct length_table *t = &lengths[o->log2n - VC4_GPU_FFT_MIN_LOG2N];
    f->passes = t->passes;
    f->shared = t->shared;
    f->unique = t->unique;
    f->length = 1u << o->log2n;
    uint32_t n = f->length, jobs = o->batch;

    /* the shader: gpu_fft_shaders.c's arrays are these files' words */
    static const char *const names[] = { "256", "512", "1k", "2k", "4k" };
    char path[VC4_GPU_FFT_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/shader_%s.hex", o->hex_dir,
             names[o->log2n - VC4_GPU_FFT_MIN_LOG2N]);
    uint8_t *text;
    size_t text_bytes;
    struct gt_error local;
    if (gt_read_file(path, MAX_SHADER_BYTES, &text, &text_bytes, &local) < 0)
        return gt_error_set(err, "gpu_fft: the shader %s cannot be read (GPU_FFT's shaders are "
                            "not part of gtsim: name their folder with hex=DIR): %s", path,
                            local.message);
    uint32_t *code = NULL;
    uint32_t words = vc4_hex_words((const char *)text, &code, 0);   /* NUL-ended */
    free(text);
    if (words < 2 || (words & 1)) {
        free(code);
        return gt_error_set(err, "gpu_fft: %s holds %u words, not whole QPU instructions", path,
                            words);
    }

    /* layout (gpu_fft.c gpu_fft_prepare) */
    uint32_t alias = o->cached ? 0x40000000u : 0xc0000000u;
    f->data_bytes = 1 + ((8u << o->log2n) | 4095u);
    f->code_bytes = words * 4;
    f->twiddle_bytes = BLOCK_BYTES * (t->shared + VC4_GPU_FFT_QPUS * t->unique);
    uint32_t uniform_words = 5 + 2 * jobs;
    f->uniform_bytes = 4 * VC4_GPU_FFT_QPUS * uniform_words;
    uint32_t data = alias | (o->base + HEADER_BYTES);
    f->code_address = data + 2 * jobs * f->data_bytes;
    f->twiddle_address = f->code_address + f->code_bytes;
    uint32_t uniforms = f->twiddle_address + f->twiddle_bytes;
    for (uint32_t j = 0; j < jobs; j++) {
        f->in_address[j] = data + j * f->data_bytes;
        f->out_address[j] = f->in_address[j] + ((t->passes & 1) ? jobs * f->data_bytes : 0);
    }

    /* data buffers, with the input */
    struct vc4_gpu_fft_region *r = &f->region[f->regions++];
    r->address = data;
    r->size = 2 * jobs * f->data_bytes;
    r->data = gt_xcalloc(1, r->size);
    f->reference = gt_xcalloc((size_t)jobs * n * 2, sizeof *f->reference);
    uint64_t state = 0x9e3779b97f4a7c15ull ^ o->seed;
    for (uint32_t j = 0; j < jobs; j++) {
        uint8_t *in = r->data + j * f->data_bytes;
        double *ref = f->reference + (size_t)j * n * 2;
        if (o->random_input) {
            for (uint32_t i = 0; i < 2 * n; i++) {
                float v = (float)((double)next_random(&state) / 2147483648.0 - 1.0);
                put_float(in + 4 * i, v);
                ref[i] = v;
            }
        } else {    /* hello_fft.c: 0.5 at bins freq and N - freq, freq = (j + 1) mod N/2 */
            uint32_t freq = (j + 1) & (n / 2 - 1);
            ref[2 * freq] += 0.5;
            ref[2 * ((n - freq) & (n - 1))] += 0.5;
            for (uint32_t i = 0; i < 2 * n; i++)
                put_float(in + 4 * i, (float)ref[i]);
        }
        vc4_fft_reference(ref, n, o->forward ? -1 : 1);
    }

    r = &f->region[f->regions++];
    r->address = f->code_address;
    r->size = f->code_bytes;
    r->data = gt_xmalloc(r->size);
    memcpy(r->data, code, r->size);
    free(code);

    r = &f->region[f->regions++];
    r->address = f->twiddle_address;
    r->size = f->twiddle_bytes;
    r->data = gt_xcalloc(1, r->size);
    double two_pi = (o->forward ? -2.0 : 2.0) * M_PI;
    float *tw = (float *)(void *)r->data;
    for (unsigned s = 0; s < t->segments; s++)
        tw = segment(tw, t->segment[s].block, two_pi, two_pi / n * t->segment[s].multiple);
    for (unsigned q = 0; q < VC4_GPU_FFT_QPUS; q++)
        tw = segment(tw, t->unique_block, two_pi, two_pi / n * q);

    r = &f->region[f->regions++];
    r->address = uniforms;
    r->size = f->uniform_bytes;
    r->data = gt_xcalloc(1, r->size);
    for (uint32_t q = 0; q < VC4_GPU_FFT_QPUS; q++) {
        uint8_t *u = r->data + 4 * q * uniform_words;
        f->uniform_address[q] = uniforms + 4 * q * uniform_words;
        put_word(u, f->twiddle_address);
        put_word(u + 4, f->twiddle_address + BLOCK_BYTES * (t->shared + q * t->unique));
        put_word(u + 8, q);
        for (uint32_t j = 0; j < jobs; j++) {
            put_word(u + 12 + 8 * j, f->in_address[j]);
            put_word(u + 16 + 8 * j, f->in_address[j] + jobs * f->data_bytes);
        }
        put_word(u + 12 + 8 * jobs, 0);
        put_word(u + 16 + 8 * jobs, q == 0);    /* the master raises the host interrupt */
    }

    /* gpu_fft_base_exec_direct's register writes */
    static const struct vc4_gpu_fft_register setup[] = {
        { V3D_DBCFG, 0 }, { V3D_DBQITE, 0 }, { V3D_DBQITC, 0xffffffffu },
        { V3D_L2CACTL, 1u << 2 }, { V3D_SLCACTL, 0xffffffffu },
        { V3D_SRQCS, (1u << 7) | (1u << 8) | (1u << 16) },
    };
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        f->reg[f->registers++] = setup[i];
    for (uint32_t q = 0; q < VC4_GPU_FFT_QPUS; q++) {
        f->reg[f->registers++] = (struct vc4_gpu_fft_register){ V3D_SRQUA, f->uniform_address[q] };
        f->reg[f->registers++] = (struct vc4_gpu_fft_register){ V3D_SRQPC, f->code_address };
    }
    return 0;
}

double vc4_gpu_fft_relative_rms(const struct vc4_gpu_fft *f, uint32_t job, const float *output)
{
    const double *ref = f->reference + (size_t)job * f->length * 2;
    double signal = 0, error = 0;
    for (uint32_t i = 0; i < 2 * f->length; i++) {
        double d = (double)output[i] - ref[i];
        signal += ref[i] * ref[i];
        error += d * d;
    }
    return signal > 0 ? sqrt(error / signal) : sqrt(error);
}

void vc4_gpu_fft_free(struct vc4_gpu_fft *f)
{
    for (uint32_t i = 0; i < f->regions; i++)
        free(f->region[i].data);
    free(f->reference);
    memset(f, 0, sizeof *f);
}

/* gpu_fft.txt, "Accuracy" and "Throughput" (Pi 1, L2 cache enabled, milliseconds). */
double vc4_gpu_fft_published_ppm(unsigned log2n)
{
    static const double ppm[] = { 0.33, 0.46, 0.52, 0.59, 0.78, 0.83, 0.92, 0.98, 1.0, 1.3,
                                  1.3, 1.4, 1.5, 1.5, 1.5 };
    return log2n >= 8 && log2n <= 22 ? ppm[log2n - 8] : 0;
}

double vc4_gpu_fft_published_ms(unsigned log2n, unsigned batch)
{
    static const double one[] = { 0.033, 0.049, 0.070, 0.12, 0.25, 0.61, 1.2, 3.5,
                                  7.0, 17, 43, 97, 194, 388, 786 };
    static const double ten[] = { 0.017, 0.029, 0.049, 0.11, 0.27, 0.66, 1.2, 3.3 };
    if (log2n < 8 || log2n > 22)
        return 0;
    if (batch == 1)
        return one[log2n - 8];
    if (batch == 10 && log2n <= 15)
        return ten[log2n - 8];
    return 0;
}
