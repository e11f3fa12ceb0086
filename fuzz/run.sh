#!/usr/bin/env bash
# fuzz/run.sh SECONDS TARGET... - runs each libFuzzer target of build/fuzz/ for
# SECONDS, one at a time in one process each (the machine is shared), on a corpus in
# build/fuzz/corpus/<target> seeded from tests/data and configs/ (small files,
# or the first 64 KiB of a capture), then prints per target the executions,
# libFuzzer's coverage (cov: edges, ft: features) and the findings (files in
# build/fuzz/findings/<target>/). Exit status 1 when any target has a finding.
# FUZZ_SEED=N (make fuzz-smoke sets 1): libFuzzer's -seed, so that a run
# mutates the same inputs in the same order on every machine (a slower machine
# runs a prefix of them) and a finding can be found again; unset: a new seed
# each run (make fuzz).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=$1
shift
B=build/fuzz
mkdir -p "$B/seeds" "$B/logs"

seed_dir() {    # target -> directory of seeds, made once
    local t=$1 d="$B/seeds/$1"
    [ -d "$d" ] && { echo "$d"; return; }
    mkdir -p "$d"
    case $t in
    aub|machine|threads)
        for c in skl_compute skl_tri bdw_tri byt_compute g965_tri; do
            zcat "tests/data/traces/$c.aub.gz" | head -c 65536 > "$d/$c.head.aub"
        done
        cp tests/data/traces/byt_compute.aub.gz "$d/"
        # the captures fuzzing found (a clang smoke run sees what gcc's
        # sanitizers in test-san do not, such as an offset of a null pointer)
        cp tests/data/fuzz/machine/* tests/data/fuzz/threads/* "$d/" ;;
    cs_batch)
        cp tests/data/traces/skl_compute.batch.*.bin tests/data/traces/bdw_compute.batch.*.bin \
           tests/data/traces/skl_tri.batch.*.bin tests/data/traces/bdw_tri.batch.*.bin "$d/" ;;
    config)
        cp configs/*.cfg "$d/"
        cp configs/fragments/*.cfg "$d/" ;;
    eu_decode)   # first byte: generation index (0 Gen4, 1 Gen7, 2 Gen8, 3 Gen9)
        for f in tests/data/eu/aub/*.gen8.bin; do { printf '\x02'; cat "$f"; } > "$d/$(basename "$f")"; done
        for f in tests/data/eu/aub/*.gen8.bin; do { printf '\x03'; cat "$f"; } > "$d/$(basename "$f" .bin).as9.bin"; done
        for f in tests/data/eu/*.g4a tests/data/eu/exec/*.g4a; do { printf '\x03'; cat "$f"; } > "$d/$(basename "$f")"; done ;;
    eu_exec)     # 64 bytes of payload registers, then the kernel
        for f in tests/data/eu/aub/*.gen8.bin; do { head -c 64 /dev/zero; cat "$f"; } > "$d/$(basename "$f")"; done ;;
    eu_fast)     # generation index (0 Gen7, 1 Gen8, 2 Gen9), one instruction, cr0.0, f0,
                 # f1, the dispatch mask, then registers: each of the first
                 # instructions of the captured kernels, on registers of kernel bytes
        for f in tests/data/eu/aub/*.gen8.bin; do
            for i in $(seq 0 23); do
                { printf '\x01'; dd if="$f" bs=16 skip="$i" count=1 status=none
                  printf '\x00\x00\x00\x00\x5a\xa5\x0f\xf0\x00\xff\x00\xff\xff\xff\xff\xff'
                  head -c 1024 "$f"; } > "$d/$(basename "$f" .bin).$i.bin"
            done
        done
        cp tests/data/fuzz/eu_fast/* "$d/" ;;   # what it found
    vc4_dump)    # the two dumps as they are (gzip) and decompressed
        for f in tests/data/vc4/*.vc4dump.gz; do
            cp "$f" "$d/"
            zcat "$f" > "$d/$(basename "$f" .gz)"
        done ;;
    recording|qpu|sweep)
        cp fuzz/seeds/$t/* "$d/" ;;
    esac
    echo "$d"
}

options() {     # target -> its libFuzzer options
    case $1 in
    aub)       echo "-max_len=65536 -dict=fuzz/dict/aub.dict" ;;
    machine)   echo "-max_len=65536 -dict=fuzz/dict/aub.dict -timeout=60" ;;
    threads)   echo "-max_len=65536 -dict=fuzz/dict/aub.dict -timeout=120" ;;
    cs_batch)  echo "-max_len=16384 -dict=$B/commands.dict -timeout=60" ;;
    config)    echo "-max_len=16384" ;;
    eu_decode) echo "-max_len=4096" ;;
    eu_exec)   echo "-max_len=4096 -timeout=30" ;;
    eu_fast)   echo "-max_len=4200" ;;
    vc4_dump)  echo "-max_len=65536 -dict=fuzz/dict/vc4_dump.dict -timeout=60" ;;
    sweep)     echo "-max_len=4096 -dict=fuzz/dict/sweep.dict -timeout=60" ;;
    *)         echo "-max_len=8192" ;;
    esac
}

[ -s "$B/commands.dict" ] || "$B/gen_dict" 8 9 > "$B/commands.dict"
status=0
summary=()
for t in "$@"; do
    corpus="$B/corpus/$t" findings="$B/findings/$t" log="$B/logs/$t.log"
    mkdir -p "$corpus" "$findings"
    seeds=$(seed_dir "$t")
    echo "fuzz: $t for ${seconds}s (log $log)"
    # shellcheck disable=SC2046
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=fuzz/lsan.supp \
        "$B/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 \
        ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
        -artifact_prefix="$findings/" $(options "$t") "$corpus" "$seeds" > "$log" 2>&1
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    covline=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1)
    found=$(find "$findings" -type f | wc -l)
    [ "$found" -gt 0 ] && status=1
    summary+=("$(printf '%-10s executions %-9s %-20s findings %s' "$t" "${execs:-?}" "${covline:-cov: ? ft: ?}" "$found")")
done
echo
for line in "${summary[@]}"; do echo "$line"; done
exit $status
