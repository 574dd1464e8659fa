#!/usr/bin/env python3
"""The GPU probe scripts without a GPU: scripts/probes/ncu_columns.py and ncu_table.py turn ncu's
raw lines into the columns of docs/validation/, ncu_runs_csv.py saved ncu outputs into the rows of
validate_ncu.py's --noise-csv, and the shell scripts refuse bad numbers or pairs in
one line with exit code 2 before they build or touch a GPU; cta_drift_table.py reads CTA traces
into the schedule table of docs/models/dram-waves.md, cta_steps_table.py K-step traces into
the coalescer's tables of docs/validation/coalescer-steps/, and sm_pairs_table.py CTA traces into
which CTAs share an SM (docs/validation/cta-drift/<gpu>-sm-pairs.txt). Argument: the source
tree."""
import contextlib
import importlib.util
import io
import os
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "probes"))
import cta_drift_table  # noqa: E402
import cta_steps_table  # noqa: E402
import fabric_one_sided  # noqa: E402
import ncu_columns  # noqa: E402
import sm_pairs_table  # noqa: E402
import ncu_edge_lines  # noqa: E402
import ncu_runs_csv  # noqa: E402
import ncu_table  # noqa: E402

failures = []
checks = [0]


def check(ok, what):
    checks[0] += 1
    if not ok:
        failures.append(what)


# Kernel names and values with commas, two metrics, two launches, a metric before its sibling.
raw = [
    "# a comment",
    "naive,2048,1,void naive_kernel(int, int, float *),lrc__request_sectors_op_read_coalescable.sum,67,498,368",
    "naive,2048,1,void naive_kernel(int, int, float *),dram__bytes_read.sum,50,373,632",
    "naive,2048,2,void naive_kernel(int, int, float *),dram__bytes_read.sum,50,400,000",
    "naive,2048,2,void naive_kernel(int, int, float *),lrc__request_sectors_op_read_coalescable.sum,67,502,768",
]
out = ncu_columns.convert(raw)
check(out == ["# a comment", "kernel,size,run,requests,dram_read_bytes",
              "naive,2048,1,67498368,50373632", "naive,2048,2,67502768,50400000"],
      f"convert: {out}")

# The committed files are what the converter makes of such lines (their columns, in order).
for name in ("h100-lrc-2048-ncu3.csv", "h100-tma-requests-ncu.csv"):
    with open(os.path.join(ROOT, "docs", "validation", name)) as f:
        header = next(line for line in f if not line.startswith("#")).strip()
    check(header.startswith("kernel,size,run,requests,merged,l1_miss,l2_tex_read"),
          f"{name}: header {header}")


# ncu_table.py: key columns first, ncu's quoted CSV after them (its own header line skipped), the
# columns named by the header's `name = metric` pairs, in their order.
header = ["# where and how", "# sectors; l2_write = lts__t_sectors_op_write.sum; "
          "dram_write_bytes = dram__bytes_write.sum"]
ncu_raw = [
    'bf16_mma,2048,"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"',
    'bf16_mma,2048,"0","7","void k<config<128, 128, 4>>(params)","dram__bytes_write.sum","byte",'
    '"1,189,376"',
    'bf16_mma,2048,"0","7","void k<config<128, 128, 4>>(params)","lts__t_sectors_op_write.sum",'
    '"sector","393,984"',
]
out = ncu_table.convert(header, ncu_raw, ["kernel", "size"])
check(out == header + ["kernel,size,l2_write,dram_write_bytes", "bf16_mma,2048,393984,1189376"],
      f"ncu_table.convert: {out}")
