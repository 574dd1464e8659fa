#!/usr/bin/env python3
"""Summarise Nsight Compute's view of the peak micro-benchmarks.

Reads the CSV that `scripts/gpu_session.sh ncu-peaks` logs (ncu --csv --print-units base on
`tgemm-roofline peaks`, metrics from scripts/peak_metrics.txt) and prints, per benchmark kernel,
the bytes it moved at each level, its duration and clocks, the rates those give, and the chip's
peak rates as ncu states them (`*.peak_sustained` per cycle × the unit's measured clock).

    python3 scripts/peak_ncu_summary.py ncu-peaks.log > peaks-ncu.md
"""
import csv
import io
import sys
from collections import defaultdict


def main(path):
    text = open(path).read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit(f"{path}: no ncu CSV found")
    per_kernel = defaultdict(lambda: defaultdict(list))
    for row in csv.DictReader(io.StringIO(text[start:])):
        name = row["Kernel Name"].split("(")[0]
        per_kernel[name][row["Metric Name"]].append(float(row["Metric Value"].replace(",", "")))

    def avg(d, k):
        v = d.get(k)
        return sum(v) / len(v) if v else None

    print("| kernel | launches | duration | SM clock | DRAM read | L2 bytes | shared wavefronts "
          "| bank conflicts | DRAM read rate | L2 rate | shared rate (x128 B) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    peaks = {}
    for name, d in per_kernel.items():
        t = avg(d, "gpu__time_duration.sum")
        n = len(d.get("gpu__time_duration.sum", []))
        clk = avg(d, "sm__cycles_elapsed.avg.per_second")
        dr = avg(d, "dram__bytes_read.sum")
        l2 = avg(d, "lts__t_bytes.sum")
        wf = avg(d, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
        bc = avg(d, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")

        def rate(b):
            return f"{b / (t * 1e-9) / 1e12:.3f} TB/s" if b and t else "–"

        print(f"| {name} | {n} | {t / 1e6:.3f} ms | {clk / 1e6:.0f} MHz | {dr or 0:.4g} | "
              f"{l2 or 0:.4g} | {wf or 0:.4g} | {bc or 0:.4g} | {rate(dr)} | {rate(l2)} | "
              f"{rate(wf * 128 if wf else None)} |")
        for unit, per_cycle, clock in [
            ("DRAM", "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second"),
            ("L2", "lts__t_bytes.sum.peak_sustained", "lts__cycles_elapsed.avg.per_second"),
            ("shared (wavefronts)", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained",
             "sm__cycles_elapsed.avg.per_second"),
        ]:
            pc, hz = avg(d, per_cycle), avg(d, clock)
            if pc is not None and hz is not None:
                peaks.setdefault(unit, []).append((name, pc, hz))
    print()
    print("| unit | kernel | peak per cycle (ncu) | unit clock (ncu) | peak rate |")
    print("|---|---|---:|---:|---:|")
    for unit, rows in peaks.items():
        for name, pc, hz in rows:
            scale = 128 if unit.startswith("shared") else 1
            print(f"| {unit} | {name} | {pc:.6g} | {hz / 1e6:.1f} MHz | "
                  f"{pc * scale * hz / 1e12:.3f} TB/s |")


if __name__ == "__main__":
    main(sys.argv[1])
