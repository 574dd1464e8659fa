"""scripts/validate_ncu.py end to end, without a GPU: ncu's repeated launches (--noise-only,
--noise-same-prep-only, --noise-csv) run against a stand-in for ncu that prints what ncu's CSV
holds, and the rescoring reads them back (--ncu-runs) and explains a row with them. Argument:
the tgemm-roofline binary (its `list metrics --tsv` is the metric table)."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "validate_ncu.py")
BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tgemm-roofline")

# Prints ncu's CSV for the metrics asked: 100 + the number of earlier launches, so each launch
# differs; a launch after the tool's preparation (--flush) adds 1000.
FAKE_NCU = r'''#!/usr/bin/env python3
import os, sys
counter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launches")
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
metrics = sys.argv[sys.argv.index("--metrics") + 1].split(",")
value = 100 + n + (1000 if "--flush" in sys.argv else 0)
print("==PROF== a line ncu prints first")
print('"ID","Kernel Name","Metric Name","Metric Value"')
for m in metrics:
    print(f'"0","k","{m}","{value}"')
'''


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class NoiseRunsAndRescore(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.ncu = os.path.join(self.dir, "ncu")
        with open(self.ncu, "w") as f:
            f.write(FAKE_NCU)
        os.chmod(self.ncu, 0o755)
        self.profile = os.path.join(ROOT, "profiles", "h100.json")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def noise(self, *extra):
        out = os.path.join(self.dir, "runs.csv")
        md = os.path.join(self.dir, "not-written.md")
        p = run("--binary", BINARY, "--ncu", self.ncu, "--profile", self.profile, "--noise",
                "naive:1024", "--noise-runs", "3", "--noise-csv", out, "--noise-only", "--out",
                md, *extra)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertFalse(os.path.exists(md))  # --noise-only compares no profile, writes no table
        return list(csv.DictReader(open(out)))

    def test_run_one_launches(self):
        rows = self.noise()
        ffma = [float(r["value"]) for r in rows if r["key"] == "ffma"]
        self.assertEqual(ffma, [100.0, 101.0, 102.0])
        self.assertEqual({r["prep"] for r in rows}, {"all"})
        self.assertEqual({r["run"] for r in rows}, {"1", "2", "3"})

    def test_launches_after_the_tools_preparation_hold_the_l2_counters_only(self):
        rows = self.noise("--noise-same-prep-only")
        self.assertEqual({r["prep"] for r in rows}, {"tool"})
        self.assertIn("dram_write_bytes", {r["key"] for r in rows})
        self.assertNotIn("ffma", {r["key"] for r in rows})
        self.assertEqual(float(rows[0]["value"]), 1100.0)

    def test_a_bad_run_count_or_a_misplaced_flag_is_one_line(self):
        for args, what in ((["--noise-runs", "0"], "--noise-runs 0: at least 1"),
                           (["--list-open"], "--list-open: only with --rescore")):
            p = run("--binary", BINARY, "--ncu", self.ncu, "--profile", self.profile,
                    "--noise", "naive:1024", "--noise-only", *args)
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(p.stderr.strip(), what)
            self.assertFalse(os.path.exists(os.path.join(self.dir, "launches")))  # no ncu ran

    def test_rescore_explains_a_row_with_ncus_own_launches(self):
        comparisons = os.path.join(self.dir, "comparisons.csv")
        with open(comparisons, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "size", "key", "metric", "tool", "ncu", "ncu_same_prep",
                        "rel_diff", "ok", "note"])
            w.writerow(["naive", "1024", "smem_load_wavefronts",
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "100", "110", "",
                        "", "", ""])
        runs = os.path.join(self.dir, "ncu-runs.csv")
        with open(runs, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "size", "key", "run", "value", "prep"])
            w.writerow(["naive", "1024", "smem_load_wavefronts", "1", "101.5", "all"])
        md = os.path.join(self.dir, "table.md")
        p = run("--profile", self.profile, "--out", md, "--rescore", comparisons, "--list-open")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout.strip(), "naive:1024")
        self.assertIn("UNEXPLAINED", open(md).read())
        p = run("--profile", self.profile, "--out", md, "--ncu-runs", runs, "--rescore",
                comparisons, "--list-open")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "")
        table = open(md).read()
        self.assertIn("ncu's own launches (2: 101.5 … 110, --ncu-runs)", table)
        self.assertIn("--ncu-runs " + runs, table)

    def comparisons(self, name, ncu_value):
        path = os.path.join(self.dir, name)
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "size", "key", "metric", "tool", "ncu", "ncu_same_prep",
                        "rel_diff", "ok", "note"])
            w.writerow(["naive", "1024", "smem_load_wavefronts",
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "100",
                        str(ncu_value), "", "", "", ""])
        return path

    def test_a_later_file_replaces_a_row_and_a_changed_kernel_drops_older_launches(self):
        old, new = self.comparisons("old.csv", 110), self.comparisons("new.csv", 100.5)
        md = os.path.join(self.dir, "table.md")
        p = run("--profile", self.profile, "--out", md, "--rescore", old, new, "--list-open")
        self.assertEqual((p.returncode, p.stdout.strip()), (0, ""), p.stderr)
        self.assertIn("**1 of 1 comparisons", open(md).read())
        p = run("--profile", self.profile, "--out", md, "--rescore", new, old, "--list-open")
        self.assertEqual((p.returncode, p.stdout.strip()), (1, "naive:1024"))
        # ncu's launches measured before naive changed explain its old row no more.
        runs = os.path.join(self.dir, "ncu-runs.csv")
        with open(runs, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "size", "key", "run", "value", "prep"])
            w.writerow(["naive", "1024", "smem_load_wavefronts", "1", "101.5", "all"])
        p = run("--profile", self.profile, "--out", md, "--ncu-runs", runs, "--rescore", old,
                "--list-open")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = run("--profile", self.profile, "--out", md, "--ncu-runs", runs, "--changed-kernels",
                "naive", "--note", "naive changed.", "--rescore", old, "--list-open")
        self.assertEqual((p.returncode, p.stdout.strip()), (1, "naive:1024"))
        table = open(md).read()
        self.assertIn("naive changed.", table)
        self.assertIn("--changed-kernels naive", table)
        # ncu's launches measured after the change explain it again, given as such.
        p = run("--profile", self.profile, "--out", md, "--changed-ncu-runs", runs,
                "--changed-kernels", "naive", "--rescore", old, "--list-open")
        self.assertEqual((p.returncode, p.stdout.strip()), (0, ""), p.stderr)
        self.assertIn("--changed-ncu-runs " + runs, open(md).read())

    def test_a_changed_file_without_changed_kernels_is_one_line(self):
        for flag in ("--changed-spread", "--changed-ncu-runs"):
            p = run("--profile", self.profile, "--out", os.path.join(self.dir, "t.md"), flag,
                    os.path.join(self.dir, "x"), "--rescore", self.comparisons("c.csv", 100))
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(p.stderr.strip(),
                             flag + ": only with --changed-kernels (which kernels it is about)")
            self.assertFalse(os.path.exists(os.path.join(self.dir, "t.md")))

    def test_an_unreadable_changed_file_is_one_line_naming_its_flag(self):
        for flag, name in (("--changed-spread", "none.json"), ("--changed-ncu-runs", "none.csv")):
            missing = os.path.join(self.dir, name)
            p = run("--profile", self.profile, "--out", os.path.join(self.dir, "t.md"),
                    "--changed-kernels", "naive", flag, missing, "--rescore",
                    self.comparisons("c.csv", 100))
            self.assertNotEqual(p.returncode, 0)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertTrue(p.stderr.startswith(flag + " " + missing), p.stderr)


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
