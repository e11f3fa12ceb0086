/* tools/bench/bench_sgemm.h - the tiled SGEMM workload on GT2 and GT3 (see bench_sgemm.c). */
#ifndef GTSIM_TOOLS_BENCH_SGEMM_H
#define GTSIM_TOOLS_BENCH_SGEMM_H

void bench_sgemm(void);

#endif
