#!/usr/bin/env python3
"""Turns raw `ncu --csv` lines, each prefixed with the values of the key columns (e.g.
PROMOTION,KERNEL,SIZE,), into one row per launch with a column per metric: the form of
docs/validation/<gpu>-tma-l2-promotion.csv and <gpu>-l2-store-path.csv.

HEADER.txt holds the file's two '#' lines, copied first; the second names the columns as
`name = metric` pairs separated by '; ', in column order.

    python3 scripts/probes/ncu_table.py --keys promotion,kernel,size HEADER.txt RAW.csv > OUT.csv
"""
import argparse
import csv
import re
import sys

PAIR = re.compile(r"^\s*([a-z0-9_]+) = ([a-z0-9_]+__\S+)\s*$")


def columns_of(header_lines):
    comments = [line.rstrip("\n") for line in header_lines if line.startswith("#")]
    if len(comments) != 2:
        raise ValueError(f"the header holds {len(comments)} '#' lines, not 2")
    cols = [PAIR.match(part).groups() for part in comments[1][1:].split(";") if PAIR.match(part)]
    if not cols:
        raise ValueError("the header's second line names no `name = metric` column")
    return comments, cols


def launches(records):
    """(key, metric, value) records → ({key: {metric: value}}, the keys in first-seen order):
    one row per launch, as both converters of this folder write them."""
    rows, order = {}, []
    for key, metric, value in records:
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][metric] = value
    return rows, order


def convert(header_lines, raw_lines, keys):
    comments, cols = columns_of(header_lines)

    def records():
        for n, cells in enumerate(csv.reader(raw_lines), 1):
            if len(cells) < len(keys) + 3 or cells[len(keys)] == "ID":
                continue  # ncu's own header line
            metric, value = cells[-3], cells[-1].replace(",", "")
            if not re.fullmatch(r"\d+(\.\d+)?", value):
                raise ValueError(f"line {n}: {metric} is not a number: {cells[-1]}")
            yield tuple(cells[:len(keys)]), metric, value

    rows, order = launches(records())
    out = comments + [",".join(keys + [name for name, _ in cols])]
    for key in order:
        missing = [m for _, m in cols if m not in rows[key]]
        if missing:
            raise ValueError(f"{','.join(key)}: no {missing[0]}")
        out.append(",".join(list(key) + [rows[key][m] for _, m in cols]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", required=True, help="names of the key columns, comma-separated")
    ap.add_argument("header")
    ap.add_argument("raw")
    a = ap.parse_args()
    try:
        lines = convert(open(a.header).readlines(), open(a.raw).readlines(), a.keys.split(","))
    except (OSError, ValueError) as e:
        print(f"ncu_table.py: {e}", file=sys.stderr)
        sys.exit(2)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