# The committed files it made: the promotion experiment's and the store path's columns.
for name, keys in (("h100-tma-l2-promotion.csv", "promotion,kernel,size,l2_fabric,"),
                   ("h200-l2-store-path.csv", "kernel,size,l1_store,")):
    with open(os.path.join(ROOT, "docs", "validation", name)) as f:
        lines = f.read().splitlines()
    cols = [c for c, _ in ncu_table.columns_of(lines[:2])[1]]
    n_keys = len(keys.split(",")) - 2  # the keys, then the first column, then ''
    check(lines[2].startswith(keys) and lines[2].split(",")[n_keys:] == cols,
          f"{name}: header {lines[2]} against its '#' line's columns {cols}")


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, cwd=ROOT, env=e, capture_output=True, text=True, timeout=60)


def one_line_exit_2(r, needle, what):
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    check(r.returncode == 2 and len(lines) == 1 and needle in lines[0],
          f"{what}: exit {r.returncode}, stderr {r.stderr!r}")


with tempfile.TemporaryDirectory() as d:
    bad = os.path.join(d, "bad.csv")
    with open(bad, "w") as f:
        f.write("naive,2048,1,no metric here\n")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_columns.py", bad]),
                    "no metric name", "ncu_columns.py on a line without a metric")
    with open(bad, "w") as f:
        f.write("naive,2048,1,k(),dram__bytes_read.sum,n/a\n")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_columns.py", bad]),
                    "not a whole number", "ncu_columns.py on a value that is not a number")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_columns.py", os.path.join(d, "none")]),
                    "No such file", "ncu_columns.py on a missing file")
    hdr = os.path.join(d, "header.txt")
    with open(hdr, "w") as f:
        f.write("\n".join(header) + "\n")
    with open(bad, "w") as f:
        f.write(ncu_raw[1].replace('"1,189,376"', '"n/a"') + "\n")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_table.py", "--keys", "kernel,size",
                         hdr, bad]), "not a number", "ncu_table.py on a value that is not a number")
    with open(bad, "w") as f:
        f.write(ncu_raw[1] + "\n")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_table.py", "--keys", "kernel,size",
                         hdr, bad]), "no lts__t_sectors_op_write.sum",
                    "ncu_table.py on a launch without one of the columns")
    one_line_exit_2(run([sys.executable, "scripts/probes/ncu_table.py", "--keys", "kernel,size",
                         hdr, os.path.join(d, "none")]), "No such file",
                    "ncu_table.py on a missing file")
    for env, needle in (({"REPEAT": "x"}, "REPEAT"), ({"NCU_RUNS": "-1"}, "NCU_RUNS")):
        one_line_exit_2(run(["bash", "scripts/probes/lrc_spread.sh"], {**env, "OUT": d}), needle,
                        f"lrc_spread.sh with {env}")
    for env, needle in (({"PAIRS": "naive:2048", "RUNS": "x"}, "RUNS"),
                        ({"PAIRS": "naive:2048", "RUNS": "0"}, "RUNS"),
                        ({"PAIRS": ""}, "set PAIRS"),
                        ({"PAIRS": "naive 2048"}, "not kernel:size")):
        one_line_exit_2(run(["bash", "scripts/probes/ncu_modes.sh"], {**env, "OUT": d}), needle,
                        f"ncu_modes.sh with {env}")
    for env, needle in (({"OCC_PAIRS": "bf16_mma:2048", "RUNS": "x"}, "RUNS"),
                        ({"OCC_PAIRS": "", "DRAM_PAIRS": ""}, "OCC_PAIRS"),
                        ({"DRAM_PAIRS": "smem_register:2048 naive"}, "not kernel:size")):
        one_line_exit_2(run(["bash", "scripts/probes/tail_occupancy.sh"], {**env, "OUT": d}),
                        needle, f"tail_occupancy.sh with {env}")
    for env, needle in (({"STEPS": ""}, "set STEPS"),
                        ({"STEPS": "ws,count", "REPEAT": "0"}, "REPEAT"),
                        ({"STEPS": "ws,count", "BUILD_DIR": d}, "no test binary")):
        one_line_exit_2(run(["bash", "scripts/probes/capacity_edge_steps.sh"], env), needle,
                        f"capacity_edge_steps.sh with {env}")
    for arg in ("abc", "0"):
        one_line_exit_2(run(["bash", "scripts/fleet_node.sh", arg], {"OUT": d}),
                        "positive whole number", f"fleet_node.sh {arg}")

