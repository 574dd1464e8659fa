#!/usr/bin/env python3
"""The table of docs/models/dram-waves.md "The schedule seen directly" from the CTA traces that
CapacityEdge.CtasSharingAnSmInStepOrDrifting writes (TGEMM_CTA_TRACE_DIR): one CSV per rung and
shape, <rung>-<MxNxK>.csv, lines cta,sm,start_ns,end_ns in launch order.

    cta_drift_table.py TRACES   (a directory of those CSVs, or a .tar.gz of one)

Per rung and shape, as a markdown row:
- CTAs per SM: the most CTAs one SM started within a microsecond of the launch;
- first wave: when the first of an SM's first-wave CTAs ends, as a share of when its last one
  ends (median over the SMs; 1 where they share the SM equally and end together);
- wave spread: the CTAs of each run of (CTAs per SM × SMs) in launch order, from the second run
  on, start within (90th − 10th percentile) of each other, in median CTA lifetimes (median over
  the runs): 0 where whole waves start together, about 1/2 where the two CTAs of an SM run half
  a lifetime apart, 0.8 where starts are spread evenly;
- the schedule: in step (wave spread under 0.2), drifting (0.45 and over), partly between;
  none where the grid holds under two waves."""
import csv
import io
import os
import statistics
import sys
import tarfile
from collections import defaultdict


def spans_of(lines):
    rows = csv.DictReader(lines)
    return [(int(r["sm"]), int(r["start_ns"]), int(r["end_ns"])) for r in rows]


def summarize(spans):
    """(CTAs per SM, first-wave end share, wave spread) of one trace."""
    first = defaultdict(list)
    for sm, start, end in spans:
        if start < 1000:
            first[sm].append(end)
    per_sm = max(len(v) for v in first.values())
    shares = [min(v) / max(v) for v in first.values() if len(v) > 1]
    share = statistics.median(shares) if shares else None
    life = statistics.median(end - start for _, start, end in spans)
    wave = per_sm * len({sm for sm, _, _ in spans})
    spreads = []
    for lo in range(wave, len(spans) - wave + 1, wave):
        starts = sorted(start for _, start, _ in spans[lo:lo + wave])
        spreads.append((starts[wave * 9 // 10] - starts[wave // 10]) / life)
    spread = statistics.median(spreads) if spreads else None
    return per_sm, share, spread


def schedule(spread):
    if spread is None:
        return "under two waves"
    if spread < 0.2:
        return "in step"
    return "drifting" if spread >= 0.45 else "partly"


def csv_files(path, suffix=".csv"):
    """(file name, open text file) of every CSV ending in `suffix` in a folder or a .tar.gz/.tgz,
    by name (also cta_steps_table.py's reader)."""
    if path.endswith(".tar.gz") or path.endswith(".tgz"):
        with tarfile.open(path) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith(suffix)]
            for member in sorted(members, key=lambda m: os.path.basename(m.name)):
                yield (os.path.basename(member.name),
                       io.TextIOWrapper(tar.extractfile(member), encoding="ascii"))
    else:
        for name in sorted(os.listdir(path)):
            if name.endswith(suffix):
                with open(os.path.join(path, name), encoding="ascii") as f:
                    yield name, f


def traces(path):
    """(rung, shape, spans) of every CSV under `path`."""
    out = []
    for name, f in csv_files(path):
        rung, shape = name[:-4].rsplit("-", 1)
        out.append((rung, shape, spans_of(f)))
    return out


def table(rows):
    order = ["naive", "smem_tiling", "thread_tiling", "outer_product", "smem_register",
             "blocktiling_1d", "blocktiling_2d", "vectorized", "warptiling"]

    def key(r):
        return (order.index(r[0]) if r[0] in order else len(order), r[0],
                [int(x) for x in r[1].split("x")])

    lines = ["| rung | shape | CTAs per SM | first wave | wave spread | schedule |",
             "|---|---|--:|--:|--:|---|"]
    for rung, shape, spans in sorted(rows, key=key):
        per_sm, share, spread = summarize(spans)
        fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        lines.append(f"| {rung} | {shape.replace('x', '×')} | {per_sm} | {fmt(share)} | "
                     f"{fmt(spread)} | {schedule(spread)} |")
    return lines


def main(argv):
    if len(argv) != 2:
        print("usage: cta_drift_table.py TRACES (a directory of <rung>-<shape>.csv or a .tar.gz)",
              file=sys.stderr)
        return 2
    if not os.path.exists(argv[1]):
        print(f"cta_drift_table.py: {argv[1]}: no such file or directory", file=sys.stderr)
        return 2
    rows = traces(argv[1])
    if not rows:
        print(f"cta_drift_table.py: {argv[1]}: no <rung>-<shape>.csv traces", file=sys.stderr)
        return 2
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
