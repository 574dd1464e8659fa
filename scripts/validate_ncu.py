#!/usr/bin/env python3
"""Cross-checks every counter in a tgemm-roofline profile against Nsight Compute.

For each measured (kernel, shape) of the profile, runs
    ncu --cache-control all --clock-control none --metrics <the tool's metric table>
        tgemm-roofline run-kernel --kernel K --size S
and compares each metric with the value the tool's CUPTI collector stored. Writes a
markdown table (docs/validation.md) and a CSV. Exit status 1 when a counter differs by more
than the tolerance and is not on the explained list.

    python3 scripts/validate_ncu.py --binary build-h100/tgemm-roofline \
        --profile profiles/h100.json --out docs/validation.md [--shapes 1024,4096]

The comparisons it made are also written as CSV (--csv); `--rescore A.csv B.csv ...` rebuilds
the markdown from such files without a GPU (the runs of one profile split by --shapes).
"""
import argparse
import csv
import io
import json
import os
import re
import statistics
import subprocess
import sys
import time

TOLERANCE = 0.02
# Counters whose disagreement has a known cause, documented in docs/validation.md.
EXPLAINED = {
    "duration_ns": "one launch each, timed separately: run-to-run variation, not a counting error",
    "sm_clock_hz": "average clock of a different launch: the clock is not locked (--clock-control none)",
    "l2_coalesced_bytes": "the L2 request coalescer merges identical requests that happen to be in "
    "flight together: it depends on timing, not on what the kernel requests (l2_requested_bytes)",
}
# Bank-conflict counters depend on how the warps' shared-memory instructions happen to meet in
# time, so they vary between launches even under ncu alone (see --noise). They are compared
# against the wavefronts they belong to: a difference of 2% of the wavefronts is the tolerance.
RELATIVE_TO = {
    "smem_load_bank_conflicts": "smem_load_wavefronts",
    "smem_store_bank_conflicts": "smem_store_wavefronts",
}
# Warp-stall reasons (docs/why.md) are counts of warp-cycles, and which state a warp is in on a
# cycle depends on how the warps happen to interleave: they are compared as shares of all
# warp-cycles, the way the report uses them (a difference of 2 % of warp_cycles).
STALL_REASONS = ["long_scoreboard", "barrier", "mio_throttle", "short_scoreboard",
                 "math_pipe_throttle", "not_selected", "selected", "wait", "lg_throttle", "gmma",
                 "dispatch_stall", "branch_resolving", "no_instruction", "imc_miss", "membar",
                 "drain", "sleeping", "tex_throttle", "misc"]
RELATIVE_TO.update({"stall_" + r: "warp_cycles" for r in STALL_REASONS})
# Counters that count cycles or are shares of them: a launch that takes x % longer (its
# duration_ns against ncu's) moves them by about as much. Explained when the difference is
# within the two launches' duration difference plus the tolerance.
# Ratios that ncu's CSV prints with two decimals (0.17 for an IPC of 0.1659): a difference
# within half the last printed digit is the print, not the count.
PRINTED_DECIMALS = {"ipc": 2, "issue_active_pct": 2, "achieved_occupancy_pct": 2,
                    "fma_pipe_pct": 2, "tensor_pipe_pct": 2}
TIMING_DEPENDENT = {"sm_cycles_active", "warp_cycles", "ipc", "issue_active_pct",
                    "achieved_occupancy_pct", "fma_pipe_pct", "tensor_pipe_pct"}


def shape_arg(m):
    if m["m"] == m["n"] == m["k"]:
        return str(m["m"])
    return f'{m["m"]}x{m["n"]}x{m["k"]}'


def metric_table(binary):
    out = subprocess.run([binary, "list", "metrics", "--tsv"], check=True,
                         capture_output=True, text=True).stdout
    table = []
    for line in out.strip().splitlines():
        key, metric, scale, _ = line.split("\t", 3)
        table.append((key, metric, float(scale)))
    return table


# Counters that depend on what L2 holds and on timing (how far apart the CTAs run when they share a
# strip). Each is also measured by ncu run after the tool's own preparation (--cache-control none
# on `run-kernel --flush`): a second launch under the tool's conditions. A row that misses the
# first ncu run but agrees within 2 % with the second is explained by the preparation or the
# launch-to-launch spread the two ncu runs show.
# The L2 requests (what L1 misses) belong here too: two CTAs on one SM sharing a strip of B hit
# in L1 for each other as far as they run in step, and ncu's own cache control, which the tool's
# preparation does not repeat, changes that (at 8192x768x2048 on the H100 ncu's L2 bytes after
# the tool's preparation are within 2 % of the tool's, and 4-7 % above them after its own,
# docs/validation-method.md).
SECOND_OPINION = {"dram_read_bytes", "dram_write_bytes", "l2_bytes", "l2_read_bytes",
                  "l2_write_bytes", "l2_tex_bytes", "l2_fabric_bytes", "l2_requested_bytes"}