# ncu_runs_csv.py: the tool's keys and scales for the metrics of its table, the tool's own
# tgemm_aux_* kernels left out, a rate averaged and a sum added over the launch's kernels.
TEXT = """==PROF== Connected
"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","1","tgemm_aux_l2_flush(float4 const*)","gpu__time_duration.sum","ns","9,000"
"1","1","void bf16_mma_kernel<config<128, 128, 4>>(problem)","gpu__time_duration.sum","ns","84,992"
"1","1","void bf16_mma_kernel<config<128, 128, 4>>(problem)","sm__warps_active.avg.pct_of_peak_sustained_active","%","10.54"
"1","1","void bf16_mma_kernel<config<128, 128, 4>>(problem)","sm__cycles_active.avg","cycle","116,416.51"
"""
table = [("duration_ns", "gpu__time_duration.sum", 1.0),
         ("achieved_occupancy_pct", "sm__warps_active.avg.pct_of_peak_sustained_active", 1.0),
         ("dram_read_bytes", "dram__bytes_read.sum", 1.0)]
rows = ncu_runs_csv.rows_of(table, "bf16_mma", "6144x1024x1536", "tool",
                            [("a", TEXT), ("b", TEXT.replace("84,992", "85,024"))])
check(rows == [["bf16_mma", "6144x1024x1536", "duration_ns", 1, 84992.0, "tool"],
               ["bf16_mma", "6144x1024x1536", "achieved_occupancy_pct", 1, 10.54, "tool"],
               ["bf16_mma", "6144x1024x1536", "duration_ns", 2, 85024.0, "tool"],
               ["bf16_mma", "6144x1024x1536", "achieved_occupancy_pct", 2, 10.54, "tool"]],
      f"ncu_runs_csv rows: {rows}")
# --per-launch: one output of two launches (and the tool's flush before each) is two runs.
TWO = TEXT + '"2","1","tgemm_aux_l2_flush(float4 const*)","gpu__time_duration.sum","ns","9,000"\n' + \
    TEXT.split("\n", 2)[2].replace('"1","1"', '"3","1"').replace("84,992", "85,024")
launches = ncu_runs_csv.launches_of("two.txt", TWO)
check([name for name, _ in launches] == ["two.txt#1", "two.txt#3"], f"launches_of: {launches}")
check(ncu_runs_csv.rows_of(table, "bf16_mma", "6144x1024x1536", "tool", launches) == rows,
      "rows_of over launches_of: as two saved outputs")
try:
    ncu_runs_csv.rows_of(table, "k", "1", "all", [("empty.txt", "no csv here")])
    check(False, "ncu_runs_csv on an output without ncu's CSV raises")
except RuntimeError as e:
    check("no CSV from ncu for empty.txt" in str(e), f"ncu_runs_csv error: {e}")
try:
    ncu_runs_csv.launches_of("empty.txt", "no csv here")
    check(False, "launches_of on an output without ncu's CSV raises")
except RuntimeError as e:
    check("no CSV from ncu for empty.txt" in str(e), f"launches_of error: {e}")
