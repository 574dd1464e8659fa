#pragma once
// The report's "Findings": a few plain sentences per rung (its largest size, in ladder order),
// then what holds across rungs, then where the refined model misses. The reader sees which gap
// matters without reading every table.
#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace tgemm::render {

// One rung's findings: a heading ("naive at 4096³") and up to three one-sentence lines: the
// roof that bounds it and how far below it runs, then its two largest model-vs-measured gaps
// with their causes (render/gap_causes.hpp words them).
struct finding_group {
    std::string heading;
    std::vector<std::string> lines;
    std::vector<std::string> sub_lines;  // printed under the last line (the DRAM band note)
    // The summary page's line (the bound and, where it names one, the short cause); empty:
    // the first line.
    std::string summary;
};

struct findings_list {
    std::vector<finding_group> rungs;       // ladder order, each at its largest size
    std::vector<std::string> across;        // bounds, fastest rung per size, FLOP counts, roofs
    std::vector<finding_group> model_gaps;  // per rung: the largest model-vs-measured gap
    // Consecutive tensor rungs at the focus size: what each step buys, level by level
    // (render/tensor_steps.hpp).
    std::vector<finding_group> tensor_steps;
    std::vector<finding_group> fp32_steps;  // the same for the FP32 rungs
    // Later rungs that move no more bytes than an earlier one and run slower, explained by the
    // execution counters (render/tensor_steps.hpp).
    std::vector<finding_group> contradictions;
};

[[nodiscard]] findings_list findings(const analysis& a);

// The Findings section's body in markdown (no "## Findings" heading).
[[nodiscard]] std::string findings_markdown(const analysis& a);

}  // namespace tgemm::render
