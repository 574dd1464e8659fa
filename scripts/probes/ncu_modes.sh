#!/usr/bin/env bash
# The pairs where the tool's DRAM reads or fabric bytes and Nsight Compute's differ by the same
# amount launch after launch (docs/validation-method.md, "What stays open"): ncu counts them in
# three of its own modes, RUNS times each, beside the tool's --repeat RUNS, in one call.
#   kernel:      --replay-mode kernel, --cache-control all, only the DRAM and L2 metrics below
#                (one pass; the validation runs collect the whole table in many);
#   application: --replay-mode application (the program run again per pass: no save and restore
#                of memory between the preparation and the launch), --cache-control all;
#   app-toolprep: the same after the tool's own preparation (run-kernel --flush, --cache-control
#                none);
#   full:        the whole table of the tool as validate_ncu.py runs it, once (today's reference).
# Output in $OUT/ncu-modes.tar.gz: <mode>-<kernel>-<size>-<run>.txt (ncu's CSV), the tool's
# profile and logs.
#   PAIRS="smem_register:2048 naive:1536x1536x4096" RUNS=3 bash scripts/probes/ncu_modes.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/probes/probe_common.sh  # the working folder is the root now
RUNS=${RUNS:-3}
probe_check_runs ncu_modes.sh "$RUNS"
PAIRS=${PAIRS:-}
if [ -z "$PAIRS" ]; then
  echo "ncu_modes.sh: set PAIRS to kernel:size words (e.g. PAIRS=\"naive:2048\")" >&2
  exit 2
fi
# shellcheck disable=SC2086  # the words of PAIRS, one pair each
probe_check_pairs ncu_modes.sh " in PAIRS" $PAIRS
probe_setup ncu-modes /tmp/b-modes
ONE=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_bytes.sum
FULL=$("$BIN" list metrics --tsv | cut -f2 | paste -sd, -)
t0=$SECONDS
for pair in $PAIRS; do
  k=${pair%%:*}
  s=${pair#*:}
  for r in $(seq "$RUNS"); do
    ncu_run "kernel-$k-$s-$r.txt" --replay-mode kernel --cache-control all --metrics "$ONE" \
      -- --kernel "$k" --size "$s"
    ncu_run "application-$k-$s-$r.txt" --replay-mode application --cache-control all \
      --metrics "$ONE" -- --kernel "$k" --size "$s"
    ncu_run "app-toolprep-$k-$s-$r.txt" --replay-mode application --cache-control none \
      --metrics "$ONE" -- --kernel "$k" --size "$s" --flush
  done
  ncu_run "full-$k-$s-1.txt" --replay-mode kernel --cache-control all --metrics "$FULL" \
    -- --kernel "$k" --size "$s"
done
echo "ncu: $((SECONDS - t0)) s" >> "$X/times.txt"
t0=$SECONDS
# The tool, RUNS times, one profile per size (its --sizes apply to every kernel given).
for s in $(for pair in $PAIRS; do echo "${pair#*:}"; done | sort -u); do
  ks=$(for pair in $PAIRS; do [ "${pair#*:}" = "$s" ] && echo "${pair%%:*}"; done | paste -sd, -)
  "$BIN" --sizes "$s" --kernels "$ks" --no-peaks --repeat "$RUNS" --max-time-per-pair 0.2 \
    --profile "$X/tool-$s.json" --out "$X/rep" > "$X/tool-$s.log" 2>&1
  echo "tool $s ($ks): rc $? in $((SECONDS - t0)) s" >> "$X/times.txt"
done