# Its command line: an unreadable output or a binary that lists no metrics, one line each.
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "runs.csv")
    saved = os.path.join(d, "run1.txt")
    with open(saved, "w") as f:
        f.write(TEXT)
    for argv, needle in (([os.path.join(d, "missing.txt")], "missing.txt: cannot read it"),
                         ([saved], "--binary /nonexistent/tgemm-roofline: cannot list")):
        script = os.path.join(ROOT, "scripts", "probes", "ncu_runs_csv.py")
        r = subprocess.run([sys.executable, script, "--binary", "/nonexistent/tgemm-roofline",
                            "--kernel", "k", "--size", "1", "--prep", "all", out, *argv],
                           capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(r.returncode != 0 and len(lines) == 1 and needle in lines[0],
              f"ncu_runs_csv.py {argv}: rc {r.returncode}, {r.stderr!r}")
        check(not os.path.exists(out), f"ncu_runs_csv.py {argv} wrote {out}")

# ncu_edge_lines.py: one line per launch of a rung, the preparation's and the probes' kernels left
# out, in the form validate_ncu.py --placements reads; a launch without one of the two metrics is
# refused, an output without ncu's CSV said in one line.
edge_csv = [
    "==PROF== noise\n",
    '"ID","Kernel Name","Metric Name","Metric Value"\n',
    '"0","<unnamed>::tgemm_aux_l2_flush(const float4 *)","dram__bytes_read.sum","209,720,000"\n',
    '"1","tgemm::<unnamed>::naive_kernel(int, int)","dram__bytes_read.sum","64,110,000"\n',
    '"1","tgemm::<unnamed>::naive_kernel(int, int)","lts__t_sectors_srcunit_ltcfabric.sum",'
    '"2,252,000"\n',
    '"2","tgemm::probe::<unnamed>::discard_kernel(char *)","dram__bytes_read.sum","5"\n',
]
lines = ncu_edge_lines.edge_lines("ws,launch", edge_csv)
check(lines == ["ws,launch: ncu tgemm::<unnamed>::naive_kernel: DRAM reads 64.11 MB, fabric 72.06 MB"],
      f"ncu_edge_lines: {lines}")
spec = importlib.util.spec_from_file_location(
    "validate_ncu", os.path.join(ROOT, "scripts", "validate_ncu.py"))
validate_ncu = importlib.util.module_from_spec(spec)
spec.loader.exec_module(validate_ncu)
m = validate_ncu.PLACEMENT_LINE.match(lines[0])
check(m is not None and m["ncu"] and m["kernel"] == "naive" and m["reads"] == "64.11",
      f"validate_ncu.py --placements reads ncu_edge_lines' line: {m}")
try:
    ncu_edge_lines.edge_lines("ws,launch", edge_csv[:4])
    check(False, "ncu_edge_lines on a launch without its fabric metric raises")
except ValueError as e:
    check("no lts__t_sectors_srcunit_ltcfabric.sum" in str(e), f"ncu_edge_lines error: {e}")
check(ncu_edge_lines.edge_lines("ws,launch", ["no csv\n"]) == ["ws,launch: ncu wrote no rows"],
      "ncu_edge_lines on an output without rows")
r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "probes", "ncu_edge_lines.py")],
                   input="", capture_output=True, text=True)
check(r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1 and "steps" in r.stderr,
      f"ncu_edge_lines.py without its argument: rc {r.returncode}, {r.stderr!r}")

# cta_drift_table.py: synthetic traces of 4 SMs and 2 CTAs per SM, each CTA a lifetime L.
L = 1_000_000


def trace_csv(spans):
    return ["cta,sm,start_ns,end_ns"] + [f"{i},{sm},{s},{e}" for i, (sm, s, e) in enumerate(spans)]


