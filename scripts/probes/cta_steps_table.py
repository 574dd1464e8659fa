#!/usr/bin/env python3
"""How far apart the co-readers of a strip reach each step of K, and the merges that would give.

Reads the K-step traces of CapacityEdge.CoReadersThroughTheStepsOfK (a tarball or folder of
<rung>-<shape>-r<launch>-steps.csv, whose first line holds the launch's counted requests and
merges) and the coalescing domains (the "domain of SM 0 ... N" line of
RequestCoalescer.Domains' log). For every step, the CTAs that read one strip of A (one
blockIdx.y) or of B (one blockIdx.x) are grouped by their SM's domain; within a group, sorted by
the time they reached the step, each reader after the first is `gap` after the one before it.
Printed per trace: the gaps' distribution, and the requests a coalescer would merge if a
response served the requests for a sector that arrive within `w` of its first one, at most four
(the measured fan-out), for several w, as a share of all requests (each CTA asks once for each
sector of its A and B tiles a step; rows and columns past the matrix's edge are left out).

usage: cta_steps_table.py <traces.tgz|folder|pack.steps.xz> <request-coalescer.log> [rung-shape ...]
       cta_steps_table.py --pack <folder|traces.tgz> <out.steps.xz>
       cta_steps_table.py --sharing <traces> [rung-shape ...]

--sharing prints, per trace, how long a step takes (median, us) for a CTA that shares its SM only
with CTAs that started after it (the older), only with CTAs that started before it (the younger),
and with none (alone): how the SM divides itself between the CTAs it holds
(docs/models/dram-waves.md, "The schedule seen directly").

--pack writes the traces into one xz file, each time in units of %globaltimer's 32 ns step and each
step as its difference to the step before (lossless; it refuses times off the 32 ns grid): the
committed form (docs/validation/coalescer-steps/), which this script reads as it reads the CSVs.
"""
import csv
import io
import lzma
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cta_drift_table  # noqa: E402  (its CSV reader)

# The rungs' tiles: (rows of A a CTA stages, columns of B, depth of a step).
TILES = {
    "smem_tiling": (32, 32, 32),
    "smem_register": (64, 64, 8),
    "blocktiling_1d": (64, 64, 8),
    "blocktiling_2d": (128, 128, 8),
    "vectorized": (128, 128, 8),
    "warptiling": (128, 128, 16),
}
WINDOWS_NS = (64, 128, 256, 512, 1024, 2048)
FANOUT = 4
# The share of a second reader's requests merged with the first's when it reads `skew` ns later
# and neither can run ahead (RequestCoalescer.OnASchedule, SMs 0 and 1, H200, 2026-11-27,
# docs/validation/h200-request-coalescer-schedule.log): cold, the first request waits on DRAM;
# warm, on an L2 hit. Linear between the logged skews, 0 past the last.
COLD = ((0, 1.0), (32, 1.0), (64, 1.0), (128, 0.999), (192, 0.585), (256, 0.393), (384, 0.061),
        (512, 0.011), (768, 0.0))
WARM = ((0, 1.0), (32, 0.643), (64, 0.251), (128, 0.105), (192, 0.0))


def curve(points, skew):
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if skew <= x1:
            return y0 + (y1 - y0) * (skew - x0) / (x1 - x0)
    return 0.0


def merged_by_curve(times, points):
    """Expected requests merged: each reader after a response's first merges into it with the
    curve's share at its offset from that first one (at most FANOUT a response); one that more
    likely does not opens the next response."""
    merged, opener, served = 0.0, times[0], 1
    for t in times[1:]:
        p = curve(points, t - opener) if served < FANOUT else 0.0
        merged += p
        if p >= 0.5:
            served += 1
        else:
            opener, served = t, 1
    return merged


class Refused(Exception):
    """What the script cannot do, said in one line (exit code 2)."""


def domains(log_path):
    with open(log_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"domain of SM 0 \.\.\. \d+: (.*)", line)
            if m:
                return [int(x) for x in m.group(1).split()]
    raise Refused(f"{log_path}: no 'domain of SM 0 ... N' line (RequestCoalescer.Domains' log)")


TICK = 32  # ns: %globaltimer's resolution on the H100 and the H200


