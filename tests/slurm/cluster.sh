#!/usr/bin/env bash
# A single-node Slurm cluster on loopback for tests: `cluster.sh start DIR` writes the
# configuration into DIR, starts munged, slurmctld and slurmd as root and waits until the node
# is idle; `cluster.sh stop DIR` stops them. Commands in between need SLURM_CONF=DIR/slurm.conf.
# The node advertises two GPUs as a generic resource backed by empty files, so job scripts
# written for GPU nodes (--gpus-per-task=1) are scheduled; nothing here touches a GPU.
set -euo pipefail
cmd=$1
dir=$(realpath -m "$2")
export SLURM_CONF=$dir/slurm.conf

start() {
  mkdir -p "$dir"/{state,spool,log,munge-run,munge-log}
  local cpus host
  cpus=$(nproc)
  host=$(hostname -s)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=tgemmtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge-run/munge.socket.2
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  # Two empty files stand for the GPUs' device files: slurmd counts a GPU by its file.
  : >"$dir/fake-gpu0"
  : >"$dir/fake-gpu1"
  echo "NodeName=$host Name=gpu File=$dir/fake-gpu[0-1]" >"$dir/gres.conf"
  if [ ! -s "$dir/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge.key"
  fi
  munged --force --key-file="$dir/munge.key" --socket="$dir/munge-run/munge.socket.2" \
    --pid-file="$dir/munge-run/munged.pid" --log-file="$dir/munge-log/munged.log" \
    --seed-file="$dir/munge-run/munge.seed"
  slurmctld -f "$dir/slurm.conf" -i
  slurmd -f "$dir/slurm.conf"
  for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then return 0; fi
    sleep 1
  done
  echo "cluster.sh: the Slurm node did not become idle in 60 s; logs in $dir/log" >&2
  sinfo >&2 || true
  tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  return 1
}

stop() {
  for p in slurmd slurmctld; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
  done
  [ -f "$dir/munge-run/munged.pid" ] && kill "$(cat "$dir/munge-run/munged.pid")" 2>/dev/null || true
  sleep 1
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