# DRAM writes: Nsight Compute's own --cache-control all leaves dirty lines that the kernel then
# writes back (2.2-2.9 MB more than the tool on every row that writes C, H100 and H200,
# 2026-11-24), and even after the tool's flush ncu's start adds a little (0.1-0.7 MB on rows
# whose C stays in L2). So writes are judged against the run after the tool's preparation,
# within 2 % or WRITE_FLOOR bytes, the floor for small writes.
WRITE_FLOOR = 1e6
# The counters ncu's repeated launches after the tool's preparation (--noise-same-prep-only) are
# collected for and judged against: those that depend on what L2 holds, and the cycle counters,
# since a launch from ncu's invalidated L2 runs longer than one after the tool's flush (classify).
SAME_PREPARATION_RUNS = SECOND_OPINION | TIMING_DEPENDENT | {"duration_ns"}


# What a counted window holds when the kernel touches no memory (a spin kernel after the tool's
# preparation, Collector.L2PartitionsOnKnownTraffic; --idle-log): per L2 counter, bytes the
# tool's window adds to any kernel's. A row whose tool value, less that, is within 2 % of ncu's
# second run (the tool above it by no more than the window and the tolerance) is explained by
# the window. (Until 2026-11-25's sixth session the tolerance was not added: a tool value just
# above ncu plus the window stayed open although, the window taken off, it was within 2 %.)
WINDOW_KEYS = {"l2_bytes": "l2", "l2_fabric_bytes": "l2_fabric", "l2_write_bytes": "l2_write"}


def idle_window(path):
    """{key: bytes} from the 'spin 50 us, flushed' line of a collector test log."""
    if not path:
        return {}
    try:
        lines = open(path).readlines()
    except OSError as e:
        raise SystemExit(f"--idle-log {path}: cannot read it ({e.strerror})")
    for line in lines:
        if line.startswith("spin 50 us, flushed"):
            words = line.split()
            fields = {}
            for name, value in zip(words, words[1:]):
                try:
                    fields[name] = float(value)
                except ValueError:
                    pass
            return {key: fields[name] for key, name in WINDOW_KEYS.items() if name in fields}
    raise SystemExit(f"{path}: no 'spin 50 us, flushed' line")


def window_duration(paths):
    """(lo, hi) ns that a counted user range adds to a kernel's gpu__time_duration: from logs of
    Collector.KernelRangesCountTheKernelAlone (docs/validation/<gpu>-cupti-ranges*.log), the idle
    50 us kernel counted in user ranges (every "spin 50 us" line but the kernel range's) less the
    same kernel counted in its own kernel range, over every log. None without a log."""
    if not paths:
        return None
    user, kernel = [], []
    for path in paths:
        try:
            lines = open(path).readlines()
        except OSError as e:
            raise SystemExit(f"--window-log {path}: cannot read it ({e.strerror})")
        found = set()
        for line in lines:
            if "spin 50 us" not in line or "duration_ns" not in line:
                continue
            words = line.split()
            in_kernel_range = line.startswith("kernel range:")
            value = float(words[words.index("duration_ns") + 1])
            (kernel if in_kernel_range else user).append(value)
            found.add("kernel" if in_kernel_range else "user")
        if found != {"user", "kernel"}:
            raise SystemExit(f"{path}: needs 'spin 50 us' lines in user ranges and a "
                             "'kernel range: spin 50 us' line")
    return (min(user) - max(kernel), max(user) - min(kernel))


def launch_duration_diff(tool_ns, ncu_ns, window=None):
    """How much longer the tool's counted launch ran than ncu's, relative to ncu's: with the user
    range's own window taken off (`window`, (lo, hi) ns), the smallest difference any window in
    that range leaves."""
    if not ncu_ns or tool_ns is None:
        return None
    excess = tool_ns - ncu_ns
    if window:
        lo, hi = window
        excess = 0.0 if lo <= excess <= hi else (excess - lo if excess < lo else excess - hi)
    return excess / ncu_ns


def launch_spread(paths, flag="--spread", check=None):
    """{(kernel, size, key): (min, max)} over the tool's repeated launches (--repeat profiles);
    a pair in several files gets the range of all their launches. `check(profile)` returns why a
    profile does not fit the flag, or None."""
    out = {}
    for path in paths or []:
        try:
            profile = json.load(open(path))
            measurements = profile["measurements"]
            why = check(profile) if check else None
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{flag} {path}: not a readable profile ({e})")
        if why:
            raise SystemExit(f"{flag} {path}: {why}")
        for m in measurements:
            for key, s in m.get("repeats", {}).get("counters", {}).items():
                lo, hi = out.get((m["kernel"], shape_arg(m), key), (s["min"], s["max"]))
                out[(m["kernel"], shape_arg(m), key)] = (min(lo, s["min"]), max(hi, s["max"]))
    return out


def kernel_range_spread(paths):
    """launch_spread of profiles counted in CUPTI's kernel ranges (`--cupti-ranges kernel`,
    with --repeat), each checked to be one."""
    def counted_in_kernel_ranges(profile):
        if "--cupti-ranges kernel" not in profile["env"]["command"]:
            return "not counted in kernel ranges (its command has no --cupti-ranges kernel)"
        return None

    return launch_spread(paths, "--kernel-range-runs", counted_in_kernel_ranges)


