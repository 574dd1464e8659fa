#!/usr/bin/env bash
# scripts/slurm/submit.sh refuses bad arguments with one line and exit 2, before it calls sbatch
# (no Slurm needed): a count that is not a positive integer, and a missing "--".
set -uo pipefail
submit=$1/scripts/slurm/submit.sh
# An sbatch that must not be reached: a refused call never submits anything.
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\necho "sbatch was called" >&2\nexit 99\n' >"$fake/sbatch"
chmod +x "$fake/sbatch"
fail=0
check() {  # expected-text args...
  local want=$1; shift
  local err rc
  err=$(PATH="$fake:$PATH" bash "$submit" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != *"$want"* ]]; then
    echo "FAIL: submit.sh $*: exit $rc, stderr: $err"; fail=1
  else
    echo "ok: submit.sh $* -> $err"
  fi
}
check "N must be a positive integer" 0 /tmp/x -- --gpu h100
check "N must be a positive integer" abc /tmp/x -- --gpu h100
check "N must be a positive integer" -3 /tmp/x -- --gpu h100
check "usage: submit.sh" 2 /tmp/x --gpu h100
check "usage: submit.sh" 2
exit "$fail"
