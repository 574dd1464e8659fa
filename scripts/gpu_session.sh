#!/usr/bin/env bash
# One batched session on the GPU machine: build for sm_90a, run the tests, measure, validate
# against Nsight Compute, run compute-sanitizer. Logs go to $LOGS (default $OUT/logs, else
# ./gpu-logs) and are packed into logs.tar.gz.
#
#   bash scripts/gpu_session.sh build test "measure --sizes 1024" "validate --shapes 1024"
#
# Steps run in the order given; a failing step is logged and the next one still runs.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .devdeps/env.sh ] && source .devdeps/env.sh
export PATH="/usr/local/cuda/bin:$PATH"
B=${BUILD_DIR:-build-h100}
LOGS=${LOGS:-/tmp/tgemm-gpu-logs}
mkdir -p "$LOGS"
BIN=$B/tgemm-roofline
status=0

step() {  # name, command...
  local name=$1; shift
  local t0=$SECONDS
  echo "=== $name: $*" | tee -a "$LOGS/steps.log"
  if "$@" >"$LOGS/$name.log" 2>&1; then
    echo "=== $name ok ($((SECONDS - t0)) s)" | tee -a "$LOGS/steps.log"
  else
    echo "=== $name FAILED rc=$? ($((SECONDS - t0)) s); tail:" | tee -a "$LOGS/steps.log"
    tail -25 "$LOGS/$name.log" | tee -a "$LOGS/steps.log"
    status=1
  fi
}

for s in "$@"; do
  read -r -a words <<<"$s"
  case "${words[0]}" in
    build-target)  # build-target <target>: one target only
      step cmake cmake -S . -B "$B" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release
      step build cmake --build "$B" -j 16 --target "${words[1]}" ;;
    gpu-tests)
      step gpu-tests "$B/tests/tgemm_gpu_tests" ;;
    build)
      step cmake cmake -S . -B "$B" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release
      step build cmake --build "$B" -j 16 ;;
    test)
      step ctest ctest --test-dir "$B" --output-on-failure -j 1 ;;
    gpu-info)
      step gpu-info nvidia-smi -q -d CLOCK,PERFORMANCE ;;
    measure)   # measure <tool args>
      step measure "$BIN" --gpu h100 "${words[@]:1}" ;;
    validate)  # validate <validate_ncu.py args>
      step validate python3 scripts/validate_ncu.py --binary "$BIN" "${words[@]:1}" ;;
    sanitize)  # sanitize <size>: memcheck on every rung
      size=${words[1]:-1000x777x333}
      for k in $("$BIN" list kernels --tsv | cut -f1); do
        step "sanitize-$k" compute-sanitizer --tool memcheck --error-exitcode 9 \
          "$BIN" run-kernel --kernel "$k" --size "$size"
      done ;;
    tune)      # tune <tgemm-tune args>
      step tune "$B/bench/tgemm-tune" "${words[@]:1}" ;;
    sass)      # resource usage of every kernel
      step sass bash -c "cuobjdump -res-usage $B/CMakeFiles/tgemm_kernels.dir/kernels/*.o" ;;
    *) echo "unknown step ${words[0]}"; status=1 ;;
  esac
done
tar -czf "${OUT:-.}/logs.tar.gz" -C "$LOGS" . 2>/dev/null
# What the tool wrote, for committing from the development machine.
if [ -n "${OUT:-}" ]; then
  tar -czf "$OUT/results.tar.gz" profiles reports docs/validation.md docs/tuning.md 2>/dev/null
fi
exit $status
