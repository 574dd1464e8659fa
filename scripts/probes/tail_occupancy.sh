#!/usr/bin/env bash
# The open rows whose counters the tool and Nsight Compute count apart launch after launch
# (docs/validation-method.md, "What stays open"), measured side by side in one call:
#   occupancy pairs (OCC_PAIRS, kernel:size): ncu RUNS launches with --cache-control all and RUNS
#     after the tool's preparation (run-kernel --flush, --cache-control none), with the CTAs
#     launched, the active cycles and the resident warps, beside the tool's --repeat RUNS in user
#     ranges and in CUPTI's kernel ranges. Where a grid is not a whole number of waves, which SMs
#     take the last CTAs decides how many warps an active cycle holds, launch by launch.
#     (--print-metric-instances values is asked for, but for these .sum metrics CUDA 13.0's ncu prints
#     the sums only: no per-SM values come back.)
#   DRAM pairs (DRAM_PAIRS): the tool's --repeat RUNS in user and in kernel ranges and ncu RUNS
#     launches of the DRAM and L2 metrics alone, --cache-control all.
# Output in $OUT/tail-occupancy.tar.gz: ncu's CSVs (<mode>-<kernel>-<size>-<run>.csv), the tool's
# profiles and logs, README.txt with the GPU, the time and the tree.
#   OCC_PAIRS="bf16_mma:6144x1024x1536" DRAM_PAIRS="smem_register:2048" RUNS=8 \
#     bash scripts/probes/tail_occupancy.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/probes/probe_common.sh  # the working folder is the root now
RUNS=${RUNS:-5}
probe_check_runs tail_occupancy.sh "$RUNS"
OCC_PAIRS=${OCC_PAIRS:-}
DRAM_PAIRS=${DRAM_PAIRS:-}
if [ -z "$OCC_PAIRS$DRAM_PAIRS" ]; then
  echo "tail_occupancy.sh: set OCC_PAIRS and/or DRAM_PAIRS to kernel:size words" >&2
  exit 2
fi
# shellcheck disable=SC2086  # the words of the two lists, one pair each
probe_check_pairs tail_occupancy.sh "" $OCC_PAIRS $DRAM_PAIRS
probe_setup tail-occupancy /tmp/b
OCC=sm__warps_active.avg.pct_of_peak_sustained_active,sm__ctas_launched.sum,sm__cycles_active.sum,sm__warps_active.sum,gpu__time_duration.sum
DRAM=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_bytes.sum,gpu__time_duration.sum
tool_runs() {  # size, kernels, tag, extra tool options...
  local s=$1 ks=$2 tag=$3; shift 3
  local t0=$SECONDS
  "$BIN" --sizes "$s" --kernels "$ks" --no-peaks --repeat "$RUNS" --max-time-per-pair 0.2 "$@" \
    --profile "$X/tool-$tag-$s.json" --out "$X/rep" > "$X/tool-$tag-$s.log" 2>&1
  echo "tool $tag $s ($ks): rc $? in $((SECONDS - t0)) s" >> "$X/times.txt"
}
t0=$SECONDS
for pair in $OCC_PAIRS; do
  k=${pair%%:*}
  s=${pair#*:}
  ncu_run "occ-ncu-$k-$s.csv" --replay-mode kernel --cache-control all \
    --print-metric-instances values -k "regex:${k}" --metrics "$OCC" \
    -- --kernel "$k" --size "$s" --repeat "$RUNS"
  ncu_run "occ-toolprep-$k-$s.csv" --replay-mode kernel --cache-control none \
    --print-metric-instances values -k "regex:${k}" --metrics "$OCC" \
    -- --kernel "$k" --size "$s" --repeat "$RUNS" --flush
  tool_runs "$s" "$k" occ-user
  tool_runs "$s" "$k" occ-kernel --cupti-ranges kernel
done
for pair in $DRAM_PAIRS; do
  k=${pair%%:*}
  s=${pair#*:}
  ncu_run "dram-ncu-$k-$s.csv" --replay-mode kernel --cache-control all -k "regex:${k}" \
    --metrics "$DRAM" \
    -- --kernel "$k" --size "$s" --repeat "$RUNS"
  tool_runs "$s" "$k" dram-user
  tool_runs "$s" "$k" dram-kernel --cupti-ranges kernel
done
echo "all: $((SECONDS - t0)) s" >> "$X/times.txt"