# In step: each wave of 8 starts together, every L.
in_step = [(c % 4, (c // 8) * L, (c // 8 + 1) * L) for c in range(32)]
# Drifting: the first wave's second CTA on each SM lasts 1.5 L (the first one had the SM first);
# from then on the two slots take a new CTA half a lifetime apart.
drifting = [(c, 0, L) for c in range(4)] + [(c, 0, 3 * L // 2) for c in range(4)]
for g in range(1, 4):
    drifting += [(c, g * L, (g + 1) * L) for c in range(4)]
    drifting += [(c, g * L + L // 2, (g + 1) * L + L // 2) for c in range(4)]
per_sm, share, spread = cta_drift_table.summarize(cta_drift_table.spans_of(trace_csv(in_step)))
check((per_sm, share, spread) == (2, 1.0, 0.0), f"cta_drift_table in step: {per_sm, share, spread}")
check(cta_drift_table.schedule(spread) == "in step", "cta_drift_table: in step named")
per_sm, share, spread = cta_drift_table.summarize(cta_drift_table.spans_of(trace_csv(drifting)))
check(per_sm == 2 and abs(share - 2 / 3) < 1e-9 and abs(spread - 0.5) < 1e-9,
      f"cta_drift_table drifting: {per_sm, share, spread}")
check(cta_drift_table.schedule(spread) == "drifting", "cta_drift_table: drifting named")
check(cta_drift_table.schedule(None) == "under two waves", "cta_drift_table: one wave")
with tempfile.TemporaryDirectory() as d:
    for name, spans in (("naive-64x64x64", in_step), ("smem_tiling-64x64x64", drifting)):
        with open(os.path.join(d, name + ".csv"), "w", encoding="ascii") as f:
            f.write("\n".join(trace_csv(spans)) + "\n")
    lines = cta_drift_table.table(cta_drift_table.traces(d))
    check(lines[2:] == ["| naive | 64×64×64 | 2 | 1.00 | 0.00 | in step |",
                        "| smem_tiling | 64×64×64 | 2 | 0.67 | 0.50 | drifting |"],
          f"cta_drift_table rows: {lines}")
    script = os.path.join(ROOT, "scripts", "probes", "cta_drift_table.py")
    for args, what in (([], "usage"), ([os.path.join(d, "none")], "no such"),
                       ([os.path.join(d, "empty")], "no <rung>")):
        if what == "no <rung>":
            os.mkdir(args[0])
        r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and what in r.stderr,
              f"cta_drift_table.py {args}: rc {r.returncode}, {r.stderr!r}")

# sm_pairs_table.py by hand: 32 × 32 tiles, a grid of 2 × 2 (CTAs 0, 1 in row 0; 2, 3 in row 1).
# SM 0 runs CTAs 0 and 1 together, SM 1 CTA 2 and, half a lifetime later, CTA 3: two pairs, both
# in one row, none in one column; random dealing of a wave of 4 pairs two of one row 2 times in
# 6. CTA 1 reads A at each point of K when CTA 0 does (the earlier in launch order misses), CTA 3
# 500 ns after CTA 2: 2 of the 8 strip reads of 4 CTAs × 2 strips come from L1, per sample.
pairs = sm_pairs_table.summarize(
    cta_drift_table.spans_of(trace_csv([(0, 0, 1000), (0, 0, 1000), (1, 0, 1000),
                                        (1, 500, 1500)])), 64, 64, (32, 32))
check(pairs["pairs"] == 2 and pairs["row"] == 1.0 and pairs["col"] == 0.0,
      f"sm_pairs_table pairs: {pairs}")
check(abs(pairs["random"] - 1 / 3) < 1e-12 and pairs["distance"] == [1, 1, 1],
      f"sm_pairs_table random and distance: {pairs}")
check(abs(pairs["offset"] - 0.25) < 1e-12 and pairs["served"] == {10: 0.25, 30: 0.25, 100: 0.25},
      f"sm_pairs_table offset and served: {pairs}")
script = os.path.join(ROOT, "scripts", "probes", "sm_pairs_table.py")
for args in ([], ["/nonexistent.tar.gz"], [os.path.join(ROOT, "README.md")]):
    r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
          f"sm_pairs_table.py {args}: rc {r.returncode}, {r.stderr!r}")
# The committed tables are the script's output (blocktiling_2d's lines: its traces are short).
for gpu in ("h100", "h200"):
    base = os.path.join(ROOT, "docs", "validation", "cta-drift", gpu)
    with open(base + "-sm-pairs.txt", encoding="utf-8") as f:
        committed = [line.rstrip("\n") for line in f if line.startswith("blocktiling_2d ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        sm_pairs_table.main(["sm_pairs_table.py", base + "-traces.tar.gz", "blocktiling_2d"])
    check(committed and out.getvalue().splitlines() == committed,
          f"docs/validation/cta-drift/{gpu}-sm-pairs.txt is not the script's output")

# fabric_one_sided.py by hand: SMs 0-65 on one side, the first wave dealt in SM order; 2 × 66 tiles
# of 32 × 32: each row's 66 CTAs sit on one side, each column's two on both, so the rows' strips
# of A (2 × 32 rows) are one-sided and the columns' strips of B (66 × 32) are not: 64 of 2176.
share = fabric_one_sided.one_sided_share(64, 32 * 66, 8, 32, 32, list(range(132)), set(range(66)))
check(abs(share - 64 / 2176) < 1e-12, f"fabric_one_sided share: {share}")
script = os.path.join(ROOT, "scripts", "probes", "fabric_one_sided.py")
for args in ([], ["/nonexistent.log", "/nonexistent.log", "/nonexistent.json"],
             [os.path.join(ROOT, "README.md")] * 3):
    r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
          f"fabric_one_sided.py {args}: rc {r.returncode}, {r.stderr!r}")
# The committed tables are the script's output on the committed logs and profiles.
for gpu in ("h100", "h200"):
    v = os.path.join(ROOT, "docs", "validation")
    profiles = [os.path.join(ROOT, "profiles", gpu + ".json")] + sorted(
        os.path.join(v, n) for n in os.listdir(v)
        if n.startswith(gpu + "-") and n.endswith("-shapes.json"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fabric_one_sided.main(["fabric_one_sided.py", os.path.join(v, gpu + "-cta-placement.log"),
                               os.path.join(v, gpu + "-l2-partition-map.log")] + profiles)
    with open(os.path.join(v, gpu + "-fabric-one-sided.txt"), encoding="utf-8") as f:
        check(out.getvalue() == f.read(),
              f"docs/validation/{gpu}-fabric-one-sided.txt is not the script's output")

# The committed schedule tables are the script's output on the committed traces.
for gpu in ("h100", "h200"):
    base = os.path.join(ROOT, "docs", "validation", "cta-drift", gpu)
    with open(base + "-table.md", encoding="utf-8") as f:
        committed = [line.rstrip("\n") for line in f if line.startswith("|")]
    check(committed == cta_drift_table.table(cta_drift_table.traces(base + "-traces.tar.gz")),
          f"docs/validation/cta-drift/{gpu}-table.md is not the script's output on its traces")

# cta_steps_table.py: a response takes those within w of its first, four at most.
check(cta_steps_table.merged_within([0, 10, 20, 30, 40], 64) == 3, "steps: fan-out of four")
check(cta_steps_table.merged_within([0, 100], 64) == 0, "steps: outside the window")
check(cta_steps_table.merged_within([0, 50, 100, 150], 64) == 2, "steps: windows from each first")
check(abs(cta_steps_table.curve(cta_steps_table.WARM, 48) - (0.643 + 0.251) / 2) < 1e-12,
      "steps: the warm curve interpolated")
check(cta_steps_table.curve(cta_steps_table.COLD, 100000) == 0.0, "steps: nothing past the curve")
check(cta_steps_table.merged_by_curve([0, 0], cta_steps_table.COLD) == 1.0, "steps: together")

# Two CTAs of one row of blocktiling_2d tiles (128x256x16: one strip of A, two of B, two steps)
# on SMs of one domain: step 0 32 ns apart, step 1 4 us apart. Each CTA asks 4096 B of A and of B
# a step (32768 B in all); the domain lets one of the two A requests merge a step (8192 B, 0.25);
# within 64 ns only step 0's merges (4096 B, 0.125); the cold curve, whose group holds the strip's
# first reader, gives 1.0 of it at 32 ns and none at 4 us (0.125).
steps_csv = ["# l2_requested_bytes 32768 l2_coalesced_bytes 4096",
             "cta,sm,start_ns,end_ns,s0,s1", "0,0,0,9984,0,1024", "1,1,0,9984,32,4992"]
with tempfile.TemporaryDirectory() as d:
    trace = os.path.join(d, "blocktiling_2d-128x256x16-r0-steps.csv")
    with open(trace, "w", encoding="ascii") as f:
        f.write("\n".join(steps_csv) + "\n")
    log = os.path.join(d, "domains.log")
    with open(log, "w", encoding="ascii") as f:
        f.write("domain of SM 0 ... 1: 0 0\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cta_steps_table.main(["cta_steps_table.py", d, log])
    text = out.getvalue()
    check(rc == 0 and "allow 0.250 merged; measured: requests 0.0 MB, merged 0.125" in text
          and "64 ns: 0.125" in text and "warm for the rest): 0.125" in text,
          f"cta_steps_table on two CTAs: {text!r}")
    # Packed and read back: the same CSV, to the byte.
    packed = os.path.join(d, "t.steps.xz")
    check(cta_steps_table.main(["cta_steps_table.py", "--pack", d, packed]) == 0, "steps: pack")
    back = list(cta_steps_table.unpacked(packed))
    check(len(back) == 1 and back[0][0] == os.path.basename(trace)
          and back[0][1].read() == "\n".join(steps_csv) + "\n", f"steps: pack round trip {back}")
    # Refused in one line, exit code 2: a time off the timer's 32 ns grid, no traces, no domains.
    with open(trace, "w", encoding="ascii") as f:
        f.write("\n".join(steps_csv[:-1] + ["1,1,0,9984,33,4992"]) + "\n")
    script = os.path.join(ROOT, "scripts", "probes", "cta_steps_table.py")
    for args, what in ((["--pack", d, os.path.join(d, "u.xz")], "32 ns grid"),
                       ([os.path.join(d, "none"), log], "no such"),
                       ([d, trace], "no 'domain of SM"),
                       ([d, log, "naive"], "no <rung>"), ([log, log], "not a folder"),
                       ([], "usage")):
        r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and what in r.stderr,
              f"cta_steps_table.py {args}: rc {r.returncode}, {r.stderr!r}")
    check(not os.path.exists(os.path.join(d, "u.xz")), "steps: a refused pack leaves no file")

# --sharing: on SM 0 CTA 0 (from 0) and CTA 1 (from 1000 ns); on SM 1 CTA 2 alone. CTA 0's steps
# while CTA 1 runs are the older's (100 ns), CTA 1's the younger's (300 ns); CTA 0's first step,
# before CTA 1 starts (950 ns), and CTA 2's three are alone's (median 50 ns, four steps).
sharing_csv = ["cta,sm,start_ns,end_ns,s0,s1,s2,s3", "0,0,0,2000,0,950,1050,1150",
               "1,0,1000,3000,1000,1300,1600,1900", "2,1,0,500,0,50,100,150"]
got = cta_steps_table.sharing("x-steps.csv", io.StringIO("\n".join(sharing_csv) + "\n"))
check(got == {"older": (100, 2), "younger": (300, 3), "alone": (50, 4)},
      f"cta_steps_table --sharing: {got}")

# The committed coalescer tables are the script's output on the committed traces (one rung and
# shape of each here; every trace as the README there says).
for gpu, domain_log in (("h100", "coalescer-steps/h100-request-coalescer-domains.log"),
                        ("h200", "h200-request-coalescer.log")):
    base = os.path.join(ROOT, "docs", "validation")
    with open(os.path.join(base, "coalescer-steps", gpu + "-table.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    # Each trace's block: its line and the three below it.
    committed = [line for i, line in enumerate(lines)
                 if any(lines[j].startswith("warptiling      1024x1024x1024")
                        for j in range(max(0, i - 3), i + 1))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cta_steps_table.main(["cta_steps_table.py",
                              os.path.join(base, "coalescer-steps", gpu + "-steps.xz"),
                              os.path.join(base, domain_log), "warptiling-1024x1024x1024"])
    made = out.getvalue().splitlines()
    check(committed and made == committed,
          f"docs/validation/coalescer-steps/{gpu}-table.txt is not the script's output: {made}")

for f in failures:
    print("FAILED:", f)
print(f"{checks[0] - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
