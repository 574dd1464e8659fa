#!/usr/bin/env bash
# Issue 13's Slurm test, for real: a single-node Slurm cluster on loopback (tests/slurm/cluster.sh)
# runs scripts/slurm/submit.sh's job array (3 tasks, one "GPU" each) and merge job with the
# tool's GPU-free mode (--predict), and the merged profile must hold the same rows in the same
# order as one process writing the whole prediction: `merge` of the two must find every row
# identical. Installs Slurm and munge from the distribution when they are missing and this runs
# as root with apt-get; otherwise exits 77 (ctest: skipped) saying why.
#   slurm_array_test.sh TOOL SOURCE_DIR WORK_DIR
set -uo pipefail
tool=$(realpath "$1")
src=$(realpath "$2")
work=$(realpath -m "$3")

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "SKIP: Slurm (slurmctld, slurmd, sbatch) and munge are not installed, and this is not root with apt-get to install them"
    exit 77
  fi
  echo "installing slurmctld slurmd slurm-client munge from the distribution's packages"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    slurmctld slurmd slurm-client munge >/dev/null || { echo "FAIL: apt-get could not install Slurm"; exit 1; }
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the test cluster's daemons run as root (SlurmUser=root); run as root to test"
  exit 77
fi

rm -rf "$work" && mkdir -p "$work"
export SLURM_CONF=$work/cluster/slurm.conf
trap 'bash "$src/tests/slurm/cluster.sh" stop "$work/cluster"' EXIT
bash "$src/tests/slurm/cluster.sh" start "$work/cluster" || { echo "FAIL: the cluster did not start"; exit 1; }
sinfo

args=(--predict --gpu h100 --sizes 1024,3000x1992x1000 --tensor-sizes 8192)
cd "$work"
TGEMM_BIN=$tool bash "$src/scripts/slurm/submit.sh" --wait 3 "$work/run" -- "${args[@]}"
rc=$?
for f in "$work"/run/task-*.log "$work/run/merge.log"; do echo "--- $f"; cat "$f"; done
[ "$rc" -eq 0 ] || { echo "FAIL: the merge job ended with status $rc"; exit 1; }
for i in 0 1 2; do
  grep -q "shard $i/3" "$work/run/task-$i.log" || { echo "FAIL: task $i did not run shard $i/3"; exit 1; }
done
[ -f "$work/run/profile.json" ] && [ -f "$work/run/report/report.md" ] ||
  { echo "FAIL: no merged profile or report"; exit 1; }

"$tool" "${args[@]}" --profile "$work/whole.json" || { echo "FAIL: the single run failed"; exit 1; }
check=$("$tool" merge "$work/whole.json" "$work/run/profile.json" -o "$work/check.json" 2>&1)
rc=$?
echo "$check"
[ "$rc" -eq 0 ] || { echo "FAIL: the merged profile differs from the single run"; exit 1; }
total=$(grep -o '"size": *[0-9]*' "$work/whole.json" | head -1 | grep -o '[0-9]*$')
grep -q "both hold $total identical row(s)" <<<"$check" ||
  { echo "FAIL: not every one of the $total rows is identical in the two profiles"; exit 1; }
echo "PASS: $total rows from 3 Slurm array tasks merge into the single run's profile"
