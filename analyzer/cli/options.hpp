#pragma once
// Options of each command. CLI11 fills them; the run_* functions only read them.
#include <string>
#include <vector>

namespace tgemm::cli {

struct main_options {
    std::string gpu = "auto";
    std::string kernels = "all";
    // Every rung at these sizes, and the tensor-core rungs also at tensor_sizes (the FP32
    // ladder at 8192³ would take minutes under its instrumented counters): by default, or when
    // --tensor-sizes is given; --sizes alone measures just its sizes.
    std::string sizes = "1024,2048,4096,4096x2048x1024";
    std::string tensor_sizes = "8192";
    bool sizes_given = false;
    bool tensor_sizes_given = false;
    std::string out;      // default reports/<gpu>/
    std::string profile;  // default profiles/<gpu>.json (a shard's: see --shard)
    bool offline = false;
    bool predict = false;  // write the predicted profile instead of measuring (docs/fleet.md)
    bool no_counters = false;
    bool no_peaks = false;  // skip the peak micro-benchmarks
    int runs = 20;          // the fewest timed launches per pair (collect/stopping_rule.hpp)
    // Timing stops when the median's relative standard error is below this (percent), or when
    // max_time_per_pair seconds of timing have passed, whichever comes first after `runs`.
    double noise_target_pct = 0.5;
    double max_time_per_pair = 10;
    int counter_batch = 32;             // pairs of one size counted together (collect/measure.hpp)
    std::string cupti_ranges = "user";  // what a counted launch's range holds (counter_session.hpp)
    int repeat = 1;       // measure the work list this many times (analysis/repeatability.hpp)
    bool resume = false;  // continue the stopped run in <profile>.partial (collect/pair_loop.hpp)
    double wait_for_counters = 0;  // seconds to wait while another process holds the counters
    std::string shard;             // "i/n": every n-th pair of the work list from i (docs/fleet.md)
    std::string device;            // "N" or "all": one process per GPU (cli/device_fleet.hpp)
    // With --device: every GPU measures the whole work list into a profile of its own, and the
    // fleet report compares them (a node's health check), instead of one shard each.
    bool each_gpu = false;
    // Set by --device's parent for its children: each finished pair is appended here as
    // "done total what", and the child renders no report (the parent merges and renders).
    std::string progress_file;
    std::vector<std::string> args;  // the command line as given, for --device's children
};

struct fleet_options {
    std::vector<std::string> inputs;
    std::string out;  // default reports/<gpu>/fleet.md
    // Flag a card this far below the median (percent). Two H100 runs of one day differ by up to
    // 4 % on a row (bf16_cluster at 8192³, docs/tuning-bf16.md), so 5 % is above that noise.
    double margin_pct = 5;
};

struct report_options {
    std::string profile;
    std::string out;             // default reports/<gpu key>/
    bool summary = false;        // print the benchmark table instead of rendering
    bool repeatability = false;  // print what moved between --repeat runs instead of rendering
};

struct list_options {
    std::string what;  // gpus | kernels | metrics
    bool tsv = false;
};

struct merge_options {
    std::vector<std::string> inputs;
    std::string out;
    bool prefer_latest = false;  // a conflicting duplicate keeps the later-measured row
};

struct peaks_options {
    bool json = false;  // print the peaks object as the profile stores it
};

struct run_kernel_options {
    std::string kernel;
    std::string size = "4096";
    int repeat = 1;
    bool flush = false;  // restore C and flush L2 before each launch, as the counter pass does
    // Each launch alone between cudaProfilerStart and cudaProfilerStop, the preparation outside:
    // the range Nsight Compute's --replay-mode range counts (docs/validation-method.md).
    bool profiler_range = false;
};

}  // namespace tgemm::cli
