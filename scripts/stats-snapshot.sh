#!/usr/bin/env bash
# scripts/stats-snapshot.sh GTSIM OUTDIR - run every capture, workload and config
# combination the project has and keep each run's stats.csv (and the dumps the
# workloads check) under OUTDIR/<name>/. Two snapshots taken before and after a
# refactor are compared with `diff -r`: "no change in behaviour" means they are
# byte-identical. A change to when units are ticked (a unit sleeping through
# cycles it would have idled) moves only the host's scheduling counts; then
#   diff -r -I '\.ticks,\|\.busy_ticks,\|^sim\.steps,\|active_edges,' A B
# must still find nothing. Needs `make workloads` for the project's own AUBs.
set -euo pipefail
GTSIM=${1:?usage: stats-snapshot.sh GTSIM OUTDIR}
OUT=${2:?usage: stats-snapshot.sh GTSIM OUTDIR}
mkdir -p "$OUT"
one() {   # name, then run args
    local name=$1; shift
    local dir="$OUT/$name"
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    local rc=0
    "$GTSIM" run -q -o "$dir.tmp" "$@" >"$dir.tmp/stdout" 2>"$dir.tmp/stderr" || rc=$?
    mkdir -p "$dir"
    echo "$rc" >"$dir/exit"
    cp "$dir.tmp/stats.csv" "$dir/stats.csv" 2>/dev/null || true
    for f in "$dir.tmp"/*.bin; do [ -e "$f" ] && cp "$f" "$dir/"; done
    [ -d "$dir.tmp/images" ] && cp -r "$dir.tmp/images" "$dir/"
    rm -rf "$dir.tmp"
    echo "  $name: exit $rc"
}
T=tests/data/traces
W=build/gen/workloads
one default                  # the default job: skl_tri
one builtin.gen9-skl-gt2 builtin:fabric
for c in gen9-skl-gt3 gen9-skl-gt4 gen8-bdw-gt2 gen7-vlv gen4-g965; do
    one "builtin.$c" -c configs/$c.cfg
done
for t in skl_compute skl_tri bdw_compute bdw_tri byt_compute byt_tri g965_tri \
         skl_strip_fan skl_instanced skl_gs skl_tess skl_xfb skl_blend_stencil skl_multi_rt \
         skl_fill_heavy skl_mipmap; do
    one "$t" $T/$t.aub.gz
done
one skl_compute.gt3 -c configs/gen9-skl-gt3.cfg $T/skl_compute.aub.gz
one skl_compute.gt4 -c configs/gen9-skl-gt4.cfg $T/skl_compute.aub.gz
one skl_tri.gt4 -c configs/gen9-skl-gt4.cfg $T/skl_tri.aub.gz
one skl_compute.trace --trace $T/skl_compute.aub.gz
for w in "$W"/*.aub.gz; do
    b=$(basename "$w" .aub.gz)
    one "wl.$b" "$w"
done
one wl.sgemm.gt3 -c configs/gen9-skl-gt3.cfg "$W/sgemm.gen9.aub.gz"
one wl.sgemm.fast --set gpu.slice.subslice.eu.fast=true "$W/sgemm.gen9.aub.gz" || true
# fast mode as `make bench` runs it: the EUs call the functional data ports
one wl.sgemm.fast_functional --set gpu.slice.subslice.eu.fast=true \
    --set gpu.slice.subslice.dataport.functional=true "$W/sgemm.gen9.aub.gz" || true
one wl.tickets.fast_functional -c configs/gen9-skl-gt3.cfg --set gpu.slice.subslice.eu.fast=true \
    --set gpu.slice.subslice.dataport.functional=true "$W/tickets.gen9.aub.gz" || true
