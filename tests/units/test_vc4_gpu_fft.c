/* tests/units/test_vc4_gpu_fft.c - the GPU_FFT workload (units/vc4_host/vc4_gpu_fft): the CPU
 * reference against a direct DFT written here, the batch's layout, uniforms, twiddles and
 * register writes against GPU_FFT 3.0's host-side facts (vc4_gpu_fft.h cites them), and the
 * whole VideoCore IV machine running GPU_FFT's own shaders for 2^8..2^12 points.
 * GPU_FFT's shaders live in ../shared/workloads/gpu_fft/hex: they are read from there at test
 * time and never copied into the project; the cases that need them skip when it is absent. The
 * layout cases use a stand-in shader file of four words written here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "units/vc4_host/vc4_gpu_fft.h"

#define HEX_DIR "../shared/workloads/gpu_fft/hex"

static bool shaders_present(const char *who)
{
    if (access(HEX_DIR "/shader_256.hex", R_OK) == 0)
        return true;
    printf("\n  [vc4_gpu_fft] %s absent: %s skipped ", HEX_DIR, who);
    return false;
}

/* the reference FFT equals a direct O(n^2) DFT, both signs */
static void test_reference_is_a_dft(void)
{
    for (uint32_t n = 2; n <= 64; n *= 2) {
        for (int sign = -1; sign <= 1; sign += 2) {
            double x[128], y[128];
            for (uint32_t i = 0; i < 2 * n; i++)
                x[i] = y[i] = sin(1.0 + 0.37 * i * i) + 0.25 * (i % 3);
            vc4_fft_reference(y, n, sign);
            double worst = 0;
            for (uint32_t k = 0; k < n; k++) {
                double re = 0, im = 0;
                for (uint32_t j = 0; j < n; j++) {
                    double a = sign * 2 * M_PI * (double)j * k / n;
                    re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
                    im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
                }
                worst = fmax(worst, fabs(re - y[2 * k]) + fabs(im - y[2 * k + 1]));
            }
            CU_ASSERT_TRUE(worst < 1e-9);
        }
    }
}

