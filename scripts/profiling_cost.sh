#!/usr/bin/env bash
# The cost of profiling (docs/benchmark.md, "Profiling cost"): wall time of the tool's counter
# pass over the whole ladder at three sizes against Nsight Compute collecting the same metrics
# on the same kernels through `run-kernel`, on this machine's GPU.
#
#   bash scripts/profiling_cost.sh BUILD/tgemm-roofline [SIZES [KEEP_DIR]] > cost.md
#
# The tool's counter pass is the difference between a run with counters and one without
# (--no-counters): both verify and time every pair the same way. ncu runs once per (kernel,
# size), with the tool's metric table, --cache-control all and --clock-control none, as the
# validation does. The tool collects the counters of each size's pairs together (--counter-batch,
# default 32); its own clock of the counter session (TGEMM_CUPTI_TIMING) is printed below the
# table. KEEP_DIR keeps both runs' profiles and logs (to compare the counted values with a
# profile measured pair by pair).
set -uo pipefail
BIN=${1:?usage: profiling_cost.sh TGEMM_ROOFLINE_BINARY [SIZES]}
SIZES=${2:-1024,2048,4096}
W=$(mktemp -d)
now() { date +%s.%N; }
span() { python3 -c "print(f'{$2 - $1:.1f}')"; }

t0=$(now)
TGEMM_CUPTI_TIMING=1 "$BIN" --sizes "$SIZES" --no-peaks --runs 1 --profile "$W/with.json" --out "$W/with" >"$W/with.log" 2>&1
t1=$(now)
"$BIN" --sizes "$SIZES" --no-peaks --runs 1 --no-counters --profile "$W/without.json" --out "$W/without" >"$W/without.log" 2>&1
t2=$(now)
with=$(span "$t0" "$t1")
without=$(span "$t1" "$t2")
tool=$(python3 -c "print(f'{$with - $without:.1f}')")

metrics=$("$BIN" list metrics --tsv | cut -f2 | paste -sd, -)
pairs=0
t3=$(now)
for s in ${SIZES//,/ }; do
  for k in $("$BIN" list kernels --tsv | cut -f1); do
    ncu --csv --cache-control all --clock-control none --metrics "$metrics" \
      "$BIN" run-kernel --kernel "$k" --size "$s" >"$W/ncu-$k-$s.csv" 2>&1 || echo "ncu failed: $k $s" >&2
    pairs=$((pairs + 1))
  done
done
t4=$(now)
ncu_s=$(span "$t3" "$t4")
ratio=$(python3 -c "print(f'{$tool / $ncu_s:.3f}')")
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
cat <<MD
Profiling cost on the $gpu, $(date -u +%FT%TZ), \`scripts/profiling_cost.sh $BIN $SIZES\`:
$pairs (kernel, size) pairs, $("$BIN" list metrics --tsv | wc -l) metrics.

| what | wall time |
|---|--:|
| tool, whole job with counters (verify, time, counters) | $with s |
| tool, whole job without counters (verify, time) | $without s |
| **tool, counter pass** (the difference) | **$tool s** |
| **ncu, the same metrics on the same pairs** (one \`run-kernel\` process each) | **$ncu_s s** |
| tool's counter pass ÷ ncu | $ratio |

Where the counter session's time went (its own clock, \`TGEMM_CUPTI_TIMING=1\`, the run with counters):

\`\`\`
$(grep '^cupti timing' "$W/with.log")
\`\`\`
MD
if [ -n "${3:-}" ]; then
  mkdir -p "$3" && cp "$W"/with.json "$W"/without.json "$W"/with.log "$W"/without.log "$3"/
fi
