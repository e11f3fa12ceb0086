#!/bin/sh
# scripts/test-slurm.sh [GTSIM] - `gtsim sweep --slurm` on a real one-node SLURM
# cluster on localhost (the recipe of ../shared/notes/slurm-local.md): brings up
# munged (unless one answers), slurmctld and slurmd with a slurm.conf of its own
# (SLURM_CONF, nothing in /etc), runs a 4-point sweep through a job array and the
# same sweep locally, and compares the two tables (all but host_seconds and
# run_dir). Needs root and Debian's slurm-wlm and munge (installed when missing).
# Stops what it started, by PID.
set -eu
GTSIM=$(readlink -f "${1:-build/release/gtsim}")
say() { echo "test-slurm: $*"; }
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || { say "slurm-wlm and munge are missing; run as root"; exit 1; }
    say "installing slurm-wlm munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1
fi
work=$(mktemp -d /tmp/gtsim-slurm-XXXXXX)
chmod 755 "$work"
pids=""
munged_pid=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for p in $pids; do wait "$p" 2>/dev/null || true; done
    [ -n "$munged_pid" ] && kill "$munged_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    if [ ! -f /etc/munge/munge.key ]; then
        mungekey --create
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    mkdir -p /run/munge && chown munge:munge /run/munge
    su -s /bin/sh munge -c munged
    munged_pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
    munge -n | unmunge >/dev/null || { say "munged does not answer"; exit 1; }
fi

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
chown slurm:slurm "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=gtsimtest
SlurmctldHost=$host
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D >"$work/slurmctld.log" 2>&1 &
pids="$pids $!"
slurmd -D >"$work/slurmd.log" 2>&1 &
pids="$pids $!"
i=0
until [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        say "the node did not come up idle in 30 s"; tail -5 "$work/slurmctld.log" "$work/slurmd.log"
        exit 1
    fi
    sleep 0.5
done
say "cluster up ($host)"

cat > "$work/sweep.cfg" <<'SWEEP'
workloads = [ "builtin:fabric" ];
params = ( { key = "host.messages"; values = [ 100, 300 ]; },
           { key = "gpu.slice.subslice.count"; values = [ 1, 2 ]; } );
SWEEP
"$GTSIM" sweep "$work/sweep.cfg" -o "$work/local" -j 2 >/dev/null
"$GTSIM" sweep "$work/sweep.cfg" -o "$work/slurm" --slurm --slurm-opts "--time=5"
# keys, workload, cycles | status, exit_status, message (not host_seconds, run_dir)
cut -d, -f1-4,6-8 "$work/local/results.csv" > "$work/local.cut"
cut -d, -f1-4,6-8 "$work/slurm/results.csv" > "$work/slurm.cut"
if ! diff "$work/local.cut" "$work/slurm.cut"; then
    say "FAIL: the SLURM sweep's table differs from the local one"; exit 1
fi
[ "$(grep -c ',ok,0,' "$work/slurm.cut")" = 4 ] || { say "FAIL: not 4 ok rows"; cat "$work/slurm.cut"; exit 1; }
ls "$work"/slurm/points/slurm-*_*.out >/dev/null || { say "FAIL: no job array task logs"; exit 1; }
# a second --slurm run finds every point done and submits nothing
"$GTSIM" sweep "$work/sweep.cfg" -o "$work/slurm" --slurm | grep -q "0 run now, 4 done before" ||
    { say "FAIL: resume under --slurm"; exit 1; }
say "ok: 4 points through a SLURM job array, same table as the local run"
