#!/usr/bin/env bash
# Checkpoint and resume on a real GPU (issue 12; collect/pair_loop.hpp): a small work list is
# measured whole once; then, for SIGINT and for SIGKILL, a run of it is stopped mid-way, must
# keep its finished pairs in <profile>.partial (SIGINT: exit 130 and one line naming --resume;
# SIGKILL: exit 137), must refuse to start again without --resume and to resume another work
# list, and, resumed, must finish with the kernel/size rows of the whole run in the same order and
# remove the partial file. Skips (exit 77) without a GPU.
# usage: resume_test.sh TGEMM_ROOFLINE WORK_DIR
set -uo pipefail
bin=$1
work=$2
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "SKIP: no GPU here (nvidia-smi -L lists none): this test needs one"
  exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed to read the profiles"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
# 12 pairs, each a second or less: long enough to stop in the middle, short enough for a test.
args=(--kernels naive,smem_tiling,blocktiling_2d --sizes 256,512,1024,2048 --no-peaks)
fail=0
say() { echo "$*"; }
bad() { echo "FAIL: $*"; fail=1; }

rows() {  # the rows of a profile or a partial profile, or 0 while it does not exist
  python3 - "$1" <<'PY' 2>/dev/null || echo 0
import json, sys
print(len(json.load(open(sys.argv[1]))["measurements"]))
PY
}
pairs() {  # "kernel m n k verified" per row, in order
  python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["measurements"]:
    print(r["kernel"], r["m"], r["n"], r["k"], r["verified"])
PY
}

say "whole run"
if ! "$bin" "${args[@]}" --profile "$work/whole.json" --out "$work/whole" >"$work/whole.log" 2>&1; then
  bad "the whole run failed: $(tail -n 3 "$work/whole.log")"
  exit 1
fi
total=$(rows "$work/whole.json")
say "whole run: $total rows"
[ -e "$work/whole.json.partial" ] && bad "a finished run left its partial file"

for sig in INT KILL; do
  profile=$work/stopped-$sig.json
  partial=$profile.partial
  "$bin" "${args[@]}" --profile "$profile" --out "$work/out-$sig" >"$work/$sig.out" 2>"$work/$sig.err" &
  pid=$!
  for _ in $(seq 1 3000); do  # up to 300 s for two pairs
    [ "$(rows "$partial")" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  kept=$(rows "$partial")
  say "SIG$sig: exit $rc, $kept of $total rows kept"
  want=$([ "$sig" = INT ] && echo 130 || echo 137)
  [ "$rc" -eq "$want" ] || bad "SIG$sig: exit $rc, expected $want ($(tail -n 2 "$work/$sig.err"))"
  if [ "$kept" -lt 2 ] || [ "$kept" -ge "$total" ]; then
    bad "SIG$sig: the partial file holds $kept rows, expected 2 to $((total - 1))"
  fi
  [ -e "$profile" ] && bad "SIG$sig: a stopped run wrote the final profile"
  if [ "$sig" = INT ]; then
    last=$(tail -n 1 "$work/$sig.err")
    [[ "$last" == *"stopped by SIGINT"* && "$last" == *"--resume"* && "$last" == *"$partial"* ]] ||
      bad "SIGINT: the last line does not say what was kept and how to resume: $last"
  fi

  # Not again without --resume, and not another work list's.
  "$bin" "${args[@]}" --profile "$profile" --out "$work/out-$sig" >/dev/null 2>"$work/$sig.again"
  rc=$?
  [ "$rc" -eq 2 ] && grep -q -- "--resume" "$work/$sig.again" ||
    bad "SIG$sig: a run over a stopped one: exit $rc, $(cat "$work/$sig.again")"
  "$bin" --kernels naive --sizes 256,512,1024,2048 --no-peaks --profile "$profile" \
    --out "$work/out-$sig" --resume >/dev/null 2>"$work/$sig.other"
  rc=$?
  [ "$rc" -eq 2 ] && grep -q -- "--kernels" "$work/$sig.other" ||
    bad "SIG$sig: resuming another work list: exit $rc, $(cat "$work/$sig.other")"
  [ "$(rows "$partial")" -eq "$kept" ] || bad "SIG$sig: a refused command changed the partial file"

  "$bin" "${args[@]}" --profile "$profile" --out "$work/out-$sig" --resume \
    >"$work/$sig.resume.out" 2>"$work/$sig.resume.err"
  rc=$?
  [ "$rc" -eq 0 ] || bad "SIG$sig: the resumed run failed ($rc): $(tail -n 2 "$work/$sig.resume.err")"
  [ -e "$partial" ] && bad "SIG$sig: the resumed run left the partial file"
  if ! diff <(pairs "$work/whole.json") <(pairs "$profile") >"$work/$sig.diff"; then
    bad "SIG$sig: the resumed profile's rows differ from the whole run's: $(head -n 5 "$work/$sig.diff")"
  fi
  grep -q "resume" "$work/$sig.resume.err" || bad "SIG$sig: the resumed run did not say what it kept"
  say "SIG$sig: resumed, $(rows "$profile") rows, the same kernels and sizes as the whole run"
done
[ "$fail" -eq 0 ] && say "PASS"
exit "$fail"