static void fake_shaders(char *dir, size_t size)
{
    snprintf(dir, size, "%s/hex", test_temp_dir());
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    static const char *const names[] = { "256", "512", "1k", "2k", "4k" };
    for (unsigned i = 0; i < 5; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/shader_%s.hex", dir, names[i]);
        FILE *f = fopen(path, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fprintf(f, "0x00000040, 0xe00217a7, // mov rb_0x40, 0x40 (0xdead is not a word)\n"
                   "0x00000000, 0x300009e7, // thrend\n");
        fclose(f);
    }
}

static const uint8_t *region_at(const struct vc4_gpu_fft *f, uint32_t address)
{
    for (uint32_t r = 0; r < f->regions; r++)
        if (address >= f->region[r].address && address < f->region[r].address + f->region[r].size)
            return f->region[r].data + (address - f->region[r].address);
    return NULL;
}

static uint32_t word_at(const struct vc4_gpu_fft *f, uint32_t address)
{
    const uint8_t *p = region_at(f, address);
    uint32_t v = 0xdeadbeefu;
    if (p)
        memcpy(&v, p, 4);
    return v;
}

static float float_at(const struct vc4_gpu_fft *f, uint32_t address)
{
    uint32_t w = word_at(f, address);
    float v;
    memcpy(&v, &w, 4);
    return v;
}

/* gpu_fft.c's layout for 2^8 and 2^12 points, batch 3: buffers of 1 + ((8N) | 4095) bytes
 * after the 4 KiB header, inputs then outputs; code, twiddles, uniforms follow; 2 passes (in
 * place) for 2^8, 3 (out of place) for 2^12; uniforms 5 + 2 x jobs words per QPU */
static void test_layout_and_uniforms(void)
{
    char dir[1024];
    fake_shaders(dir, sizeof dir);
    struct vc4_gpu_fft_options o;
    struct gt_error err;
    char name[1200];
    snprintf(name, sizeof name, "gpu_fft:log2n=8,batch=3,hex=%s", dir);
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_parse(name, &o, &err), 0);
    struct vc4_gpu_fft f;
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_prepare(&o, &f, &err), 0);
    CU_ASSERT_EQUAL(f.data_bytes, 4096u);           /* (2048 | 4095) + 1 */
    CU_ASSERT_EQUAL(f.code_bytes, 16u);
    CU_ASSERT_EQUAL(f.twiddle_bytes, 128u * (2 + 8 * 1));
    uint32_t data = 0x40000000u + 0x08000000u + 4096u;
    CU_ASSERT_EQUAL(f.in_address[0], data);
    CU_ASSERT_EQUAL(f.in_address[2], data + 2 * 4096u);
    CU_ASSERT_EQUAL(f.out_address[1], f.in_address[1]);     /* even passes: in place */
    CU_ASSERT_EQUAL(f.code_address, data + 6 * 4096u);
    CU_ASSERT_EQUAL(f.twiddle_address, f.code_address + 16);
    CU_ASSERT_EQUAL(word_at(&f, f.code_address), 0x40u);
    CU_ASSERT_EQUAL(word_at(&f, f.code_address + 12), 0x300009e7u);
    for (uint32_t q = 0; q < 8; q++) {
        uint32_t u = f.uniform_address[q];
        CU_ASSERT_EQUAL(u, f.twiddle_address + f.twiddle_bytes + q * 4 * (5 + 6));
        CU_ASSERT_EQUAL(word_at(&f, u), f.twiddle_address);
        CU_ASSERT_EQUAL(word_at(&f, u + 4), f.twiddle_address + 128 * (2 + q));
        CU_ASSERT_EQUAL(word_at(&f, u + 8), q);
        for (uint32_t j = 0; j < 3; j++) {
            CU_ASSERT_EQUAL(word_at(&f, u + 12 + 8 * j), data + j * 4096u);
            CU_ASSERT_EQUAL(word_at(&f, u + 16 + 8 * j), data + (3 + j) * 4096u);
        }
        CU_ASSERT_EQUAL(word_at(&f, u + 36), 0u);
        CU_ASSERT_EQUAL(word_at(&f, u + 40), q == 0 ? 1u : 0u);
    }
    /* hello_fft's input: job 1 holds 0.5 at bins 2 and 254 */
    CU_ASSERT_EQUAL(float_at(&f, f.in_address[1] + 8 * 2), 0.5f);
    CU_ASSERT_EQUAL(float_at(&f, f.in_address[1] + 8 * 254), 0.5f);
    CU_ASSERT_EQUAL(float_at(&f, f.in_address[1] + 8 * 3), 0.0f);
    /* its reference: the inverse transform of that pair is cos(2 pi 2 i / 256) */
    CU_ASSERT_DOUBLE_EQUAL(f.reference[2 * 256 + 2 * 10], cos(2 * M_PI * 2 * 10 / 256), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.reference[2 * 256 + 2 * 10 + 1], 0, 1e-12);
    /* the registers of gpu_fft_base_exec_direct: 6 set-up writes, then SRQUA, SRQPC per QPU */
    CU_ASSERT_EQUAL(f.registers, 6u + 16u);
    CU_ASSERT_EQUAL(f.reg[3].offset, 0x020u);    /* V3D_L2CACTL: clear */
    CU_ASSERT_EQUAL(f.reg[3].value, 4u);
    CU_ASSERT_EQUAL(f.reg[5].offset, 0x43cu);    /* V3D_SRQCS */
    CU_ASSERT_EQUAL(f.reg[5].value, 0x10180u);
    CU_ASSERT_EQUAL(f.reg[6 + 2 * 7].offset, 0x434u);
    CU_ASSERT_EQUAL(f.reg[6 + 2 * 7].value, f.uniform_address[7]);
    CU_ASSERT_EQUAL(f.reg[6 + 2 * 7 + 1].offset, 0x430u);
    CU_ASSERT_EQUAL(f.reg[6 + 2 * 7 + 1].value, f.code_address);
    vc4_gpu_fft_free(&f);

    snprintf(name, sizeof name, "gpu_fft:log2n=12,batch=2,cached=0,hex=%s", dir);
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_parse(name, &o, &err), 0);
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_prepare(&o, &f, &err), 0);
    CU_ASSERT_EQUAL(f.data_bytes, 32768u + 4096u);  /* (32768 | 4095) + 1 */
    CU_ASSERT_EQUAL(f.passes, 3u);
    CU_ASSERT_EQUAL(f.in_address[0], 0xc0000000u + 0x08000000u + 4096u);
    CU_ASSERT_EQUAL(f.out_address[1], f.in_address[1] + 2 * f.data_bytes);   /* odd: out */
    vc4_gpu_fft_free(&f);
}

/* twiddle values from their definitions, computed here (vc4_gpu_fft.c's block comment): the
 * 2^8 inverse batch's shared base block at angle 0, its step block at 2 pi 8 / 256, and QPU
 * 3's unique base block at 2 pi 3 / 256 */
