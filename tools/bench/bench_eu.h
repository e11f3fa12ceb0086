/* tools/bench/bench_eu.h - EU execution speed (see bench_eu.c). */
#ifndef GTSIM_TOOLS_BENCH_EU_H
#define GTSIM_TOOLS_BENCH_EU_H

void bench_eu(void);

#endif
