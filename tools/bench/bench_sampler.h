/* tools/bench/bench_sampler.h - the sampler's figures (see bench_sampler.c). */
#ifndef GTSIM_TOOLS_BENCH_SAMPLER_H
#define GTSIM_TOOLS_BENCH_SAMPLER_H

void bench_sampler(void);

#endif