static void test_twiddles_256(void)
{
    char dir[1024];
    fake_shaders(dir, sizeof dir);
    struct vc4_gpu_fft_options o;
    struct gt_error err;
    char name[1200];
    snprintf(name, sizeof name, "gpu_fft:log2n=8,hex=%s", dir);
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_parse(name, &o, &err), 0);
    struct vc4_gpu_fft f;
    CU_ASSERT_EQUAL_FATAL(vc4_gpu_fft_prepare(&o, &f, &err), 0);
    /* 16-lane order: lane 0 factor 0; 1: factor 8 index 0; 2-3: factor 4; 4-7: 2; 8-15: 1 */
    static const double factor[16] = { 0, 8, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1 };
    static const double index[16] = { 0, 0, 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7 };
    uint32_t tw = f.twiddle_address;
    double two_pi = 2 * M_PI;   /* inverse */
    for (unsigned l = 0; l < 16; l++) {
        double a = two_pi / 16 * factor[l] * index[l];
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 8 * l), cos(a), 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 8 * l + 4), sin(a), 1e-7);
        double d = two_pi / 256 * 8 * factor[l];
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 128 + 8 * l), 1 - cos(d), 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 128 + 8 * l + 4), sin(d), 1e-7);
        double u = a + two_pi / 256 * 3 * factor[l];
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 128 * (2 + 3) + 8 * l), cos(u), 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 128 * (2 + 3) + 8 * l + 4), sin(u), 1e-7);
    }
    CU_ASSERT_DOUBLE_EQUAL(float_at(&f, tw + 8 * 3 + 4), 1.0, 1e-7);   /* e^(i pi/2) */
    vc4_gpu_fft_free(&f);
}

