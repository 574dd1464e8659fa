#!/usr/bin/env bash
# Submits a tgemm-roofline run to Slurm: a job array of N tasks, one GPU each, each measuring
# one shard of the work list, and a merge job that starts when all of them succeeded.
#
#   scripts/slurm/submit.sh [--wait] [--sbatch "OPTS"] N DIR -- TOOL ARGS...
#
# DIR must be writable from every node (the shards, profile.json and report/ go there).
# --sbatch passes options to both sbatch calls (a partition, an account, a time limit).
# --wait returns when the merge has ended, with its exit status. Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
wait=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --wait) wait=(--wait); shift ;;
    --sbatch) read -r -a extra <<<"$2"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] && [ "$3" = "--" ] || {
  echo "usage: submit.sh [--wait] [--sbatch \"OPTS\"] N DIR -- TOOL ARGS..." >&2; exit 2; }
n=$1
dir=$(realpath -m "$2")
shift 3
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a positive integer, got '$n'" >&2; exit 2; }
mkdir -p "$dir"
export TGEMM_DIR=$dir TGEMM_SHARDS=$n TGEMM_ARGS="$*"
export TGEMM_BIN=${TGEMM_BIN:-$(command -v tgemm-roofline || echo tgemm-roofline)}
array=$(sbatch --parsable "${extra[@]}" --array="0-$((n - 1))" --output="$dir/task-%a.log" \
  --export=ALL "$here/array.sbatch")
array=${array%%;*}
echo "array job $array ($n tasks); results in $dir"
rc=0
merge=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes --output="$dir/merge.log" --export=ALL "$here/merge.sbatch") || rc=$?
echo "merge job ${merge%%;*}${wait:+ ended with status $rc (log: $dir/merge.log)}"
exit "$rc"
