#!/usr/bin/env bash
# The workspace's construction taken apart at the L2's capacity edge
# (tests/collect/capacity_edge_steps_test.cpp, CapacityEdge.TheWorkspaceStepByStep): each list of
# steps in STEPS (space-separated; steps within a list comma-separated) runs in a fresh process,
# REPEAT times, and its counts are appended to LOG with one header line per run. With NCU=1 each
# process runs under Nsight Compute (--cache-control none: the test's launch step prepares as
# the tool does; --clock-control none), which counts DRAM reads and fabric sectors of every
# launch; scripts/probes/ncu_edge_lines.py logs the rung's launches in the test's own form (the
# preparation's tgemm_aux_* kernels left out: the earlier form of this script kept them).
#   TREE=$(git rev-parse --short HEAD) LOG=$OUT/edge.log STEPS="ws,count toolws,count" \
#     BUILD_DIR=/tmp/b bash scripts/probes/capacity_edge_steps.sh
#   NCU=1 STEPS="ws,launch handle,ws,launch" ... bash scripts/probes/capacity_edge_steps.sh
set -uo pipefail
STEPS=${STEPS:-}
REPEAT=${REPEAT:-1}
LOG=${LOG:-/dev/stdout}
if [ -z "$STEPS" ]; then
  echo "capacity_edge_steps.sh: set STEPS to step lists (e.g. STEPS=\"ws,count toolws,count\")" >&2
  exit 2
fi
if ! [[ "$REPEAT" =~ ^[1-9][0-9]*$ ]]; then
  echo "capacity_edge_steps.sh: REPEAT must be a whole number of runs, not '$REPEAT'" >&2
  exit 2
fi
T=${BUILD_DIR:-build}/tests/tgemm_gpu_tests
if [ ! -x "$T" ]; then
  echo "capacity_edge_steps.sh: no test binary at $T (build tgemm_gpu_tests, set BUILD_DIR)" >&2
  exit 2
fi
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
for r in $(seq "$REPEAT"); do
  for s in $STEPS; do
    if [ "${NCU:-0}" = 1 ]; then
      echo "# $gpu, $(date -u +%FT%TZ), the tree of ${TREE:-unknown}, run $r: TGEMM_EDGE_STEPS=$s ncu --csv --print-units base --cache-control none --clock-control none --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_ltcfabric.sum $T --gtest_filter=CapacityEdge.TheWorkspaceStepByStep" >>"$LOG"
      TGEMM_EDGE_STEPS=$s ncu --csv --print-units base --cache-control none --clock-control none \
        --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_ltcfabric.sum \
        "$T" --gtest_filter=CapacityEdge.TheWorkspaceStepByStep 2>&1 |
        python3 "$(dirname "$0")/ncu_edge_lines.py" "$s" >>"$LOG"
      continue
    fi
    echo "# $gpu, $(date -u +%FT%TZ), the tree of ${TREE:-unknown}, run $r: TGEMM_EDGE_STEPS=$s $T --gtest_filter=CapacityEdge.TheWorkspaceStepByStep" >>"$LOG"
    TGEMM_EDGE_STEPS=$s "$T" --gtest_filter=CapacityEdge.TheWorkspaceStepByStep 2>&1 |
      grep -E 'DRAM reads|handle took|FAILED|Failure|SKIPPED \]' >>"$LOG"
  done
done
