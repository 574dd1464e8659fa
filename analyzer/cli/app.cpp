#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/strings.hpp"

namespace tgemm::cli {

namespace {

constexpr int exit_usage = 2;
constexpr int exit_failure = 1;
constexpr int exit_interrupted = 130;  // 128 + SIGINT, what a shell reports for Ctrl-C

int exit_code(error_kind k) {
    if (k == error_kind::interrupted) return exit_interrupted;
    return (k == error_kind::usage || k == error_kind::input) ? exit_usage : exit_failure;
}

// Every error is one line on stderr: a message that carries an argument's or a file's text
// unescaped (a line break in --kernels) still prints as one. No cut: the library decides what
// it quotes.
std::string one_line(std::string_view what) {
    return printable(what, std::string_view::npos);
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{
        "tgemm-roofline: runs a ladder of GEMM kernels under hardware counters and sets the "
        "measured FLOPs and bytes per memory level beside the textbook formulas, as a roofline "
        "plot and a markdown report.\n"
        "Measures when this machine has the requested GPU; otherwise renders its stored profile, "
        "or the predicted roofline (labelled so).",
        "tgemm-roofline"};
    app.set_version_flag("--version", std::string("tgemm-roofline ") + TGEMM_VERSION);
    app.require_subcommand(0, 1);

    auto main_opts = std::make_shared<main_options>();
    app.add_option("--gpu", main_opts->gpu,
                   "target GPU: a100, h100, h200, rtx5070ti, or auto (this machine's GPU; the "
                   "shipped H100 profile when there is none)")
        ->capture_default_str();
    app.add_option("--kernels", main_opts->kernels, "comma-separated rung ids, or all")
        ->capture_default_str();
    app.add_option("--sizes", main_opts->sizes,
                   "comma-separated sizes: N or MxNxK, for every kernel (default: the FP32 and "
                   "tensor ladders at 1024,2048,4096,4096x2048x1024, and the tensor ladder also "
                   "at 8192)")
        ->capture_default_str()
        ->each([main_opts](const std::string&) { main_opts->sizes_given = true; });
    app.add_option("--tensor-sizes", main_opts->tensor_sizes,
                   "more sizes for the tensor-core rungs only: added by default; with --sizes, "
                   "only when given")
        ->capture_default_str()
        ->each([main_opts](const std::string&) { main_opts->tensor_sizes_given = true; });
    app.add_option("--out", main_opts->out, "output folder (default reports/<gpu>/)");
    app.add_option("--profile", main_opts->profile, "profile path (default profiles/<gpu>.json)");
    app.add_flag("--offline", main_opts->offline, "never measure; render stored or predicted data");
    app.add_flag("--predict", main_opts->predict,
                 "never measure or read a GPU: write the PREDICTED profile (spec database and "
                 "models, labelled so) of the run's work list, or of --shard's part, to --profile "
                 "(default profiles/<gpu>.predicted.json); for pipelines and tests without a GPU "
                 "(docs/fleet.md)");
    app.add_flag("--no-counters", main_opts->no_counters,
                 "measure time only, without the CUPTI counter pass");
    app.add_flag("--no-peaks", main_opts->no_peaks,
                 "skip the peak micro-benchmarks; the roofs stay theoretical");
    app.add_option("--wait-for-counters", main_opts->wait_for_counters,
                   "SECONDS: while another process is profiling this GPU (its counters busy), "
                   "try again every second for this long before giving up")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    app.add_option("--runs", main_opts->runs, "minimum timed launches per kernel and size")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--noise-target", main_opts->noise_target_pct,
                   "PCT: time each kernel and size until the relative standard error of its "
                   "median time is below this many percent (or --max-time-per-pair passes)")
        ->check(CLI::Range(0.001, 100.0))
        ->capture_default_str();
    app.add_option("--max-time-per-pair", main_opts->max_time_per_pair,
                   "SECONDS: stop timing a kernel and size after this long even if the noise "
                   "target is not met (the profile says so)")
        ->check(CLI::Range(0.001, 86400.0))
        ->capture_default_str();
    app.add_option("--counter-batch", main_opts->counter_batch,
                   "N: collect the counters of up to N (kernel, size) pairs of one size together, "
                   "one profiler start per metric group for all of them (a start costs about "
                   "0.15 s, docs/benchmark.md); a killed run loses at most the batch in flight; "
                   "1: pair by pair")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    app.add_option("--cupti-ranges", main_opts->cupti_ranges,
                   "user|kernel: count each launch in a user range pushed around it (user), or "
                   "in CUPTI's automatic range of each kernel, from its start to its end, as "
                   "Nsight Compute does (kernel); docs/cupti.md")
        ->check(CLI::IsMember({"user", "kernel"}))
        ->capture_default_str();
    app.add_option("--repeat", main_opts->repeat,
                   "N: measure the work list N times (timing and counters each time); each row "
                   "keeps the first run's values and the spread over the N runs "
                   "(report --repeatability)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_flag("--resume", main_opts->resume,
                 "continue a stopped run (Ctrl-C, a lost GPU, a killed process) from "
                 "<profile>.partial: the pairs it holds are kept, the others measured; the "
                 "command must be the stopped run's");
    app.add_option("--shard", main_opts->shard,
                   "i/n: measure only every n-th (kernel, size) pair of the run's work list, "
                   "starting at i (0 <= i < n), into a partial profile (default "
                   "profiles/<gpu>.shard-<i>-of-<n>.json) that `merge` combines; renders no "
                   "report (docs/fleet.md)");

