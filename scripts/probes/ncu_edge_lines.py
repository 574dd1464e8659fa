#!/usr/bin/env python3
"""Turns the `ncu --csv --print-units base` output of one CapacityEdge.TheWorkspaceStepByStep
process (scripts/probes/capacity_edge_steps.sh with NCU=1) into one line per launch of a rung,
in the form of the test's own counts, which `scripts/validate_ncu.py --placements` reads:

    STEPS: ncu KERNEL: DRAM reads X MB, fabric Y MB

The preparation's kernels (tgemm_aux_*) and the test's probe kernels (tgemm::probe) are left out.

    ncu ... tgemm_gpu_tests ... | python3 scripts/probes/ncu_edge_lines.py STEPS >> LOG
"""
import csv
import sys

import ncu_table

READS = "dram__bytes_read.sum"
FABRIC = "lts__t_sectors_srcunit_ltcfabric.sum"  # sectors of 32 bytes


def edge_lines(steps, text_lines):
    rows = list(csv.reader(line for line in text_lines if line.startswith('"')))
    if not rows:
        return [f"{steps}: ncu wrote no rows"]
    head = rows[0]
    k, m, v, i = (head.index(c) for c in ("Kernel Name", "Metric Name", "Metric Value", "ID"))
    by_launch, order = ncu_table.launches(
        ((int(r[i]), r[k]), r[m], float(r[v].replace(",", ""))) for r in rows[1:]
        if "tgemm_aux" not in r[k] and "probe" not in r[k])
    out = []
    for launch in order:
        values = by_launch[launch]
        missing = [name for name in (READS, FABRIC) if name not in values]
        if missing:
            raise ValueError(f"launch {launch[0]} ({launch[1]}): no {missing[0]}")
        out.append(f"{steps}: ncu {launch[1].split('(')[0]}: DRAM reads {values[READS] / 1e6:.2f} "
                   f"MB, fabric {values[FABRIC] * 32 / 1e6:.2f} MB")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("ncu_edge_lines.py: give the list of steps (TGEMM_EDGE_STEPS) as its argument")
    try:
        print("\n".join(edge_lines(sys.argv[1], sys.stdin)))
    except ValueError as e:
        sys.exit(f"ncu_edge_lines.py: {e}")