def classify(key, tool, ref, same, base, duration_diff=None, spread=None, window=None,
             ncu_runs=None, ncu_runs_same=None, window_ns=None, kernel_ranges=None,
             placements=None):
    """(within tolerance of the first ncu run, explained, note) for one comparison."""
    diff = 0.0 if ref == tool else (tool - ref) / max(base, 1e-30)
    ok = abs(diff) <= TOLERANCE
    explained = key in EXPLAINED
    note = ""
    if not ok and key in PRINTED_DECIMALS and abs(tool - ref) <= 0.5 * 10 ** -PRINTED_DECIMALS[key]:
        explained = True
        note = f"ncu prints {PRINTED_DECIMALS[key]} decimals: within half its last digit"
    elif not ok and key in TIMING_DEPENDENT and duration_diff is not None:
        note = f"the launches' durations differ by {duration_diff:+.2%}"
        if window_ns:
            note += (f" (the tool's counted window, {window_ns[0] / 1e3:.1f}-"
                     f"{window_ns[1] / 1e3:.1f} us, taken off)")
        if abs(diff) <= abs(duration_diff) + TOLERANCE:
            explained = True
            note = "within the launches' duration difference + 2 %: " + note
    if key in RELATIVE_TO:
        note = f"difference relative to {RELATIVE_TO[key]}"
    if key in SECOND_OPINION and same is not None:
        alt_diff = 0.0 if same == tool else (tool - same) / max(abs(same), 1e-30)
        note = f"ncu after the tool's flush: {same:.6g} ({alt_diff:+.2%})"
        if not ok and abs(alt_diff) <= TOLERANCE:
            explained = True
            note = "within 2 % of ncu's second launch, after the tool's preparation: " + note
        elif not ok and key == "dram_write_bytes" and abs(tool - same) <= WRITE_FLOOR:
            explained = True
            note = (f"within {WRITE_FLOOR / 1e6:.0f} MB of ncu after the tool's preparation "
                    f"(ncu's own cache control leaves dirty lines): " + note)
    # 2 % of what the row is judged against: the wavefronts of a conflict count, the
    # warp-cycles of a stall reason, the counter itself otherwise.
    def slack(lo, hi):
        return TOLERANCE * (base if key in RELATIVE_TO else max(abs(lo), abs(hi)))

    if not ok and not explained and spread:
        # The profile's own launch is one of the tool's launches too.
        lo, hi = min(tool, spread[0]), max(tool, spread[1])
        refs = [x for x in (ref, same) if x is not None]
        if any(lo - slack(lo, hi) <= x <= hi + slack(lo, hi) for x in refs):
            explained = True
            note = (f"ncu within 2 % of the range of the tool's own launches, the profile's and "
                    f"the repeated ones ({lo:.6g} … {hi:.6g}, --repeat): the counter moves "
                    f"between launches; " + note)
    if not ok and not explained and window and key in window and same is not None:
        if 0 <= tool - same <= window[key] + TOLERANCE * abs(same):
            explained = True
            over = tool - same
            note = (f"the tool exceeds ncu's second launch by {over / 1e6:.2f} MB, within the "
                    f"{window[key] / 1e6:.2f} MB its counted window holds with no memory traffic "
                    f"(idle kernel)"
                    + (f" and the 2 % tolerance ({TOLERANCE * abs(same) / 1e6:.2f} MB)"
                       if over > window[key] else "")
                    + ": " + note)
    # ncu's own launches (run 1 and its --noise runs; for the L2-dependent counters also run 2
    # and its --noise-same-prep runs) against the tool's (its value, and the range of its
    # repeated launches where --spread gives one): two ranges that meet. DRAM writes only
    # against run 2's launches, since ncu's own cache control adds dirty lines (WRITE_FLOOR).
    # The cycle counters too against ncu's launches after the tool's preparation: a launch that
    # starts from a cold, invalidated L2 (ncu's cache control) runs longer than one after the
    # tool's flush (H200 bf16_mma at 6144x1024x1536: 87.3-87.7 us against 84.9-85.0 us, its
    # pipe shares 3-7 % lower; docs/validation/h200-new-shapes-bf16_mma-same-prep.csv).
    t_lo, t_hi = (min(tool, spread[0]), max(tool, spread[1])) if spread else (tool, tool)
    candidates = []
    if ncu_runs and key != "dram_write_bytes":
        candidates.append(("ncu's own launches", ncu_runs + [ref]))
    if ncu_runs_same and key in SAME_PREPARATION_RUNS:
        candidates.append(("ncu's launches after the tool's preparation",
                           ncu_runs_same + ([same] if same is not None else [])))
    for what, values in candidates:
        if ok or explained:
            break
        lo, hi = min(values), max(values)
        gap = max(slack(lo, hi), WRITE_FLOOR if key == "dram_write_bytes" else 0)
        if t_lo <= hi + gap and t_hi >= lo - gap:
            explained = True
            tools = f"the tool's launches ({t_lo:.6g} … {t_hi:.6g})" if spread else "the tool"
            within = "1 MB" if gap > slack(lo, hi) else "2 %"
            note = (f"{tools} within {within} of the range of {what} ({len(values)}: "
                    f"{lo:.6g} … {hi:.6g}, --ncu-runs): the counter moves between launches; "
                    + note)
    # A ratio ncu prints with two decimals stands for an interval half its last digit wide on
    # either side (0.32: 0.315 … 0.325); the tool within 2 % of some value in it is within
    # tolerance of what ncu measured.
    if not ok and not explained and key in PRINTED_DECIMALS:
        half = 0.5 * 10 ** -PRINTED_DECIMALS[key]
        nearest = min(max(tool, ref - half), ref + half)
        if abs(tool - nearest) <= TOLERANCE * abs(nearest):
            explained = True
            note = (f"ncu prints {PRINTED_DECIMALS[key]} decimals ({ref - half:.6g} … "
                    f"{ref + half:.6g}): within 2 % of that interval; " + note)
    # The cycle counters of a launch counted in a user range include what the range adds around
    # the kernel; the same launches counted in CUPTI's kernel ranges have no such window. ncu's
    # value among (within 2 % of) those launches puts the difference on the user range.
    if not ok and not explained and kernel_ranges and key in TIMING_DEPENDENT:
        lo, hi = kernel_ranges
        if lo - slack(lo, hi) <= ref <= hi + slack(lo, hi):
            explained = True
            note = (f"ncu within 2 % of the tool's launches counted in kernel ranges ({lo:.6g} … "
                    f"{hi:.6g}, --kernel-range-runs): the difference is the user range's window; "
                    + note)
        else:
            note += ("; " if note else "") + (
                f"counted in kernel ranges the tool's launches span {lo:.6g} … {hi:.6g} "
                f"(--kernel-range-runs): not the user range's window")
    # At the L2's capacity edge the kernel's DRAM reads and fabric bytes depend on where its
    # operands sit in physical memory, which each process gets anew (docs/validation-method.md).
    if not ok and not explained and placements:
        placed, why = placement_note(tool, ref, placements)
        explained = placed
        note = why + ("; " + note if note else "")
    if not ok and not explained:
        note = "UNEXPLAINED" + ("; " + note if note else "")
    elif not ok and key in EXPLAINED:
        note = EXPLAINED[key] + ("; " + note if note else "")
    return diff, ok, explained, note


