#!/usr/bin/env bash
# scripts/ab-time.sh A B [ROUNDS] -- RUN ARGS...
#
# Host time of two gtsim binaries on the same run, interleaved (A, B, A, B, ...)
# so that drift in the host's speed (a VM's neighbours, its clock) falls on
# both alike. Prints each binary's median and minimum of the seconds on the
# run summary's "host" line, and B's median as a share of A's. On a VM,
# differences under ~2% are within the noise of 10 rounds: a change that
# claims less needs more rounds, or an instruction count (callgrind).
#
#   scripts/ab-time.sh /tmp/gtsim.before build/release/gtsim 10 -- \
#       run --config configs/gen9-skl-gt2.cfg --threads 1 \
#       build/gen/workloads/sgemm256.gen9.aub.gz
#
# AB_CPUS pins both (taskset -c): AB_CPUS=1 for one thread, 0,1 for two.
set -euo pipefail
usage() { echo "usage: $0 A B [ROUNDS] -- RUN ARGS..." >&2; exit 2; }
[ $# -ge 3 ] || usage
A=$1 B=$2
shift 2
ROUNDS=10
if [ "$1" != "--" ]; then
    ROUNDS=$1
    shift
fi
[ "${1:-}" = "--" ] || usage
shift
[ $# -ge 1 ] || usage
case $ROUNDS in '' | *[!0-9]* | 0) echo "$0: ROUNDS must be a positive number" >&2; exit 2 ;; esac
for bin in "$A" "$B"; do
    [ -x "$bin" ] || { echo "$0: $bin is not an executable" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pin=()
if [ -n "${AB_CPUS:-}" ]; then
    pin=(taskset -c "$AB_CPUS")
fi

# one BINARY FILE RUN-ARGS...: the run's host seconds, appended to FILE
one() {
    local bin=$1 file=$2
    shift 2
    local line
    if ! line=$("${pin[@]}" "$bin" "$@" -o "$out/run" 2>&1 | grep -m1 '^  host '); then
        echo "$0: $bin printed no host line (did the run fail?)" >&2
        exit 1
    fi
    echo "$line" | awk '{ print $2 }' >>"$file"
}

# median FILE
median() {
    sort -n "$1" | awk '{ v[NR] = $1 }
        END { printf "%.4f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for ((r = 1; r <= ROUNDS; r++)); do
    one "$A" "$out/a" "$@"
    one "$B" "$out/b" "$@"
done
ma=$(median "$out/a")
mb=$(median "$out/b")
printf 'A %s: median %.3f s, min %.3f s (%d runs)\n' "$A" "$ma" "$(sort -n "$out/a" | head -1)" "$ROUNDS"
printf 'B %s: median %.3f s, min %.3f s (%d runs)\n' "$B" "$mb" "$(sort -n "$out/b" | head -1)" "$ROUNDS"
awk -v a="$ma" -v b="$mb" 'BEGIN { printf "B/A median: %.3f (%+.1f%%)\n", b / a, (b / a - 1) * 100 }'
