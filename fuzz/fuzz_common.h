/* fuzz/fuzz_common.h - what the libFuzzer targets share: a fuzz input as a
 * file (the readers under test take paths), and a small Gen9 machine playing a
 * capture under a cycle limit.
 *
 * A finding is a crash, a sanitizer report, a leak, or a real hang: the
 * watchdog stopping a run in which no unit logged an error (bad input that is
 * counted and logged, then stops a unit, is a clean stop, not a finding). A run
 * that reaches the cycle limit is not a finding either (a capture may loop).
 * The targets run from the repository root (configs/ is read from there).
 */
#ifndef GTSIM_FUZZ_COMMON_H
#define GTSIM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to a per-process file /tmp/gtsim-fuzz-<pid><suffix>; path gets
 * its name. Aborts when the file cannot be written (not a finding of the model). */
void fuzz_write_temp(const uint8_t *data, size_t size, const char *suffix, char *path,
                     size_t path_size);

/* Writes a capture holding data's dwords (at most 16384) as one ring write:
 * a memtrace version block naming SKL GT2 (PCI id 0x1912), then a ring
 * COMMAND_WRITE block (fabric/aub.h's writer), so the host hands the dwords to
 * the CS inline (CS_MMIO_RING_DATA). path gets the file's name. */
void fuzz_write_ring_capture(const uint8_t *data, size_t size, char *path, size_t path_size);

/* Cycles a fuzzed machine run may take; the watchdog's no-progress window. */
#define FUZZ_MAX_CYCLES 200000u
#define FUZZ_WATCHDOG_CYCLES 20000u

/* What fuzz_run_capture returns beside a sim_stop_reason. */
#define FUZZ_REJECTED (-1)  /* the machine could not be built: a clean rejection */
#define FUZZ_HANG 1000      /* the watchdog stopped a run with no error logged: a finding */

/* Runs the AUB capture at aub_path on configs/gen9-skl-gt2.cfg with one
 * subslice, errors-only logging and the cycle limit above. Returns the sim's
 * stop reason, FUZZ_REJECTED or FUZZ_HANG (after printing the watchdog's
 * report). Shared by the fuzz targets (which abort on FUZZ_HANG) and the
 * regression test of their findings (tests/integration/test_fuzz_regressions.c). */
int fuzz_run_capture(const char *aub_path);

/* A finding of fuzz_run_capture_threads: two runs that should agree do not. */
#define FUZZ_DIVERGED 1001

/* Plays the capture at aub_path on configs/gen9-skl-gt2.cfg with two subslices
 * (errors-only logging, the limits above) three times: on one host thread; on
 * two with every edge whose units are on both ticked in parallel
 * (simulation.parallel_every_edge); and on one with each cycle's units
 * ticked in a shuffled order (simulation.tick_order_seed). Returns 0 when the
 * runs agree: the same stop reason, simulated time, every stat row (path and
 * value) and GPU memory (gpu_memory_digest); FUZZ_DIVERGED, after printing
 * the first difference, when they do not; FUZZ_REJECTED when the machine
 * cannot be built; FUZZ_HANG when the first run hangs (a hang of a later one
 * alone is FUZZ_DIVERGED). */
int fuzz_run_capture_threads(const char *aub_path);

/* The comparison under it for two runs: the capture played with sets_a, then
 * with sets_b (each after the common sets above); returns as it does. */
int fuzz_compare_capture(const char *aub_path, const char *const *sets_a, int count_a,
                         const char *const *sets_b, int count_b);

/* The same for a VideoCore IV submit dump on FUZZ_VC4_CONFIG (the config
 * `gtsim run FILE.vc4dump` picks), errors-only logging, the same limits. */
#define FUZZ_VC4_CONFIG "configs/vc4-bcm2835.cfg"
int fuzz_run_vc4_dump(const char *dump_path);

#endif
