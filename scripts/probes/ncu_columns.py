#!/usr/bin/env python3
"""Turns the raw lines scripts/probes/lrc_spread.sh collects from `ncu --csv` into one row per
launch with a column per metric, the form of docs/validation/h100-lrc-2048-ncu3.csv and
h100-tma-requests-ncu.csv.

Input lines: KERNEL,SIZE,RUN,<kernel name>,<metric>,<value>, where the kernel name and the value
may hold commas (ncu prints thousands separators). Lines starting with '#' are copied first.

    python3 scripts/probes/ncu_columns.py RAW.csv > OUT.csv
"""
import re
import sys

import ncu_table

# Short column names, in column order.
COLUMNS = [
    ("lrc__request_sectors_op_read_coalescable.sum", "requests"),
    ("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "merged"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "l1_miss"),
    ("lts__t_sectors_srcunit_tex_op_read.sum", "l2_tex_read"),
    ("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "tma_load_bytes"),
    ("dram__bytes_read.sum", "dram_read_bytes"),
]
METRIC = re.compile(r"^[a-z0-9]+__\S+$")


def convert(lines):
    comments = []

    def records():
        for n, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                comments.append(line)
                continue
            cells = line.split(",")
            at = next((i for i, c in enumerate(cells) if i >= 3 and METRIC.match(c)), None)
            if at is None or at + 1 >= len(cells):
                raise ValueError(f"line {n}: no metric name and value: {line[:80]}")
            value = "".join(cells[at + 1:])
            if not value.isdigit():
                raise ValueError(f"line {n}: {cells[at]} is not a whole number: {value!r}")
            yield tuple(cells[:3]), cells[at], value

    rows, seen = ncu_table.launches(records())
    present = [(m, short) for m, short in COLUMNS if any(m in r for r in rows.values())]
    unknown = {m for r in rows.values() for m in r} - {m for m, _ in COLUMNS}
    if unknown:
        raise ValueError("metrics without a column name: " + ", ".join(sorted(unknown)))
    out = comments + ["kernel,size,run," + ",".join(short for _, short in present)]
    for key in seen:
        out.append(",".join(list(key) + [rows[key].get(m, "") for m, _ in present]))
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: ncu_columns.py RAW.csv", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            out = convert(f.readlines())
    except (OSError, ValueError) as e:
        print(f"ncu_columns.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
