#!/usr/bin/env python3
"""Print the measured peaks of the shipped profiles as one markdown table (docs/peaks.md).

    python3 scripts/peaks_table.py profiles/h100.json profiles/h200.json
"""
import json
import sys


def fmt(v, unit):
    scale = [(1e15, "P"), (1e12, "T"), (1e9, "G")]
    for s, p in scale:
        if v >= s:
            return f"{v / s:.3g} {p}{unit}"
    return f"{v:.3g} {unit}"


def main(paths):
    profiles = [json.load(open(p)) for p in paths]
    print("| roof | " + " | ".join(
        f"{p['gpu']['name']}: theoretical · measured · ratio" for p in profiles) + " |")
    print("|---|" + "---|" * len(profiles))
    keys = []
    for p in profiles:
        keys += [k for k in p["peaks"] if k not in keys]
    for k in keys:
        cells = []
        for p in profiles:
            r = p["peaks"].get(k)
            if not r:
                cells.append("—")
                continue
            ref = r.get("theoretical_at_clock") or r["theoretical"]
            unit = r["unit"].replace("/s", "")
            cell = fmt(r["theoretical"], r["unit"])
            if r.get("measured"):
                cell += f" · {fmt(r['measured'], r['unit'])} · {r['measured'] / ref:.1%}"
                if r.get("clock_mhz"):
                    cell += f" (at {r['clock_mhz']:.0f} MHz)"
            cells.append(cell)
        print(f"| `{k}` | " + " | ".join(cells) + " |")
    for path, p in zip(paths, profiles):
        print(f"\n`{path}`: measured {p['env']['date']} by `{p['env']['command']}`.")


if __name__ == "__main__":
    main(sys.argv[1:])
