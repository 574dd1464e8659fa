#!/usr/bin/env bash
# Issue 14 on a node with several GPUs: build the tool, then `--device all --each-gpu` over the
# FP32 and tensor ladders at the shipped shapes (every GPU the whole list, its own profile and
# report, the fleet report over them), then, if time is left, the sharded `--device all` (one
# shard per GPU, merged into one profile). Results are packed into $OUT/fleet.tar.gz.
#
#   bash scripts/fleet_node.sh [SECONDS_FOR_BOTH_RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .devdeps/env.sh ] && source .devdeps/env.sh
export PATH="/usr/local/cuda/bin:$PATH"
budget=${1:-330}
if ! [[ "$budget" =~ ^[0-9]+$ ]] || [ "$budget" -eq 0 ]; then
  echo "fleet_node.sh: the seconds for both runs must be a positive whole number, not '$budget'" >&2
  exit 2
fi
B=${BUILD_DIR:-/tmp/b-fleet}
OUT=${OUT:-/tmp/fleet-out}
L=/tmp/fleet-logs
mkdir -p "$OUT" "$L"
pack() { tar -czf "$OUT/fleet.tar.gz" profiles/fleet reports/fleet -C "$L" . 2>/dev/null; }
trap pack EXIT
nvidia-smi -L > "$L/gpus.txt"
cmake -S . -B "$B" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  > "$L/cmake.log" 2>&1 || exit 1
t0=$SECONDS
cmake --build "$B" -j "$(nproc)" --target tgemm-roofline > "$L/build.log" 2>&1 || exit 1
echo "build: $((SECONDS - t0)) s" >> "$L/times.txt"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) key=h200 ;; *H100*) key=h100 ;; *) key=auto ;; esac
host=$(hostname)
n=$(nvidia-smi -L | wc -l)
[ "$host" = vm ] && host="vm-${key}x$n"  # the lent machines all call themselves vm
D=profiles/fleet/$host
R=reports/fleet/$host
mkdir -p "$D" "$R"
SIZES=1024,2048,4096,4096x2048x1024,3000x1992x1000,8192x768x2048
start=$SECONDS
cmd=("$B/tgemm-roofline" --gpu "$key" --device all --each-gpu --sizes "$SIZES"
     --tensor-sizes 8192 --max-time-per-pair 0.5 --profile "$D/$key.json" --out "$R")
echo "${cmd[*]}" > "$L/each-gpu.cmd"
timeout "$budget" "${cmd[@]}" > "$L/each-gpu.log" 2>&1
echo "each-gpu: rc $? in $((SECONDS - start)) s" >> "$L/times.txt"
left=$((budget - (SECONDS - start)))
if [ "$left" -gt 90 ]; then
  start=$SECONDS
  cmd=("$B/tgemm-roofline" --gpu "$key" --device all --sizes "$SIZES" --tensor-sizes 8192
       --max-time-per-pair 0.5 --profile "$D/$key.sharded.json" --out "$R/sharded")
  echo "${cmd[*]}" > "$L/sharded.cmd"
  timeout "$left" "${cmd[@]}" > "$L/sharded.log" 2>&1
  echo "sharded: rc $? in $((SECONDS - start)) s" >> "$L/times.txt"
fi
