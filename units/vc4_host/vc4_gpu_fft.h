/* units/vc4_host/vc4_gpu_fft.h - a GPU_FFT 3.0 batch built as the library's host side builds
 * it, for the VideoCore IV machine to run (issue 15 item 5), and the check of its output
 * against a CPU FFT computed here.
 *
 * Facts carried over (never code) from GPU_FFT release 3.0's host side (Andrew Holme, 2015;
 * raspberrypi/userland host_applications/linux/apps/hello_pi/hello_fft: gpu_fft.c,
 * gpu_fft_base.c, gpu_fft_twiddles.c; ../shared/workloads/gpu_fft/README.md, gpu_fft.txt):
 *  - 8 QPUs run one program each (GPU_FFT_QPUS); every QPU gets its own uniforms block of
 *    5 + 2 x jobs words: the shared twiddles address, this QPU's unique twiddles address
 *    (shared + q x unique blocks on), q, then per job the input and the output buffer
 *    addresses, then 0, then 1 for QPU 0 only (it raises the host interrupt at the end);
 *  - one allocation laid out as: a 4096-byte header (the host's, unused by the GPU), 2 x jobs
 *    data buffers of (1 + ((8 << log2_N) | 4095)) bytes each (jobs inputs, then jobs outputs),
 *    the shader code, the twiddles (16 complex floats a block: shared + 8 x unique blocks),
 *    the uniforms; bus addresses in the L2-cached alias (mem_lock of a GPU_MEM_FLG 0xC block,
 *    0x40000000) or, with cached=0, the direct alias (0xC0000000);
 *  - the pass count (2 for log2_N 8..11, 3 for 12..16): an odd count leaves the result in
 *    the second buffer of each job, an even count in the first (in place);
 *  - the twiddle tables per length (which base and step blocks, at which angles) and their
 *    definitions (the values here are computed by our own code from those definitions);
 *  - the submission when the batch is short (gpu_fft_base_exec_direct): V3D_DBCFG = 0,
 *    V3D_DBQITE = 0, V3D_DBQITC = ~0, V3D_L2CACTL = 4 (clear the L2), V3D_SLCACTL = ~0 (clear
 *    the slice caches), V3D_SRQCS = bits 7, 8, 16 (reset the error bit and both counts), then
 *    per QPU V3D_SRQUA = its uniforms and V3D_SRQPC = the code, then polling V3D_SRQCS until
 *    QPURQCC counts 8 completions (here: a CS_MMIO_SYNC the V3D unit answers at that point).
 *    GPU_FFT writes no V3D_SRQUL: the length the scheduler holds (0 after reset here, read
 *    as no limit by the QPU model) is used.
 *  - hello_fft's test input: job j holds 0.5 at bins (j+1) and N-(j+1) (mod N/2), so the
 *    output is a cosine; its error measure is the relative rms error
 *    sqrt(sum |out - ref|^2 / sum |ref|^2), which gpu_fft.txt tabulates in ppm.
 * Only the five kernels in ../shared/workloads/gpu_fft/hex (log2_N 8..12) exist there; the
 * shader words are read from that folder at run time and never copied into the project.
 *
 * Workload name (gtsim run NAME):
 *   gpu_fft[:KEY=VALUE,...]  keys: log2n (8..12, default 8), batch (jobs, 1..64, default 1),
 *   dir (fwd or rev, default rev as hello_fft), input (tone: hello_fft's; random: complex
 *   values uniform in [-1, 1), default tone), seed (random input's seed), cached (1: the L2
 *   alias, 0: the direct alias; default 1), hex (the folder of shader_*.hex, default
 *   ../shared/workloads/gpu_fft/hex), base (the allocation's physical address, 4 KiB aligned,
 *   default 0x08000000).
 * Not modelled: the mailbox path (execute_qpu, used for long batches), the host's header
 * contents, the ARM's time to fill the buffers and poke the registers.
 */