def pack(src, dst):
    out = []
    for name, f in traces(src):
        lines = f.read().splitlines()
        out.append("== " + name)
        rows = lines
        if lines[0].startswith("#"):
            out.append(lines[0])
            rows = lines[1:]
        for line in rows[1:]:
            v = [int(x) for x in line.split(",")]
            if any(x % TICK for x in v[2:]):
                raise Refused(f"{name}: a time off the {TICK} ns grid; not packed")
            t = [x // TICK for x in v[2:]]
            steps = t[2:]
            deltas = [steps[0]] + [steps[i] - steps[i - 1] for i in range(1, len(steps))]
            out.append(",".join(map(str, [v[1]] + t[:2] + deltas)))
    if not out:
        raise Refused(f"{src}: no <rung>-<shape>-steps.csv traces")
    tmp = dst + ".tmp"
    with lzma.open(tmp, "wt", preset=9 | lzma.PRESET_EXTREME) as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, dst)


def unpacked(path):
    """The CSVs of a pack, as (name, file) pairs."""
    name, lines = None, []
    def done():
        return name, io.StringIO("\n".join(lines) + "\n")
    with lzma.open(path, "rt") as f:
        for line in f.read().splitlines():
            if line.startswith("== "):
                if name:
                    yield done()
                name, lines, cta = line[3:], [], 0
                continue
            if line.startswith("#"):
                lines.append(line)
                continue
            v = [int(x) for x in line.split(",")]
            sm, start, end, deltas = v[0], v[1], v[2], v[3:]
            if cta == 0:
                lines.append("cta,sm,start_ns,end_ns," + ",".join(f"s{i}" for i in range(len(deltas))))
            steps, t = [], 0
            for d in deltas:
                t += d
                steps.append(t * TICK)
            lines.append(",".join(map(str, [cta, sm, start * TICK, end * TICK] + steps)))
            cta += 1
    if name:
        yield done()


def traces(path):
    if path.endswith(".xz"):
        yield from unpacked(path)
        return
    if not (os.path.isdir(path) or path.endswith((".tar.gz", ".tgz"))):
        raise Refused(f"{path}: not a folder, .tar.gz, .tgz or .xz of traces")
    yield from cta_drift_table.csv_files(path, "-steps.csv")


def merged_within(times, w):
    """Requests merged when a response takes those arriving within w of its first, FANOUT at most."""
    merged, i = 0, 0
    while i < len(times):
        j = i + 1
        while j < len(times) and j - i < FANOUT and times[j] - times[i] <= w:
            j += 1
        merged += j - i - 1
        i = j
    return merged


