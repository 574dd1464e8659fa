#!/usr/bin/env python3
"""Which CTAs share an SM, from the CTA traces of CapacityEdge.CtasSharingAnSmInStepOrDrifting
(docs/validation/cta-drift/<gpu>-traces.tar.gz; lines cta,sm,start_ns,end_ns in launch order):
the input of the L2 request model's band for CTAs that read one strip on one SM
(kernels/l2_requests.hpp).

    sm_pairs_table.py TRACES [RUNG ...]   (a folder of the CSVs or a .tar.gz of one; all rungs
                                           with a known tile when none is named)

One line per trace, over every two CTAs that ran on one SM at once:
- pairs: how many such pairs;
- one row / one column: the share of them in one row of tiles (one strip of A) or one column
  (one strip of B);
- random: what the one-row share would be if each SM's CTAs were any of their wave (the CTAs per
  SM × SMs consecutive ones in launch order), as the model's band takes them;
- distance: the 10th, 50th and 90th percentiles of their distance in launch order;
- offset: the median of when the younger starts, in the older one's lifetime (0: together,
  1/2: half a lifetime apart);
- from L1 within R: the share of the CTAs' strip reads that another CTA on the same SM read at
  the same point of K at most R before (R = 10, 30 and 100 us; each CTA's K taken as its
  lifetime, read evenly; at the same moment, the one earlier in launch order first), what L1
  could serve if it held a line that long."""
import bisect
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_drift_table import csv_files, spans_of  # noqa: E402

# The FP32 tiled rungs' CTA tiles (rows × columns of C), from their kernels (also
# fabric_one_sided.py's).
TILES = {
    "naive": (32, 32), "smem_tiling": (32, 32), "thread_tiling": (32, 128),
    "outer_product": (32, 128), "smem_register": (64, 64), "blocktiling_1d": (64, 64),
    "blocktiling_2d": (128, 128), "vectorized": (128, 128), "warptiling": (128, 128),
    "warptiling_sub": (128, 128),
}
WINDOWS_US = (10, 30, 100)
SAMPLES = 32  # points of K per CTA


def percentile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def random_one_row(ctas, gn, wave):
    """The share of two CTAs drawn from one wave that lie in one row, averaged over the waves'
    pairs."""
    same = total = 0
    for w0 in range(0, ctas, wave):
        n = min(wave, ctas - w0)
        rows = defaultdict(int)
        for j in range(w0, w0 + n):
            rows[j // gn] += 1
        same += sum(c * (c - 1) for c in rows.values())
        total += n * (n - 1)
    return same / total if total else 0.0


def summarize(spans, m, n, tile):
    bm, bn = tile
    gn = -(-n // bn)
    by_sm = defaultdict(list)
    for cta, (sm, start, end) in enumerate(spans):
        by_sm[sm].append((start, end, cta))
    pairs = row = col = 0
    distances, offsets = [], []
    per_sm = 1
    for runs in by_sm.values():
        runs.sort()
        first = sum(1 for s, _, _ in runs if s < 1000)
        per_sm = max(per_sm, first)
        for i, (start, end, cta) in enumerate(runs):
            for start0, end0, cta0 in runs[:i]:
                if end0 > start:
                    pairs += 1
                    row += cta // gn == cta0 // gn
                    col += cta % gn == cta0 % gn
                    distances.append(abs(cta - cta0))
                    offsets.append((start - start0) / (end0 - start0))
    served = {}
    for window in WINDOWS_US:
        reads = hits = 0
        for runs in by_sm.values():
            for start, end, cta in runs:
                for k in range(SAMPLES):
                    x = (k + 0.5) / SAMPLES
                    t = start + x * (end - start)
                    for strip in ("a", "b"):
                        reads += 1
                        for start0, end0, cta0 in runs:
                            if cta0 == cta:
                                continue
                            same = (cta // gn == cta0 // gn) if strip == "a" else (
                                cta % gn == cta0 % gn)
                            t0 = start0 + x * (end0 - start0)
                            # At the same moment the earlier CTA in launch order misses.
                            earlier = t0 < t or (t0 == t and cta0 < cta)
                            if same and earlier and t - t0 <= window * 1000:
                                hits += 1
                                break
        served[window] = hits / reads
    distances.sort()
    wave = per_sm * len(by_sm)
    return {
        "pairs": pairs, "row": row / pairs if pairs else 0, "col": col / pairs if pairs else 0,
        "random": random_one_row(len(spans), gn, wave),
        "distance": [percentile(distances, q) for q in (0.1, 0.5, 0.9)] if distances else [],
        "offset": statistics.median(offsets) if offsets else 0, "served": served,
    }


def main(argv):
    if len(argv) < 2:
        print("sm_pairs_table.py: usage: sm_pairs_table.py TRACES [RUNG ...]", file=sys.stderr)
        return 2
    path, wanted = argv[1], set(argv[2:])
    if not (os.path.isdir(path) or
            (os.path.isfile(path) and path.endswith((".tar.gz", ".tgz")))):
        print(f"sm_pairs_table.py: {path}: neither a folder nor a .tar.gz of traces",
              file=sys.stderr)
        return 2
    for name, f in csv_files(path):
        rung, shape = name[:-4].rsplit("-", 1)
        if rung not in TILES or (wanted and rung not in wanted):
            continue
        m, n, _ = (int(v) for v in shape.split("x"))
        s = summarize(spans_of(f), m, n, TILES[rung])
        served = " ".join(f"{w} us {s['served'][w]:.3f}" for w in WINDOWS_US)
        d = s["distance"]
        print(f"{rung:15s} {shape:15s} pairs {s['pairs']:6d}  one row {s['row']:.3f} "
              f"(random {s['random']:.3f})  one column {s['col']:.3f}  distance "
              f"{d[0]}/{d[1]}/{d[2]}  offset {s['offset']:.2f}  from L1 within {served}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