    app.add_option("--device", main_opts->device,
                   "N or all: measure on GPU N, or on every GPU of this node, one process per "
                   "GPU, each a shard of the work list, merged into --profile with one report; a "
                   "GPU that fails leaves the others' rows (docs/fleet.md)");
    app.add_flag("--each-gpu", main_opts->each_gpu,
                 "with --device: every GPU measures the whole work list into a profile of its "
                 "own (<profile stem>.device-<N>.json), each gets its report, and the fleet "
                 "report compares the GPUs (<out>/fleet.md; docs/fleet.md)");
    app.add_option("--progress-file", main_opts->progress_file)->group("");  // --device's children
    main_opts->args = args;

    auto report_opts = std::make_shared<report_options>();
    auto* report = app.add_subcommand("report", "render a stored profile (no GPU needed)");
    report->add_option("profile", report_opts->profile, "profile JSON")->required();
    report->add_option("--out", report_opts->out, "output folder (default reports/<gpu>/)");
    auto* summary = report->add_flag(
        "--summary", report_opts->summary,
        "print the benchmark table (TFLOP/s and % of cuBLAS) and the timing noise to stdout; "
        "write nothing");
    report
        ->add_flag("--repeatability", report_opts->repeatability,
                   "print, as a markdown table, every counter and median time that moved more "
                   "than 1 % between the runs of a --repeat measurement; write nothing")
        ->excludes(summary);

    auto list_opts = std::make_shared<list_options>();
    auto* list = app.add_subcommand("list", "list known GPUs, kernels or counters");
    list->add_option("what", list_opts->what, "gpus | kernels | metrics")
        ->required()
        ->check(CLI::IsMember({"gpus", "kernels", "metrics"}));
    list->add_flag("--tsv", list_opts->tsv, "tab-separated output for scripts");

    auto rk_opts = std::make_shared<run_kernel_options>();
    auto* rk =
        app.add_subcommand("run-kernel",
                           "launch one rung once, without verification or the built-in collector, "
                           "so Nsight Compute can profile it");
    rk->add_option("--kernel", rk_opts->kernel, "rung id")->required();
    rk->add_option("--size", rk_opts->size, "N or MxNxK")->capture_default_str();
    rk->add_flag("--flush", rk_opts->flush,
                 "prepare each launch as the counter pass does: restore C, then flush L2 "
                 "(its kernel is named tgemm_aux_l2_flush)");
    rk->add_flag("--profiler-range", rk_opts->profiler_range,
                 "put each launch alone between cudaProfilerStart and cudaProfilerStop, the "
                 "preparation outside, for Nsight Compute's --replay-mode range");
    rk->add_option("--repeat", rk_opts->repeat, "launches")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();

    auto merge_opts = std::make_shared<merge_options>();
    auto* merge = app.add_subcommand(
        "merge",
        "combine profiles of one GPU model (the shards of a run, or runs on several GPUs of that "
        "model) into one, rows in the order one run writes them, each row with its provenance; "
        "refuses profiles of different GPU models (merge each model's separately), schemas or "
        "tool versions (docs/fleet.md)");
    merge->add_option("profiles", merge_opts->inputs, "profile JSON files")->required();
    merge
        ->add_option("-o,--out", merge_opts->out,
                     "the merged profile; an existing one is kept as "
                     "<stem>.previous-<date>.json")
        ->required();
    merge->add_flag("--prefer-latest", merge_opts->prefer_latest,
                    "when two profiles hold different rows for one (kernel, size), keep the one "
                    "measured later instead of refusing");

    auto fleet_opts = std::make_shared<fleet_options>();
    auto* fleet = app.add_subcommand(
        "fleet",
        "one report over measured profiles of one GPU model (several cards or nodes): each "
        "card's roofs and rungs against the median of all, cards below it by more than "
        "--margin flagged (docs/fleet.md)");
    fleet->add_option("profiles", fleet_opts->inputs, "measured profiles of one GPU model")
        ->required()
        ->expected(2, -1);
    fleet->add_option("-o,--out", fleet_opts->out, "the report (default reports/<gpu>/fleet.md)");
    fleet
        ->add_option("--margin", fleet_opts->margin_pct,
                     "flag a value this many percent below the median of the cards")
        ->check(CLI::Range(0.1, 90.0))
        ->capture_default_str();

    auto peaks_opts = std::make_shared<peaks_options>();
    auto* peaks = app.add_subcommand(
        "peaks",
        "measure this GPU's peaks with micro-benchmarks (DRAM, L2, shared memory, FP32; cuBLAS "
        "for the tensor cores) beside their theoretical values");
    peaks->add_flag("--json", peaks_opts->json, "print the peaks object as the profile stores it");

    std::string command_line = "tgemm-roofline";
    for (const auto& a : args) command_line += " " + a;

    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::CallForVersion&) {
        out << app.version() << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {
            out << app.help();
            return 0;
        }
        err << "tgemm-roofline: " << one_line(e.what()) << " (see --help)\n";
        return exit_usage;
    }

    try {
        if (*report) return run_report(*report_opts, out, err);
        if (*list) return run_list(*list_opts, out);
        if (*rk) return run_kernel_once(*rk_opts, out);
        if (*peaks) return run_peaks(*peaks_opts, out, err);
        if (*merge) return run_merge(*merge_opts, out, err);
        if (*fleet) return run_fleet(*fleet_opts, command_line, out);
        return run_main_job(*main_opts, command_line, out, err);
    } catch (const error& e) {
        err << "tgemm-roofline: " << one_line(e.what()) << "\n";
        return exit_code(e.kind());
    } catch (const std::exception& e) {
        err << "tgemm-roofline: internal error: " << one_line(e.what()) << "\n";
        return exit_failure;
    }
}

int run_main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return run(args, std::cout, std::cerr);
}

}  // namespace tgemm::cli
