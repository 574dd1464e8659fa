#!/usr/bin/env python3
"""Turns saved `ncu --csv --print-units base` outputs of `tgemm-roofline run-kernel` into a file of
ncu's repeated launches in the form `validate_ncu.py --noise-csv` writes (kernel, size, key, run,
value, prep), for `--ncu-runs` / `--changed-ncu-runs`: for launches run by hand with metrics of the
tool's table. Each output's metrics are mapped to the tool's keys with its metric table; metrics
the table does not hold are left out.

    python3 scripts/probes/ncu_runs_csv.py --binary build/tgemm-roofline --kernel K --size S \\
        --prep tool OUT.csv RUN1.txt RUN2.txt ...      # prep: all (ncu's cache control) or tool

With --per-launch each output holds several launches of one kernel (run-kernel --repeat N under
ncu) and each of its launches (ncu's "ID" column, the tool's tgemm_aux_* kernels left out) is a
run of its own.
"""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import validate_ncu  # noqa: E402


def rows_of(table, kernel, size, prep, texts):
    rows = []
    for run, (name, text) in enumerate(texts, 1):
        values, _ = validate_ncu.parse_ncu_csv(text, name)
        rows += [[kernel, size, key, run, values[metric] * scale, prep]
                 for key, metric, scale in table if metric in values]
    return rows


def launches_of(name, text):
    """[(name#i, text)]: one ncu CSV text per launch of `text` (ncu's "ID" column), the lines
    before the CSV and the tool's own tgemm_aux_* kernels left out."""
    start = text.find('"ID"')
    if start < 0:
        raise RuntimeError(f"no CSV from ncu for {name}: {text[-500:]}")
    lines = text[start:].splitlines()
    by_id = {}
    for row, line in zip(csv.DictReader(lines), lines[1:]):
        if "tgemm_aux_" not in row["Kernel Name"]:
            by_id.setdefault(int(row["ID"]), []).append(line)
    return [(f"{name}#{i}", "\n".join([lines[0]] + rows) + "\n")
            for i, rows in sorted(by_id.items())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="tgemm-roofline, for its metric table")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--size", required=True)
    ap.add_argument("--prep", choices=["all", "tool"], required=True)
    ap.add_argument("--per-launch", action="store_true",
                    help="each output holds several launches: one run per launch")
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()
    texts = []
    for path in args.runs:
        try:
            texts.append((path, open(path).read()))
        except OSError as e:
            raise SystemExit(f"{path}: cannot read it ({e.strerror})")
    try:
        table = validate_ncu.metric_table(args.binary)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"--binary {args.binary}: cannot list its metrics ({e})")
    try:
        if args.per_launch:
            texts = [one for name, text in texts for one in launches_of(name, text)]
        rows = rows_of(table, args.kernel, args.size, args.prep, texts)
    except RuntimeError as e:
        raise SystemExit(str(e))
    if not rows:
        raise SystemExit("no metric of the tool's table in these outputs")
    existing = []
    if os.path.exists(args.out):
        with open(args.out) as f:
            existing = [list(r.values()) for r in csv.DictReader(f)]
    validate_ncu.write_csv(args.out, ["kernel", "size", "key", "run", "value", "prep"],
                           existing + rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
