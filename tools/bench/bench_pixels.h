/* tools/bench/bench_pixels.h - the pixel pipeline's figures (see bench_pixels.c). */
#ifndef GTSIM_TOOLS_BENCH_PIXELS_H
#define GTSIM_TOOLS_BENCH_PIXELS_H

void bench_pixels(void);

#endif
