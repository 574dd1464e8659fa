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

}  // namespace tgemm::render
