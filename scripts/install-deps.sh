#!/bin/sh
# Installs the Debian packages gtsim needs to build and test. Idempotent: packages
# already present are not fetched again. Run as root (CI and the dev machines are).
# clang builds the libFuzzer targets (make fuzz, make fuzz-smoke; mk/fuzz.mk); its
# fuzzer runtime is in libclang-rt-<major>-dev, which clang only recommends.
# valgrind runs `make valgrind` (mk/soak.mk).
set -eu
PACKAGES="build-essential pkg-config python3 libconfig-dev libcunit1-dev zlib1g-dev libpng-dev intel-gpu-tools verilator gnuplot-nox clang valgrind"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
fuzzer_runtime() {  # the libclang-rt package clang's libFuzzer needs, if missing
    command -v clang >/dev/null 2>&1 || return 0
    [ -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ] && return 0
    major=$(clang -dumpversion | cut -d. -f1)
    echo "libclang-rt-$major-dev"
}
if [ -z "$missing" ] && [ -z "$(fuzzer_runtime)" ]; then
    echo "install-deps: all packages present"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages:$missing $(fuzzer_runtime); run as root (apt-get)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if [ -n "$missing" ]; then
    echo "install-deps: installing$missing"
    apt-get install -y -qq --no-install-recommends $missing
fi
rt=$(fuzzer_runtime)
if [ -n "$rt" ]; then
    echo "install-deps: installing $rt"
    apt-get install -y -qq --no-install-recommends "$rt"
fi
