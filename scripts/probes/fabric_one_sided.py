#!/usr/bin/env python3
"""The L2 fabric of launches that fit in one wave, with each strip's readers on the partitions of
the SMs the first wave is dealt to, each logged start as it was: the lead the model's rule came
from (docs/models/l2.md, "A launch of one wave"; the model, kernels/one_wave_fabric.cpp, averages
every start of every logged run and adds the H100 collector's window).

    fabric_one_sided.py PLACEMENT_LOG PARTITION_LOG PROFILE...

PLACEMENT_LOG: CtaPlacement.CtasSharingAnSmAreFarApartInLaunchOrder's log (the SM of each of CTAs
0 ... 131 of a first wave, per CTAs per SM, one or more runs); PARTITION_LOG:
Collector.EachSmReadsThroughOneOfTwoL2Partitions's (the SMs on SM 0's side). For every row of the
profiles whose rung is an FP32 tiled rung and whose grid fits in one wave (CTAs per SM × SMs), a
strip whose readers (the CTAs of its row or column of tiles) all sit on one side crosses the
fabric for the half of its lines homed on the other side, any other strip once per line. With
the measured DRAM reads of A and B and the measured L2 writes (so that only this rule is judged):

    fabric = AB reads × (1 − one-sided share / 2) + (C read + stores at L1) / 2

where CTA i sits on the SM the logged first wave gave CTA i mod 132, for each logged run with
that many CTAs per SM (1; 2; 4 for 3 or 4; 5). Prints the measurement, the value rule (every
strip on both sides), the one-sided rule's range over the runs, and the measurement's ratio to
each."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sm_pairs_table import TILES  # noqa: E402

# The rungs' CTAs per SM on the H100 and the H200 (the traces' logs, docs/validation/cta-drift/).
CTAS_PER_SM = {
    "naive": 2, "smem_tiling": 2, "thread_tiling": 5, "outer_product": 5, "smem_register": 4,
    "blocktiling_1d": 2, "blocktiling_2d": 2, "vectorized": 2, "warptiling": 2,
    "warptiling_sub": 2,
}
SMS = 132


def first_waves(text):
    """{CTAs per SM: [SM of CTA 0 ... 131, one list per logged run]}."""
    runs = {}
    pattern = r"(\d) CTAs per SM.*?\n  SMs of CTAs 0 \.\.\. 131: ([\d ]+)"
    for per, sms in re.findall(pattern, text):
        runs.setdefault(int(per), []).append([int(s) for s in sms.split()])
    return runs


def side_zero(text):
    m = re.search(r"SMs on SM 0's side \(\d+\): ([\d ]+)", text)
    if not m:
        raise ValueError("no line 'SMs on SM 0's side (N): ...'")
    return {int(s) for s in m.group(1).split()}


def one_sided_share(m, n, k, bm, bn, order, zero):
    """The share of A's and B's bytes in strips whose readers all sit on one side."""
    gm, gn = -(-m // bm), -(-n // bn)
    ctas = gm * gn

    def side(i):
        return order[i % SMS] in zero

    one = total = 0
    for r in range(gm):
        size = min(bm, m - r * bm) * k
        total += size
        one += size if len({side(i) for i in range(r * gn, (r + 1) * gn)}) == 1 else 0
    for j in range(gn):
        size = min(bn, n - j * bn) * k
        total += size
        one += size if len({side(i) for i in range(j, ctas, gn)}) == 1 else 0
    return one / total


def rows(profile, runs, zero):
    for meas in profile["measurements"]:
        rung, counters = meas["kernel"], meas.get("counters", {})
        if rung not in TILES or meas.get("skipped") or "l2_fabric_bytes" not in counters:
            continue
        m, n, k = meas["m"], meas["n"], meas["k"]
        (bm, bn), per_sm = TILES[rung], CTAS_PER_SM[rung]
        ctas = -(-m // bm) * -(-n // bn)
        if ctas > per_sm * SMS:
            continue
        dealt = -(-ctas // SMS)
        key = 1 if dealt == 1 else 2 if dealt == 2 else 4 if dealt <= 4 else 5
        c = 4.0 * m * n
        ab = counters["dram_read_bytes"] - c
        c_part = (c + counters["l2_write_bytes"] / 1.5) / 2
        fabric = counters["l2_fabric_bytes"]
        value = ab + c_part
        sided = [ab * (1 - one_sided_share(m, n, k, bm, bn, o, zero) / 2) + c_part
                 for o in runs.get(key, [])]
        if not sided:
            continue
        yield (rung, f"{m}x{n}x{k}", ctas, dealt, fabric, value, min(sided), max(sided))


def main(argv):
    if len(argv) < 4:
        print("fabric_one_sided.py: usage: fabric_one_sided.py PLACEMENT_LOG PARTITION_LOG "
              "PROFILE...", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            runs = first_waves(f.read())
        with open(argv[2], encoding="utf-8") as f:
            zero = side_zero(f.read())
        profiles = []
        for path in argv[3:]:
            with open(path, encoding="utf-8") as f:
                profiles.append(json.load(f))
    except (OSError, ValueError) as e:
        print(f"fabric_one_sided.py: {e}", file=sys.stderr)
        return 2
    for p in profiles:
        for rung, shape, ctas, dealt, fabric, value, low, high in rows(p, runs, zero):
            print(f"{p['gpu']['key']} {rung:15s} {shape:15s} {ctas:4d} CTAs, {dealt} per SM: "
                  f"measured {fabric / 1e6:7.1f} MB; both sides {value / 1e6:7.1f} "
                  f"({fabric / value:.3f}); one-sided {low / 1e6:7.1f} … {high / 1e6:7.1f} "
                  f"({fabric / high:.3f} … {fabric / low:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
