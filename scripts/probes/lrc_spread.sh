#!/usr/bin/env bash
# The L2 request coalescer's counters: the tool REPEAT times (--repeat) and Nsight Compute
# NCU_RUNS times on the same kernels and sizes, to see whether the tool's and ncu's counts differ
# by more than each one's launch-to-launch spread (docs/models/l2.md, "What the SMs read from
# L2"). Defaults: the tiled FP32 rungs at 2048³, five and three times. REPEAT=0 skips the tool.
# Output in $OUT/lrc.tar.gz: ncu.csv (scripts/probes/ncu_columns.py of ncu-raw.csv), the tool's
# --repeat profile, the logs.
#   KERNELS=bf16_wgmma,bf16_ws SIZES=1000x776x328 REPEAT=0 NCU_RUNS=1 bash scripts/probes/lrc_spread.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
for v in REPEAT NCU_RUNS; do
  val=${!v:-0}
  if ! [[ "$val" =~ ^[0-9]+$ ]]; then
    echo "lrc_spread.sh: $v must be a whole number of runs, not '$val'" >&2
    exit 2
  fi
done
[ -f .devdeps/env.sh ] && source .devdeps/env.sh
export PATH="/usr/local/cuda/bin:$PATH"
B=${BUILD_DIR:-/tmp/b-lrc}
X=/tmp/lrc
mkdir -p "$X" "${OUT:-/tmp/lrc-out}"
trap 'tar -czf "${OUT:-/tmp/lrc-out}/lrc.tar.gz" -C "$X" --exclude=rep .' EXIT
cmake -S . -B "$B" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  > "$X/cmake.log" 2>&1 || exit 1
cmake --build "$B" -j "$(nproc)" --target tgemm-roofline > "$X/build.log" 2>&1 || exit 1
K=${KERNELS:-naive,smem_tiling,thread_tiling,outer_product,smem_register,blocktiling_1d,blocktiling_2d,vectorized,warptiling,warptiling_sub,sm90_fp32}
S=${SIZES:-2048}
REPEAT=${REPEAT:-5}
NCU_RUNS=${NCU_RUNS:-3}
t0=$SECONDS
if [ "$REPEAT" -gt 0 ]; then
  "$B/tgemm-roofline" --gpu h100 --sizes "$S" --kernels "$K" --no-peaks --repeat "$REPEAT" \
    --max-time-per-pair 0.2 --profile "$X/h100-lrc-${S//,/-}-${REPEAT}runs.json" --out "$X/rep" \
    > "$X/tool.log" 2>&1
  echo "tool: rc $? in $((SECONDS - t0)) s" >> "$X/times.txt"
fi
M=lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum${EXTRA_METRICS:+,$EXTRA_METRICS}
t0=$SECONDS
{
  echo "# $(nvidia-smi --query-gpu=name,uuid --format=csv,noheader | head -1), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# ncu --clock-control none --cache-control all --csv --print-units base --metrics $M tgemm-roofline run-kernel --kernel K --size S, $NCU_RUNS time(s) each, S in $S"
} > "$X/ncu-raw.csv"
for s in ${S//,/ }; do
  for k in ${K//,/ }; do
    for r in $(seq "$NCU_RUNS"); do
      ncu --clock-control none --cache-control all --csv --print-units base --metrics "$M" \
        "$B/tgemm-roofline" run-kernel --kernel "$k" --size "$s" 2>/dev/null |
        awk -v k="$k" -v s="$s" -v r="$r" -F'","' \
          '/^"[0-9]/ {gsub(/"/, "", $NF); print k "," s "," r "," $5 "," $(NF-2) "," $NF}' \
        >> "$X/ncu-raw.csv"
    done
  done
done
echo "ncu: $((SECONDS - t0)) s" >> "$X/times.txt"
# One row per launch, a column per metric: the form of the files in docs/validation/.
python3 scripts/probes/ncu_columns.py "$X/ncu-raw.csv" > "$X/ncu.csv"
