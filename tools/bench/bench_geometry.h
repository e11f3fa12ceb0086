/* tools/bench/bench_geometry.h - the geometry pipeline's figures (see bench_geometry.c). */
#ifndef GTSIM_TOOLS_BENCH_GEOMETRY_H
#define GTSIM_TOOLS_BENCH_GEOMETRY_H

void bench_geometry(void);

#endif
