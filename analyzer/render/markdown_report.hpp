#pragma once
// The markdown report: findings in plain words, the plots by relative path, the GPU and its
// roofs (theoretical and measured), how it was measured, the hierarchical roofline at the focus
// size, published figures beside a prediction, another GPU beside this one, a performance table
// per size, and model against measurement per rung and size.
#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace tgemm::render {

// A rung of the build that renders the report. The render layer cannot see the rung registry;
// the CLI passes the ladder so that the report can name the rungs a profile has no row of.
struct ladder_rung {
    std::string id;
    std::string display_name;
};

struct report_options {
    // Relative to the report, so the folder can be moved or committed as it is.
    std::string png_path = "roofline.png";
    std::string svg_path = "roofline.svg";
    // The other plots written beside the report, by file stem (.png embedded, .svg linked).
    std::string hierarchical_stem = "hierarchical-roofline";
    std::string bytes_stem = "bytes-per-level";
    std::string ai_stem = "ai-vs-size";
    std::string tflops_stem = "tflops";
    // Where the numbers came from: "profiles/h100.json", or how a prediction was made.
    std::string profile_label;
    // Another GPU's analysis to compare with (the H100 beside an H200 report), and what to
    // call it ("H100, profiles/h100.json"); no comparison section when null.
    const analysis* compare = nullptr;
    std::string compare_label;
    // This build's rungs in ladder order: each one the profile has no row of gets one line,
    // "not measured" (or "not predicted"). Empty: no such lines.
    std::vector<ladder_rung> ladder;
    // The measured profile that predicts this GPU's TFLOP/s (the H100's; docs/prediction.md),
    // and where it came from; no prediction section when null or the same GPU.
    const profile* calibration = nullptr;
    std::string calibration_label;
};

// "roofline-4096.png": the file of the DRAM roofline of one size, beside the report.
[[nodiscard]] std::string per_size_roofline(const report_options& opts, const shape& s,
                                            std::string_view extension);

// The whole report (details.md): every section, every table.
[[nodiscard]] std::string markdown_report(const analysis& a, const report_options& opts);

// The page a user opens first (report.md, issue 11): the heading, the benchmark table, the
// hierarchical roofline and the DRAM roofline, and the first finding of each rung (the roof that
// bounds it and how far below it runs), with a link to `details_path` for everything else.
[[nodiscard]] std::string summary_report(const analysis& a, const report_options& opts,
                                         const std::string& details_path);

// A compact benchmark summary for a README: a line naming the GPU, the date and the command,
// a line saying what the cells are, then a markdown table with one row per rung (ladder order:
// the profile's first-seen order) and one column per size (first-seen order); each cell is
// "TFLOP/s (% of cuBLAS)", e.g. "39.9 (77.9 %)", the bracket left out where cuBLAS was not
// timed at that size, "—" where the row was skipped or has no timing. Ends with a newline.
[[nodiscard]] std::string benchmark_table(const analysis& a);

}  // namespace tgemm::render