def ncu_launches(paths, flag="--ncu-runs"):
    """{(kernel, size, key, prep): [values]} from the CSV files of --noise-csv (ncu's repeated
    runs): prep "all" for ncu's own cache control (run 1), "tool" for ncu after the tool's
    preparation (run 2, --noise-same-prep; files without the column hold run-1 launches)."""
    out = {}
    for path in paths or []:
        try:
            with open(path) as f:
                for r in csv.DictReader(f):
                    key = (r["kernel"], r["size"], r["key"], r.get("prep") or "all")
                    out.setdefault(key, []).append(float(r["value"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{flag} {path}: not a CSV of --noise-csv ({e})")
    return out


PLACEMENT_KEYS = {"dram_read_bytes": 0, "l2_fabric_bytes": 1}
PLACEMENT_LINE = re.compile(r"^(?P<steps>[a-z0-9,\-]+): +(?P<ncu>ncu )?(?:\S*::)?(?P<kernel>[a-z0-9_]+?)"
                            r"(?:_kernel)?(?: at (?P<size>\d+(?:x\d+x\d+)?))?: DRAM reads "
                            r"(?P<reads>[\d.]+) MB, fabric (?P<fabric>[\d.]+) MB")
MIN_PLACEMENTS = 5


def placement_counts(paths):
    """{(kernel, size, key): {"tool"|"ncu": {recipe: [values]}}} from the logs of
    scripts/probes/capacity_edge_steps.sh: each line one launch counted after an allocation recipe
    (the steps before its count or launch) by the tool's counter session or, prefixed ncu, by
    Nsight Compute. ncu's lines name no size: a kernel takes the one size the tool's lines give it."""
    lines = []
    for path in paths or []:
        try:
            with open(path) as f:
                lines += [(path, line) for line in f if not line.startswith("#")]
        except OSError as e:
            raise SystemExit(f"--placements {path}: {e.strerror}")
    parsed = [(path, PLACEMENT_LINE.match(line)) for path, line in lines]
    sizes = {}
    for _, m in parsed:
        if m and not m["ncu"]:
            sizes.setdefault(m["kernel"], set()).add(m["size"])
    out = {}
    for path, m in parsed:
        if not m or m["kernel"].startswith("tgemm_aux"):  # the preparation's own kernels
            continue
        if m["ncu"]:
            if len(sizes.get(m["kernel"], ())) != 1:
                raise SystemExit(f"--placements {path}: ncu's {m['kernel']} is counted at "
                                 f"{len(sizes.get(m['kernel'], ()))} sizes by the tool's lines, "
                                 "so its ncu lines' size is not known")
            size = next(iter(sizes[m["kernel"]]))
        else:
            size = m["size"]
        recipe = m["steps"].rsplit(",", 1)[0]
        for key, i in PLACEMENT_KEYS.items():
            value = float((m["reads"], m["fabric"])[i]) * 1e6
            (out.setdefault((m["kernel"], size, key), {"tool": {}, "ncu": {}})
             ["ncu" if m["ncu"] else "tool"].setdefault(recipe, []).append(value))
    return out


def placement_note(tool, ref, counts):
    """(explained, note) for a DRAM-read or fabric row from the placements' counts: the two
    counters agree over the allocation recipes both ran (their medians within 2 %), and the
    profile's value and ncu's each lie within 2 % of the range its own counter spans over the
    recipes: the difference is where the operands sit, not the counting."""
    if not counts:
        return False, ""
    mine, theirs = counts["tool"], counts["ncu"]
    both = sorted(set(mine) & set(theirs))
    if len(both) < MIN_PLACEMENTS:
        return False, f"{len(both)} allocation recipes counted by both (--placements)"

    med_t = statistics.median(statistics.fmean(mine[r]) for r in both)
    med_n = statistics.median(statistics.fmean(theirs[r]) for r in both)
    t_all = [x for v in mine.values() for x in v]
    n_all = [x for v in theirs.values() for x in v]
    t_lo, t_hi, n_lo, n_hi = min(t_all), max(t_all), min(n_all), max(n_all)
    agree = abs(med_t - med_n) <= TOLERANCE * med_n
    tool_in = t_lo * (1 - TOLERANCE) <= tool <= t_hi * (1 + TOLERANCE)
    ref_in = n_lo * (1 - TOLERANCE) <= ref <= n_hi * (1 + TOLERANCE)
    note = (f"over {len(mine)} allocation recipes the tool's counter spans {t_lo:.6g} … "
            f"{t_hi:.6g} and over {len(theirs)} ncu's {n_lo:.6g} … {n_hi:.6g}; medians over the "
            f"{len(both)} both ran {med_t:.6g} and {med_n:.6g} ({(med_t - med_n) / med_n:+.2%}, "
            f"--placements)")
    if agree and tool_in and ref_in:
        return True, ("where the operands sit in physical memory: " + note +
                      ": the counters agree, the placement moves the count")
    return False, note


class Evidence:
    """What explains a row besides ncu's two runs, loaded once from the command line: the
    tool's repeated launches (--spread), an idle window (--idle-log), ncu's repeated launches
    (--ncu-runs)."""

    def __init__(self, args):
        self.spreads = launch_spread(args.spread)
        self.window = idle_window(args.idle_log)
        self.window_ns = window_duration(args.window_log)
        self.launches = ncu_launches(args.ncu_runs)
        # Kernels changed since the --spread and --ncu-runs files were measured: their rows get
        # none of those files' launches (the idle window is the collector's, and still holds),
        # but those of --changed-spread and --changed-ncu-runs, measured after the change.
        self.changed = set(filter(None, (args.changed_kernels or "").split(",")))
        self.changed_spreads = launch_spread(args.changed_spread, "--changed-spread")
        self.changed_launches = ncu_launches(args.changed_ncu_runs, "--changed-ncu-runs")
        self.kernel_ranges = kernel_range_spread(getattr(args, "kernel_range_runs", None))
        self.placements = placement_counts(getattr(args, "placements", None))

    def of(self, kernel, size, key):
        """classify's keyword arguments for one row."""
        changed = kernel in self.changed
        spreads = self.changed_spreads if changed else self.spreads
        launches = self.changed_launches if changed else self.launches
        return {"spread": spreads.get((kernel, size, key)), "window": self.window,
                "window_ns": self.window_ns,
                "ncu_runs": launches.get((kernel, size, key, "all")),
                "ncu_runs_same": launches.get((kernel, size, key, "tool")),
                "kernel_ranges": self.kernel_ranges.get((kernel, size, key)),
                "placements": self.placements.get((kernel, size, key))}


def noise_pairs(args):
    """KERNEL:SIZE items of --noise and of the lines of --noise-file."""
    items = list(filter(None, args.noise.split(",")))
    if args.noise_file:
        try:
            items += [line.strip() for line in open(args.noise_file) if line.strip()]
        except OSError as e:
            raise SystemExit(f"--noise-file {args.noise_file}: cannot read it ({e.strerror})")
    for item in items:
        if item.count(":") != 1:
            raise SystemExit(f"--noise: '{item}' is not KERNEL:SIZE")
    return [tuple(item.split(":")) for item in items]


def run_ncu(ncu, binary, kernel, size, metrics, same_preparation=False):
    cache = ["--cache-control", "none"] if same_preparation else ["--cache-control", "all"]
    cmd = [ncu, "--csv", "--print-units", "base", *cache,
           "--clock-control", "none", "--metrics", ",".join(metrics),
           binary, "run-kernel", "--kernel", kernel, "--size", size]
    if same_preparation:
        cmd.append("--flush")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"ncu failed for {kernel} {size}: {proc.stderr.strip()[-500:]}")
    return parse_ncu_csv(proc.stdout, f"{kernel} {size}")


def parse_ncu_csv(text, what):
    """({metric: value}, kernels) from the output of `ncu --csv --print-units base`, the tool's
    own tgemm_aux_* kernels left out."""
    start = text.find('"ID"')
    if start < 0:
        raise RuntimeError(f"no CSV from ncu for {what}: {text[-500:]}")
    sums = {}
    kernels = set()
    for row in csv.DictReader(io.StringIO(text[start:])):
        if "tgemm_aux_" in row["Kernel Name"]:  # the tool's own restore/flush kernels
            continue
        name = row["Metric Name"]
        value = float(row["Metric Value"].replace(",", ""))
        kernels.add(row["ID"])
        # Sums add over the kernels of one launch (cuBLAS may run more than one); a rate or a
        # ratio (clock, IPC, % of peak) is averaged, as the tool does.
        sums.setdefault(name, []).append(value)
    out = {}
    for name, values in sums.items():
        out[name] = sum(values) if name.endswith(".sum") else sum(values) / len(values)
    return out, len(kernels)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="build/tgemm-roofline")
    ap.add_argument("--profile", required=True)
    ap.add_argument("--out", default="docs/validation.md")
    ap.add_argument("--csv", default=None)
    ap.add_argument("--ncu", default="ncu")
    ap.add_argument("--shapes", default="", help="only these sizes (N or MxNxK, comma-separated)")
    ap.add_argument("--kernels", default="", help="only these kernels")
    ap.add_argument("--noise", default="", help="KERNEL:SIZE,... run ncu --noise-runs times on "
                    "each and report how much each counter moves between the runs")
    ap.add_argument("--noise-file", default="", metavar="FILE",
                    help="more KERNEL:SIZE items for --noise, one per line")
    ap.add_argument("--noise-runs", type=int, default=2, metavar="N",
                    help="how many times --noise runs ncu on each item (default 2)")
    ap.add_argument("--noise-csv", default="", metavar="CSV",
                    help="write every --noise run's values here (the input of --ncu-runs)")
    ap.add_argument("--noise-same-prep-only", action="store_true",
                    help="--noise runs ncu after the tool's preparation (run 2: --cache-control "
                    "none on run-kernel --flush) on the L2-dependent and cycle counters, instead "
                    "of run 1")
    ap.add_argument("--noise-only", action="store_true",
                    help="run the --noise items only, not the whole profile")
    ap.add_argument("--ncu-runs", nargs="*", default=[], metavar="CSV",
                    help="--noise-csv files: a row whose tool value lies within the range of "
                    "ncu's own repeated launches is explained")
    ap.add_argument("--list-open", action="store_true",
                    help="with --rescore: print the KERNEL:SIZE of every unexplained row")
    ap.add_argument("--spread", nargs="*", default=[], metavar="PROFILE",
                    help="profiles measured with --repeat: a row whose ncu value lies within "
                    "the tool's own launch-to-launch range is explained")
    ap.add_argument("--idle-log", default="", metavar="LOG",
                    help="a log of Collector.L2PartitionsOnKnownTraffic: what an idle window "
                    "holds of each L2 counter")
    ap.add_argument("--window-log", nargs="*", default=[], metavar="LOG",
                    help="a log of Collector.KernelRangesCountTheKernelAlone: how much longer "
                    "than the kernel a counted user range lasts, taken off the tool's duration "
                    "before the cycle counters are judged by the launches' durations")
    ap.add_argument("--kernel-range-runs", nargs="*", default=[], metavar="PROFILE",
                    help="profiles of the same kernels counted with --cupti-ranges kernel and "
                    "--repeat: a cycle counter whose ncu value lies within their launches' range "
                    "is explained by the user range's window")
    ap.add_argument("--placements", nargs="*", default=[], metavar="LOG",
                    help="logs of scripts/probes/capacity_edge_steps.sh: pairs counted by the "
                    "tool and by ncu after many allocation recipes; a DRAM-read or fabric row "
                    "is explained by the operands' placement where the two counters' medians "
                    "agree and each value lies in its counter's range")
    ap.add_argument("--changed-kernels", default=None, metavar="K1,K2",
                    help="kernels changed since the --spread and --ncu-runs files were measured: "
                    "those files explain none of their rows")
    ap.add_argument("--changed-spread", nargs="*", default=None, metavar="PROFILE",
                    help="--repeat profiles of the --changed-kernels measured after the change: "
                    "their rows' launch spread")
    ap.add_argument("--changed-ncu-runs", nargs="*", default=None, metavar="CSV",
                    help="--noise-csv files of the --changed-kernels measured after the change: "
                    "ncu's repeated launches for their rows")
    ap.add_argument("--note", default=None,
                    help="a paragraph printed under the profile line, e.g. which rows come from "
                    "which run")
    ap.add_argument("--rescore", nargs="+", default=None, metavar="CSV",
                    help="rebuild --out from the CSV files of earlier runs (no GPU, no ncu); a "
                    "later file's row replaces an earlier one's for the same kernel, size, counter")
    args = ap.parse_args()
    if args.noise_runs < 1:
        raise SystemExit(f"--noise-runs {args.noise_runs}: at least 1")
    if args.list_open and not args.rescore:
        raise SystemExit("--list-open: only with --rescore")
    for flag, value in (("--changed-spread", args.changed_spread),
                        ("--changed-ncu-runs", args.changed_ncu_runs)):
        if value and not args.changed_kernels:
            raise SystemExit(f"{flag}: only with --changed-kernels (which kernels it is about)")
    if args.rescore:
        return rescore(args)

    pairs = noise_pairs(args)
    profile = json.load(open(args.profile))
    table = metric_table(args.binary)
    metrics = [m for _, m, _ in table]
    want_shapes = set(filter(None, args.shapes.split(",")))
    want_kernels = set(filter(None, args.kernels.split(",")))
    evidence = Evidence(args)
    rows = []
    worst_unexplained = 0.0
    for m in [] if args.noise_only else profile["measurements"]:
        if m.get("skipped") or not m.get("counters"):
            continue
        size = shape_arg(m)
        if want_shapes and size not in want_shapes:
            continue
        if want_kernels and m["kernel"] not in want_kernels:
            continue
        t0 = time.time()
        ncu, nkernels = run_ncu(args.ncu, args.binary, m["kernel"], size, metrics)
        same_metrics = [metric for key, metric, _ in table if key in SECOND_OPINION]
        same, _ = run_ncu(args.ncu, args.binary, m["kernel"], size, same_metrics,
                          same_preparation=True)
        print(f"ncu {m['kernel']} {size}: {nkernels} kernel(s), {time.time() - t0:.1f} s",
              file=sys.stderr, flush=True)
        duration_diff = None
        for key, metric, scale in table:
            if key == "duration_ns" and m["counters"].get(key) and ncu.get(metric):
                duration_diff = launch_duration_diff(m["counters"][key], ncu[metric] * scale,
                                                     evidence.window_ns)
        for key, metric, scale in table:
            tool = m["counters"].get(key)
            if tool is None or metric not in ncu:
                continue
            ref = ncu[metric] * scale
            base = abs(ref)
            if key in RELATIVE_TO and m["counters"].get(RELATIVE_TO[key]):
                base = m["counters"][RELATIVE_TO[key]]
            alt = same[metric] * scale if key in SECOND_OPINION and metric in same else None
            diff, ok, explained, note = classify(key, tool, ref, alt, base, duration_diff,
                                                 **evidence.of(m["kernel"], size, key))
            if not ok and not explained:
                worst_unexplained = max(worst_unexplained, abs(diff))
            rows.append([m["kernel"], size, key, metric, tool, ref, alt, diff, ok, note])

    noise_lines = []
    noise_rows = []
    for kernel, size in pairs:
        t0 = time.time()
        runs = [] if args.noise_same_prep_only else [
            run_ncu(args.ncu, args.binary, kernel, size, metrics)[0]
            for _ in range(args.noise_runs)]
        same_metrics = [metric for key, metric, _ in table if key in SAME_PREPARATION_RUNS]
        same_runs = [run_ncu(args.ncu, args.binary, kernel, size, same_metrics,
                             same_preparation=True)[0]
                     for _ in range(args.noise_runs if args.noise_same_prep_only else 0)]
        print(f"ncu x{args.noise_runs} {kernel} {size}: {time.time() - t0:.1f} s", file=sys.stderr,
              flush=True)
        for prep, prep_runs in (("all", runs), ("tool", same_runs)):
            for key, metric, scale in table:
                values = [r[metric] * scale for r in prep_runs if metric in r]
                noise_rows += [[kernel, size, key, i + 1, v, prep] for i, v in enumerate(values)]
                if len(values) < 2:
                    continue
                a, b = min(values), max(values)
                d = 0.0 if a == b else (b - a) / max(abs(a), 1e-30)
                noise_lines.append(
                    f"| {kernel} | {size} | `{key}` ({prep}) | {a:.6g} | {b:.6g} | {d:+.3%} |")
        if args.noise_csv:  # after every item, so a run cut by a time limit keeps what it did
            write_csv(args.noise_csv, ["kernel", "size", "key", "run", "value", "prep"],
                      noise_rows)
    if args.noise_only:
        return 0
    command = (f"python3 scripts/validate_ncu.py --binary {args.binary} --profile {args.profile}"
               + (f" --shapes {args.shapes}" if args.shapes else "")
               + (f" --kernels {args.kernels}" if args.kernels else ""))
    write_outputs(args, profile, rows, noise_lines, command)
    if args.csv:
        write_csv(args.csv, CSV_HEADER, rows)
    return 1 if worst_unexplained > 0 else 0


def write_csv(path, header, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


CSV_HEADER = ["kernel", "size", "key", "metric", "tool", "ncu", "ncu_same_prep", "rel_diff", "ok",
              "note"]


def write_outputs(args, profile, rows, noise_lines, command):
    lines = [
        "# Counter validation against Nsight Compute",
        "",
        f"Profile: `{args.profile}` ({profile['gpu']['name']}, measured {profile['env']['date']}).",
        *([args.note, ""] if args.note else []),
        f"Oracle: `ncu --cache-control all --clock-control none --metrics <table>` on "
        f"`tgemm-roofline run-kernel`, same machine; for the counters that depend on what L2 "
        f"holds, also ncu after the tool's own preparation (`--cache-control none` on "
        f"`run-kernel --flush`). Tolerance {TOLERANCE:.0%}; how a row is judged: "
        f"`scripts/validate_ncu.py` (`classify`) and `docs/validation-method.md`.",
        f"Command: `{command}`",
        "",
    ]
    per_key = {}
    for r in rows:
        key, ok, note = r[2], r[8], r[9]
        c = per_key.setdefault(key, [0, 0, 0, 0])
        c[0] += 1
        if ok:
            c[1] += 1
        elif note.startswith("UNEXPLAINED"):
            c[3] += 1
        else:
            c[2] += 1
    n_ok = sum(c[1] for c in per_key.values())
    n_expl = sum(c[2] for c in per_key.values())
    n_open = sum(c[3] for c in per_key.values())
    lines += [f"**{n_ok} of {len(rows)} comparisons within {TOLERANCE:.0%} of the first ncu run; "
              f"{n_expl} more explained (note column); {n_open} unexplained.**", "",
              "| counter | compared | within 2 % | explained | unexplained |",
              "|---|--:|--:|--:|--:|"]
    for key, c in per_key.items():
        lines.append(f"| `{key}` | {c[0]} | {c[1]} | {c[2]} | {c[3]} |")
    unexplained = [r for r in rows if not r[8] and r[9].startswith("UNEXPLAINED")]
    if unexplained:
        lines += ["", "## Unexplained rows", "",
                  "| kernel | size | counter | tool (CUPTI) | ncu | difference | note |",
                  "|---|---|---|---:|---:|---:|---|"]
        for k, size, key, metric, tool, ref, alt, diff, ok, note in unexplained:
            lines.append(f"| {k} | {size} | `{key}` | {tool:.6g} | {ref:.6g} | {diff:+.3%} | {note} |")
    lines += ["", "## Every comparison", "",
              "| kernel | size | counter | tool (CUPTI) | ncu | difference | within 2% | note |",
              "|---|---|---|---:|---:|---:|:---:|---|"]
    for k, size, key, metric, tool, ref, alt, diff, ok, note in rows:
        lines.append(f"| {k} | {size} | `{key}` | {tool:.6g} | {ref:.6g} | {diff:+.3%} | "
                     f"{'yes' if ok else 'no'} | {note} |")
    if noise_lines:
        lines += ["", "## Run-to-run variation of ncu itself", "",
                  f"The same kernel profiled {args.noise_runs} times by ncu, same settings:", "",
                  "| kernel | size | counter | lowest | highest | difference |",
                  "|---|---|---|---:|---:|---:|"] + noise_lines
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, args.out)
    print(f"{n_ok}/{len(rows)} within {TOLERANCE:.0%}, {n_expl} explained, {n_open} unexplained; "
          f"wrote {args.out}", file=sys.stderr)


def rescore(args):
    """Rebuilds the markdown from the CSV files of earlier runs, with the rules of this file."""
    profile = json.load(open(args.profile))
    # A later file's row replaces an earlier one's for the same kernel, size and counter: a
    # kernel measured again after a change is rescored from its new runs alone.
    by_key = {}
    for path in args.rescore:
        for r in csv.DictReader(open(path)):
            by_key[(r["kernel"], r["size"], r["key"])] = r
    raw = list(by_key.values())
    evidence = Evidence(args)
    tool_of = {(r["kernel"], r["size"], r["key"]): float(r["tool"]) for r in raw}
    ncu_of = {(r["kernel"], r["size"], r["key"]): float(r["ncu"]) for r in raw}
    rows = []
    for r in raw:
        key, tool, ref = r["key"], float(r["tool"]), float(r["ncu"])
        same = r.get("ncu_same_prep")
        if same in (None, ""):  # files written before the column: the value is in the note
            mark = "ncu after the tool's flush: "
            same = r["note"].split(mark, 1)[1].split(" ", 1)[0] if mark in r["note"] else None
        same = float(same) if same not in (None, "", "None") else None
        base = abs(ref)
        if key in RELATIVE_TO and tool_of.get((r["kernel"], r["size"], RELATIVE_TO[key])):
            base = tool_of[(r["kernel"], r["size"], RELATIVE_TO[key])]
        dur = (r["kernel"], r["size"], "duration_ns")
        duration_diff = launch_duration_diff(tool_of.get(dur), ncu_of.get(dur),
                                             evidence.window_ns)
        diff, ok, explained, note = classify(key, tool, ref, same, base, duration_diff,
                                             **evidence.of(r["kernel"], r["size"], key))
        rows.append([r["kernel"], r["size"], key, r["metric"], tool, ref, same, diff, ok, note])
    command = ("python3 scripts/validate_ncu.py --profile " + args.profile
               + (" --spread " + " ".join(args.spread) if args.spread else "")
               + (" --changed-kernels " + args.changed_kernels if args.changed_kernels else "")
               + (" --changed-spread " + " ".join(args.changed_spread)
                  if args.changed_spread else "")
               + (" --idle-log " + args.idle_log if args.idle_log else "")
               + (" --window-log " + " ".join(args.window_log) if args.window_log else "")
               + (" --kernel-range-runs " + " ".join(args.kernel_range_runs)
                  if args.kernel_range_runs else "")
               + (" --ncu-runs " + " ".join(args.ncu_runs) if args.ncu_runs else "")
               + (" --changed-ncu-runs " + " ".join(args.changed_ncu_runs)
                  if args.changed_ncu_runs else "")
               + (" --placements " + " ".join(args.placements) if args.placements else "")
               + " --rescore " + " ".join(args.rescore) + " (from the runs of `--binary "
               + args.binary + "` on the whole profile, split by --shapes)")
    write_outputs(args, profile, rows, [], command)
    open_rows = [r for r in rows if not r[8] and r[9].startswith("UNEXPLAINED")]
    if args.list_open:
        for pair in dict.fromkeys(f"{r[0]}:{r[1]}" for r in open_rows):
            print(pair)
    return 1 if open_rows else 0


if __name__ == "__main__":
    sys.exit(main())
