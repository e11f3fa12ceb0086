#!/bin/sh
# Installs the Debian packages gtsim needs to build and test. Idempotent: packages
# already present are not fetched again. Run as root (CI and the dev machines are).
set -eu
PACKAGES="build-essential pkg-config python3 libconfig-dev libcunit1-dev zlib1g-dev libpng-dev intel-gpu-tools verilator gnuplot-nox"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages:$missing; run as root (apt-get)" >&2
    exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing
