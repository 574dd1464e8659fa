#!/usr/bin/env bash
# Nsight Compute's launch limits and theoretical occupancy of every rung, as CSV
# (docs/validation/occupancy-h100.csv; tests/kernels/occupancy_ncu_test.cpp reads it).
#   bash scripts/validate_occupancy.sh build-h100/tgemm-roofline > docs/validation/occupancy-h100.csv
set -euo pipefail
BIN=${1:?usage: validate_occupancy.sh TGEMM_ROOFLINE_BINARY}
M=launch__block_size,launch__registers_per_thread,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__maximum_warps_per_active_cycle_pct
echo "# $(ncu --version | tail -1) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%F): ncu --clock-control none --metrics $M tgemm-roofline run-kernel --kernel K --size 2048 (scripts/validate_occupancy.sh)"
echo "kernel,${M}"
for k in $("$BIN" list kernels --tsv | cut -f1); do
  ncu --csv --print-units base --clock-control none --metrics "$M" "$BIN" run-kernel --kernel "$k" --size 2048 2>/dev/null |
    python3 -c '
import csv, sys
names = sys.argv[2].split(",")
vals = {}
for r in csv.reader(l for l in sys.stdin if l.startswith("\"")):
    if r[0] == "ID" or "tgemm_aux_" in r[4]:
        continue
    vals.setdefault(r[12], r[14].replace(",", ""))
print(sys.argv[1] + "," + ",".join(vals.get(n, "") for n in names))' "$k" "$M"
done