static void test_bad_names(void)
{
    struct vc4_gpu_fft_options o;
    struct gt_error err;
    CU_ASSERT_FALSE(vc4_gpu_fft_is_workload("gpu_fftx"));
    CU_ASSERT_TRUE(vc4_gpu_fft_is_workload("gpu_fft"));
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft", &o, &err), 0);
    CU_ASSERT_EQUAL(o.log2n, 8u);
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:log2n=13", &o, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "log2n"));
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:batch=0", &o, &err), -1);
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:size=8", &o, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "unknown key"));
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:dir=up", &o, &err), -1);
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:base=0x1001", &o, &err), -1);
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:log2n", &o, &err), -1);
    CU_ASSERT_EQUAL(vc4_gpu_fft_parse("gpu_fft:hex=/nonexistent/dir", &o, &err), 0);
    struct vc4_gpu_fft f;
    CU_ASSERT_EQUAL(vc4_gpu_fft_prepare(&o, &f, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/dir/shader_256.hex"));
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

static int run_on(const char *config, const char *dir, const char *workload, const char *out,
                  char *csv, size_t size)
{
    char args[2048], path[1024];
    snprintf(args, sizeof args, "%s run -q %s%s -o %s/%s %s >%s/%s.stdout 2>%s/%s.stderr "
             "</dev/null", test_gtsim_binary(), config ? "-c " : "", config ? config : "", dir,
             out, workload, dir, out, dir, out);
    int s = system(args);
    snprintf(path, sizeof path, "%s/%s/stats.csv", dir, out);
    slurp(path, csv, size);
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}

static int run(const char *dir, const char *workload, const char *out, char *csv, size_t size)
{
    return run_on(NULL, dir, workload, out, csv, size);
}

/* GPU_FFT's own shaders on the BCM2835 machine: the output of every length 2^8..2^12 is the
 * CPU FFT within gpu_fft.txt's typical rms error (the host unit's check; the test asserts the
 * figure itself against the table copied here from gpu_fft.txt) */
static void test_gpu_fft_end_to_end(void)
{
    if (!shaders_present("GPU_FFT end to end"))
        return;
    static const double published_ppm[] = { 0.33, 0.46, 0.52, 0.59, 0.78 };
    static char csv[1 << 21];
    const char *dir = test_temp_dir();
    for (unsigned log2n = 8; log2n <= 12; log2n++) {
        char workload[64], out[16];
        snprintf(workload, sizeof workload, "gpu_fft:log2n=%u", log2n);
        snprintf(out, sizeof out, "fft%u", log2n);
        CU_ASSERT_EQUAL(run(dir, workload, out, csv, sizeof csv), 0);
        CU_ASSERT_EQUAL(csv_value(csv, "host.gpu_fft.transforms"), 1);
        CU_ASSERT_EQUAL(csv_value(csv, "host.gpu_fft.within_accuracy"), 1);
        double ppm = csv_value(csv, "host.gpu_fft.rms_error_ppm");
        CU_ASSERT_TRUE(ppm >= 0 && ppm <= published_ppm[log2n - 8]);
        CU_ASSERT_EQUAL(csv_value(csv, "gpu.v3d.user_completions"), 8);
        /* every QPU ends with `mov interrupt, flag`, the flag 1 for QPU 0 only; the seed
         * (002 "Host Interrupt") has any write raise it, so 8 latch, one from QPU 0 */
        CU_ASSERT_EQUAL(csv_value(csv, "gpu.v3d.host_interrupts"), 8);
        CU_ASSERT_EQUAL(csv_value(csv, "gpu.slice0.qpu0.host_interrupts"), 1);
        CU_ASSERT_TRUE(csv_value(csv, "host.busy_cycles") > 0);
        /* GPU_FFT keeps the seed's rules: its complementary-condition double writes
         * (mov.zs r0, .. ; mov.zc r0, ..) are not flagged, no restriction is broken */
        CU_ASSERT_EQUAL(csv_value(csv, "gpu.slice0.qpu0.illegal_instructions"), 0);
        CU_ASSERT_EQUAL(csv_value(csv, "gpu.slice0.qpu0.restriction.regfile_read_after_write"), 0);
    }
}

/* a batch of random forward transforms (not hello_fft's tone): every job checked */
static void test_gpu_fft_random_batch(void)
{
    if (!shaders_present("GPU_FFT random batch"))
        return;
    static char csv[1 << 21];
    CU_ASSERT_EQUAL(run(test_temp_dir(), "gpu_fft:log2n=10,batch=3,dir=fwd,input=random,seed=7",
                        "fftr", csv, sizeof csv), 0);
    CU_ASSERT_EQUAL(csv_value(csv, "host.gpu_fft.transforms"), 3);
    CU_ASSERT_EQUAL(csv_value(csv, "host.gpu_fft.within_accuracy"), 3);
    CU_ASSERT_TRUE(csv_value(csv, "host.gpu_fft.rms_error_ppm") <= 0.52);
}

/* the BCM2837 (Pi 3) machine: the same V3D at 300 MHz instead of 250, so the same cycles take
 * 250/300 of the time; the direct alias (cached=0) as GPU_FFT uses on a Pi 2 or 3 */
static void test_gpu_fft_on_bcm2837(void)
{
    if (!shaders_present("GPU_FFT on the BCM2837"))
        return;
    static char csv[1 << 21];
    const char *dir = test_temp_dir();
    CU_ASSERT_EQUAL(run_on("configs/vc4-bcm2835.cfg", dir, "gpu_fft:log2n=9,cached=0", "pi1",
                           csv, sizeof csv), 0);
    double cycles = csv_value(csv, "host.busy_cycles");
    double us = csv_value(csv, "host.gpu_fft.us_per_transform");
    CU_ASSERT_DOUBLE_EQUAL(us, cycles / 250.0, 1e-6);
    CU_ASSERT_EQUAL(run_on("configs/vc4-bcm2837.cfg", dir, "gpu_fft:log2n=9,cached=0", "pi3",
                           csv, sizeof csv), 0);
    CU_ASSERT_EQUAL(csv_value(csv, "host.gpu_fft.within_accuracy"), 1);
    CU_ASSERT_EQUAL(csv_value(csv, "host.busy_cycles"), cycles);
    /* (300 MHz is a 3333 ps period: clock periods are whole picoseconds) */
    CU_ASSERT_DOUBLE_EQUAL(csv_value(csv, "host.gpu_fft.us_per_transform"), us * 250 / 300,
                           us * 1e-4);
}

/* a shader folder that is not there is a clear error, not a crash */
static void test_gpu_fft_missing_shaders(void)
{
    static char csv[1 << 16];
    const char *dir = test_temp_dir();
    CU_ASSERT_EQUAL(run(dir, "gpu_fft:hex=/nonexistent", "fftm", csv, sizeof csv), 1);
    char path[1024], err[4096];
    snprintf(path, sizeof path, "%s/fftm.stderr", dir);
    slurp(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/shader_256.hex"));
}

static const struct test_case cases[] = {
    { "CPU reference FFT equals a direct DFT", test_reference_is_a_dft },
    { "GPU_FFT layout, uniforms, input and registers", test_layout_and_uniforms },
    { "GPU_FFT 2^8 twiddles from their definitions", test_twiddles_256 },
    { "gpu_fft workload names: defaults and bad values", test_bad_names },
    { "GPU_FFT 2^8..2^12 on the BCM2835 within gpu_fft.txt's accuracy", test_gpu_fft_end_to_end },
    { "GPU_FFT random forward batch of three", test_gpu_fft_random_batch },
    { "GPU_FFT on the BCM2837 (Pi 3) config", test_gpu_fft_on_bcm2837 },
    { "GPU_FFT without its shader folder", test_gpu_fft_missing_shaders },
    { 0 }
};
TEST_SUITE(vc4_gpu_fft, cases);
