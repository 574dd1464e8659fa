#!/usr/bin/env bash
# `ctest -L sanitize` (issue 12): compute-sanitizer's memcheck, racecheck, synccheck and
# initcheck over every rung on a ragged shape, one `run-kernel` each. Writes the summary table
# to SUMMARY (markdown; docs/sanitize.md is one such run) and fails when any tool reports an
# error. A rung that refuses the shape says why and is listed as refused. The cuBLAS references
# are the library's kernels, not ours, and are left out. Skips (exit 77) without a GPU.
# usage: sanitize_test.sh TGEMM_ROOFLINE SUMMARY [SHAPE]
set -uo pipefail
bin=$1
summary=$2
shape=${3:-1000x776x328}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "SKIP: no GPU here (nvidia-smi -L lists none): the sanitizers need one"
  exit 77
fi
if ! command -v compute-sanitizer >/dev/null 2>&1; then
  echo "SKIP: compute-sanitizer is not on PATH (it comes with the CUDA toolkit)"
  exit 77
fi
tools=(memcheck racecheck synccheck initcheck)
logs=$(mktemp -d)
fail=0
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
{
  echo "# compute-sanitizer on every rung"
  echo
  echo "Made by \`ctest -L sanitize\` (tests/sanitize/sanitize_test.sh) on $gpu, $(date -u +%FT%TZ):"
  echo "\`compute-sanitizer --tool <tool> --error-exitcode 9 tgemm-roofline run-kernel --kernel <id> --size $shape\`."
  echo
  echo "| kernel | $(printf '%s | ' "${tools[@]}")"
  echo "|---|$(printf -- '---|%.0s' "${tools[@]}")"
} >"$summary.tmp"
for k in $("$bin" list kernels --tsv | cut -f1); do
  case $k in cublas*) continue ;; esac
  row="| $k"
  for tool in "${tools[@]}"; do
    log="$logs/$tool-$k.log"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 \
      "$bin" run-kernel --kernel "$k" --size "$shape" >"$log" 2>&1
    rc=$?
    line=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -1 | sed 's/^=* *//')
    if grep -q "cannot run" "$log"; then
      cell="refused: $(grep -o "cannot run[^.]*" "$log" | head -1 | cut -c1-80)"
    elif [ $rc -eq 0 ]; then
      cell="ok (${line:-no summary})"
    else
      cell="**FAILED** rc=$rc (${line:-no summary})"
      fail=1
      echo "FAIL: $tool on $k at $shape:"
      tail -20 "$log"
    fi
    row="$row | $cell"
  done
  echo "$row |" >>"$summary.tmp"
done
mv "$summary.tmp" "$summary"
cat "$summary"
exit $fail
