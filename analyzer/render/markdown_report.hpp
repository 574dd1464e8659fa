#pragma once
// The markdown report: what was measured and how, a performance table per size, model against
// measurement per rung and size, findings in plain words, and the plot by relative path.
#include <string>

#include "model/analysis.hpp"

namespace tgemm::render {

struct report_options {
    // Relative to the report, so the folder can be moved or committed as it is.
    std::string png_path = "roofline.png";
    std::string svg_path = "roofline.svg";
    // Where the numbers came from: "profiles/h100.json", or how a prediction was made.
    std::string profile_label;
};

[[nodiscard]] std::string markdown_report(const analysis& a, const report_options& opts);

// A compact benchmark summary for a README: a line naming the GPU, the date and the command,
// a line saying what the cells are, then a markdown table with one row per rung (ladder order:
// the profile's first-seen order) and one column per size (first-seen order); each cell is
// "TFLOP/s (% of cuBLAS)", e.g. "39.9 (77.9 %)", the bracket left out where cuBLAS was not
// timed at that size, "—" where the row was skipped or has no timing. Ends with a newline.
[[nodiscard]] std::string benchmark_table(const analysis& a);

}  // namespace tgemm::render