def analyse(name, f, dom):
    m = re.match(r"(.+)-(\d+)x(\d+)x(\d+)(?:-r(\d+))?-steps\.csv", name)
    rung, M, N, K = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
    launch = m.group(5) or "0"
    bm, bn, bk = TILES[rung]
    gx = (N + bn - 1) // bn
    lines = f.read().splitlines()
    counted = {}
    if lines[0].startswith("#"):
        words = lines[0][1:].split()
        counted = {words[i]: float(words[i + 1]) for i in range(0, len(words), 2)}
        lines = lines[1:]
    rows = list(csv.reader(lines))[1:]
    sm = [int(r[1]) for r in rows]
    steps = [[int(x) for x in r[4:]] for r in rows]
    nsteps = len(steps[0])
    a_bytes = lambda y: min(bm, M - y * bm) * bk * 4  # one CTA's A tile a step
    b_bytes = lambda x: min(bn, N - x * bn) * bk * 4
    total = sum(a_bytes(b // gx) + b_bytes(b % gx) for b in range(len(rows))) * nsteps
    gaps = []
    merged = {w: 0 for w in WINDOWS_NS}
    by_curves = 0.0
    most = 0
    for strip_of, size_of in ((lambda b: ("A", b // gx), a_bytes), (lambda b: ("B", b % gx), b_bytes)):
        groups = {}
        first = {}  # (strip, step): the earliest time any reader reached it (its DRAM miss)
        for b in range(len(rows)):
            key = strip_of(b)
            groups.setdefault((key, dom[sm[b]]), []).append(b)
        for (key, _), members in groups.items():
            for i in range(nsteps):
                t = min(steps[b][i] for b in members)
                first[(key, i)] = min(first.get((key, i), t), t)
        for (key, _), members in groups.items():
            if len(members) < 2:
                continue
            size = size_of(key[1])
            most += (len(members) - (len(members) + FANOUT - 1) // FANOUT) * size * nsteps
            for i in range(nsteps):
                t = sorted(steps[b][i] for b in members)
                gaps.extend(t[j] - t[j - 1] for j in range(1, len(t)))
                for w in WINDOWS_NS:
                    merged[w] += merged_within(t, w) * size
                # The group holding the strip's first reader waits on DRAM; the others hit.
                points = COLD if t[0] == first[(key, i)] else WARM
                by_curves += merged_by_curve(t, points) * size
    gaps.sort()
    share = lambda lim: sum(1 for g in gaps if g <= lim) / len(gaps) if gaps else 0
    measured = ""
    if counted:
        measured = (f"; measured: requests {counted['l2_requested_bytes']/1e6:.1f} MB, merged "
                    f"{counted['l2_coalesced_bytes']/counted['l2_requested_bytes']:.3f}")
    print(f"{rung:<15} {M}x{N}x{K} launch {launch}: {len(rows)} CTAs, {nsteps} steps; requests "
          f"{total/1e6:.1f} MB; the domains allow {most/total:.3f} merged{measured}")
    print("  gap to the co-reader before, share within " +
          ", ".join(f"{lim} ns: {share(lim):.2f}" for lim in (64, 128, 256, 512, 1024, 4096)))
    print("  merged within w (share of requests): " +
          ", ".join(f"{w} ns: {merged[w]/total:.3f}" for w in WINDOWS_NS))
    print(f"  merged by the schedule probe's curves (cold for the group with a strip's first "
          f"reader, warm for the rest): {by_curves/total:.3f}")


def sharing(name, f):
    """The median step of the older, the younger and a lone CTA on an SM, in ns, with counts."""
    lines = [line for line in f.read().splitlines() if not line.startswith("#")]
    rows = [[int(x) for x in r] for r in csv.reader(lines[1:])]
    on_sm = {}
    for r in rows:
        on_sm.setdefault(r[1], []).append(r)
    kinds = {"older": [], "younger": [], "alone": []}
    for ctas in on_sm.values():
        for c in ctas:
            others = [o for o in ctas if o is not c]
            steps = c[4:]
            for a, b in zip(steps, steps[1:]):
                with_it = [o for o in others if o[2] < b and o[3] > a]
                if not with_it:
                    kinds["alone"].append(b - a)
                elif all(o[2] > c[2] for o in with_it):
                    kinds["older"].append(b - a)
                elif all(o[2] < c[2] for o in with_it):
                    kinds["younger"].append(b - a)
    def med(v):
        v = sorted(v)
        return (v[len(v) // 2], len(v)) if v else (None, 0)
    return {k: med(v) for k, v in kinds.items()}


def main(argv):
    try:
        if len(argv) == 4 and argv[1] == "--pack":
            if not os.path.exists(argv[2]):
                raise Refused(f"{argv[2]}: no such file or directory")
            pack(argv[2], argv[3])
            return 0
        if len(argv) >= 3 and argv[1] == "--sharing":
            if not os.path.exists(argv[2]):
                raise Refused(f"{argv[2]}: no such file or directory")
            only, seen = set(argv[3:]), 0
            for name, f in traces(argv[2]):
                if only and not any(name.startswith(o + "-") for o in only):
                    continue
                got = sharing(name, f)
                cells = [f"{k} {v[0] / 1e3:.2f} us ({v[1]} steps)" if v[0] is not None
                         else f"{k} -" for k, v in got.items()]
                print(f"{name.replace('-steps.csv', ''):<40} step: " + ", ".join(cells))
                seen += 1
            if not seen:
                raise Refused(f"{argv[2]}: no <rung>-<shape>-steps.csv traces")
            return 0
        if len(argv) < 3 or argv[1].startswith("--"):
            print("usage: cta_steps_table.py TRACES DOMAINS_LOG [RUNG-SHAPE ...] | --pack TRACES OUT.xz",
                  file=sys.stderr)
            return 2
        for path in argv[1:3]:
            if not os.path.exists(path):
                raise Refused(f"{path}: no such file or directory")
        dom = domains(argv[2])
        only = set(argv[3:])
        seen = 0
        for name, f in traces(argv[1]):
            if only and not any(name.startswith(o + "-") for o in only):
                continue
            if not re.match(r"(.+)-(\d+)x(\d+)x(\d+)(?:-r\d+)?-steps\.csv$", name) or \
                    name.split("-")[0] not in TILES:
                raise Refused(f"{name}: not <rung>-<M>x<N>x<K>[-r<launch>]-steps.csv of a stepped rung")
            analyse(name, f, dom)
            seen += 1
        if not seen:
            raise Refused(f"{argv[1]}: no <rung>-<shape>-steps.csv traces"
                          + (" of " + ", ".join(sorted(only)) if only else ""))
    except Refused as e:
        print(f"cta_steps_table.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
