#!/bin/bash
# scripts/soak.sh MODE GTSIM - runs workloads under a memory checker (mk/soak.mk).
#   MODE sanitizers: GTSIM is built with ASan + UBSan; the longest workloads, and two of
#                    them again on 2 host threads with every edge ticked in parallel
#                    (simulation.parallel_every_edge: the parallel engine's pools and
#                    hand-overs under ASan, which the 1-thread runs never reach).
#   MODE valgrind:   GTSIM is the release build; the short workloads under memcheck.
# Prints one line per run (workload, host seconds, result) and exits nonzero when any run
# reported an error, a leak or a sanitizer finding, or did not finish (exit status other
# than 0). GPU_FFT runs need ../shared/workloads/gpu_fft/hex and are skipped without it.
set -u
mode=${1:?usage: soak.sh sanitizers|valgrind GTSIM}
gtsim=${2:?usage: soak.sh sanitizers|valgrind GTSIM}
out=${SOAK_OUT:-out/soak}
mkdir -p "$out"
fft_hex=../shared/workloads/gpu_fft/hex

case "$mode" in
sanitizers)
    runs=(
        "configs/gen9-skl-gt2.cfg build/gen/workloads/sgemm256.gen9.aub.gz"
        "configs/gen9-skl-gt3.cfg build/gen/workloads/sgemm256.gen9.aub.gz"
        "- tests/data/traces/skl_fill_heavy.aub.gz"
        "- tests/data/traces/skl_mipmap.aub.gz"
        "- tests/data/traces/skl_tess.aub.gz"
        "- tests/data/traces/skl_msaa.aub.gz"
        "- tests/data/vc4/vc4_strip_fan.vc4dump.gz"
        "- gpu_fft:log2n=12"
        "configs/gen9-skl-gt3.cfg build/gen/workloads/sgemm256.gen9.aub.gz 2"
        "- tests/data/traces/skl_fill_heavy.aub.gz 2"
    )
    export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:exitcode=86
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    wrap=()
    ;;
valgrind)
    command -v valgrind >/dev/null 2>&1 ||
        { echo "soak.sh: valgrind is not installed (Debian package valgrind; make deps)" >&2; exit 1; }
    runs=(
        "- tests/data/traces/skl_tri.aub.gz"
        "- tests/data/traces/skl_compute.aub.gz"
        "- tests/data/traces/bdw_tri.aub.gz"
        "- tests/data/traces/bdw_compute.aub.gz"
        "- tests/data/traces/byt_tri.aub.gz"
        "- tests/data/traces/byt_compute.aub.gz"
        "- tests/data/traces/g965_tri.aub.gz"
        "- tests/data/vc4/vc4_tri.vc4dump.gz"
        "- gpu_fft:log2n=8"
    )
    # --threads 1: memcheck runs one host thread at a time anyway
    wrap=(valgrind --quiet --error-exitcode=86 --leak-check=full
          --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect)
    ;;
*)
    echo "soak.sh: unknown mode '$mode' (sanitizers or valgrind)" >&2
    exit 2
    ;;
esac

failed=0
ran=0
for r in "${runs[@]}"; do
    # "CONFIG WORKLOAD [THREADS]": CONFIG - for the workload's own; THREADS 1 unless given
    read -r config workload threads <<< "$r"
    threads=${threads:-1}
    name=$(basename "${workload%%.*}" | tr ':=,' '___')
    [ "$config" != - ] && name="$name.$(basename "$config" .cfg)"
    [ "$threads" != 1 ] && name="$name.${threads}threads"
    if [[ $workload == gpu_fft:* ]] && [ ! -d "$fft_hex" ]; then
        printf '%-40s skipped (no %s)\n' "$name" "$fft_hex"
        continue
    fi
    if [[ $workload != gpu_fft:* ]] && [ ! -f "$workload" ]; then
        printf '%-40s missing %s\n' "$name" "$workload"
        failed=1
        continue
    fi
    args=(run --quiet --no-images --threads "$threads" -o "$out/$name")
    [ "$threads" != 1 ] && args+=(--set simulation.parallel_every_edge=1)
    [ "$config" != - ] && args+=(-c "$config")
    start=$(date +%s.%N)
    "${wrap[@]}" "$gtsim" "${args[@]}" "$workload" >"$out/$name.log" 2>&1
    status=$?
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    ran=$((ran + 1))
    if [ $status -eq 0 ]; then
        printf '%-40s %8.1f s  clean\n' "$name" "$seconds"
    else
        printf '%-40s %8.1f s  FAILED (exit %d; %s)\n' "$name" "$seconds" $status "$out/$name.log"
        grep -m5 -E "ERROR|runtime error|definitely lost|indirectly lost|Invalid|uninitialised" \
            "$out/$name.log" | sed 's/^/    /'
        failed=1
    fi
done
echo "soak.sh $mode: $ran runs, $([ $failed -eq 0 ] && echo 'no findings' || echo 'FINDINGS (above)')"
exit $failed
