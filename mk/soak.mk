# mk/soak.mk - long runs under the sanitizers, and valgrind memcheck on the short ones
# (issue 18 item 5). Neither is in `make test` (minutes each); both exit nonzero on any
# report. scripts/soak.sh runs the workloads and prints one line each (seconds, result).
#
#   make soak       the longest workloads (SGEMM 256 on GT2 and GT3, fill_heavy, mipmap, tess,
#                   msaa, GPU_FFT 2^12 when ../shared/workloads/gpu_fft is there, the
#                   VideoCore IV strip/fan) on build/san/gtsim: ASan + UBSan, leaks checked,
#                   any report fails the run; SGEMM 256 GT3 and fill_heavy again on 2 host
#                   threads with every edge ticked in parallel (the parallel engine, issue 19)
#   make valgrind   the short captures (tri and compute of every generation, vc4_tri, GPU_FFT
#                   2^8) on build/release/gtsim under valgrind memcheck: any error or definite
#                   or indirect leak fails the run (Debian package valgrind)

.PHONY: soak valgrind

## soak: the longest workloads under ASan + UBSan (leaks too); any report fails (minutes)
soak: workloads
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/san build/san/gtsim
	scripts/soak.sh sanitizers build/san/gtsim

## valgrind: the short captures on the release build under valgrind memcheck; any error fails
valgrind: $(GTSIM)
	scripts/soak.sh valgrind $(GTSIM)