#ifndef GTSIM_UNITS_VC4_GPU_FFT_H
#define GTSIM_UNITS_VC4_GPU_FFT_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"

#define VC4_GPU_FFT_QPUS 8
#define VC4_GPU_FFT_MIN_LOG2N 8
#define VC4_GPU_FFT_MAX_LOG2N 12
#define VC4_GPU_FFT_MAX_BATCH 64
#define VC4_GPU_FFT_PATH_MAX 512

struct vc4_gpu_fft_options {
    unsigned log2n, batch;
    bool forward, cached, random_input;
    uint32_t seed, base;
    char hex_dir[VC4_GPU_FFT_PATH_MAX];
};

struct vc4_gpu_fft_region {
    uint32_t address, size;     /* bus address */
    uint8_t *data;
};

struct vc4_gpu_fft_register {
    uint32_t offset, value;     /* V3D register offset (Table 48) */
};

enum { VC4_GPU_FFT_REGIONS = 4, VC4_GPU_FFT_REGISTERS = 6 + 2 * VC4_GPU_FFT_QPUS };

struct vc4_gpu_fft {
    struct vc4_gpu_fft_options options;
    unsigned passes, shared, unique;    /* twiddle blocks of 16 complex values */
    uint32_t length;                    /* N */
    uint32_t data_bytes, code_bytes, twiddle_bytes, uniform_bytes;
    uint32_t code_address, twiddle_address, uniform_address[VC4_GPU_FFT_QPUS];
    uint32_t in_address[VC4_GPU_FFT_MAX_BATCH], out_address[VC4_GPU_FFT_MAX_BATCH];
    /* memory images: data buffers (inputs filled), code, twiddles, uniforms */
    struct vc4_gpu_fft_region region[VC4_GPU_FFT_REGIONS];
    uint32_t regions;
    struct vc4_gpu_fft_register reg[VC4_GPU_FFT_REGISTERS];
    uint32_t registers;
    double *reference;                  /* batch x N complex (re, im): the expected output */
};

/* Whether a workload name asks for a GPU_FFT batch ("gpu_fft" or "gpu_fft:..."). */
bool vc4_gpu_fft_is_workload(const char *name);

/* Parses a workload name into options (defaults above); -1 with a message on a bad key or
 * value. */
int vc4_gpu_fft_parse(const char *name, struct vc4_gpu_fft_options *o, struct gt_error *err);

/* Builds the batch: reads the shader of the length from the hex folder (-1 naming the file
 * when absent), computes the twiddles, uniforms, input and the reference output. */
int vc4_gpu_fft_prepare(const struct vc4_gpu_fft_options *o, struct vc4_gpu_fft *f,
                        struct gt_error *err);

/* The relative rms error of one job's output (N complex floats, re then im) against the
 * reference: sqrt(sum |out - ref|^2 / sum |ref|^2). */
double vc4_gpu_fft_relative_rms(const struct vc4_gpu_fft *f, uint32_t job, const float *output);

void vc4_gpu_fft_free(struct vc4_gpu_fft *f);

/* gpu_fft.txt's tables: typical rms error in ppm, and the Pi 1's per-transform runtime in
 * milliseconds for a batch of 1 or 10 (0 when the table has no figure). */
double vc4_gpu_fft_published_ppm(unsigned log2n);
double vc4_gpu_fft_published_ms(unsigned log2n, unsigned batch);

/* Every 0x-prefixed token of a C-array text (`//` comments skipped) as 32-bit words, appended
 * to *words (grown with gt_xrealloc); returns the new count. */
uint32_t vc4_hex_words(const char *text, uint32_t **words, uint32_t count);

/* A forward (sign -1) or inverse (sign +1) unscaled DFT of n = 2^k complex doubles
 * (re, im interleaved), in place: the CPU reference. */
void vc4_fft_reference(double *data, uint32_t n, int sign);

#endif
