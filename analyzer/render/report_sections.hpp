#pragma once
// Sections of the markdown report that stand on their own: the plots, the peaks table, the
// hierarchical roofline table, published figures beside a prediction and the comparison of two
// GPUs. Each returns its markdown, heading included, so each can be tested alone.
#include <string>
#include <string_view>

#include "analysis/analysis.hpp"
#include "render/markdown_report.hpp"

namespace tgemm::render {

// "## Plots": every plot of the report folder, embedded by relative path with a one-line
// caption and a link to its SVG.
[[nodiscard]] std::string plots_section(const analysis& a, const report_options& o);

// "## GPU and peaks": the GPU, then every roof of profile::peaks: theoretical (and how it was
// derived), theoretical at the measured clock, measured, measured / reference, the clock, how
// it was measured, the note. A measured value more than 3 % above its reference with no note
// gets a bold warning. Without any measured roof, one line says so instead of those columns.
[[nodiscard]] std::string peaks_section(const analysis& a);

// "## Hierarchical roofline at 4096³": per rung at the focus size, per level (DRAM, L2,
// shared) the bytes by textbook, refined model and counters, their AIs, the level's roof and
// the FLOP/s it allows; the bounding roof marked. Empty when the analysis has no rows.
[[nodiscard]] std::string hierarchy_section(const analysis& a);

// The TFLOP/s a rung's bounding roof allows in the 2MNK convention of TFLOP/s columns:
// bound_attainable × useful / executed FLOPs.
[[nodiscard]] std::optional<double> predicted_tflops(const row_analysis& r);

// "## Published measurements beside the prediction": for a predicted profile, every published
// point for the GPU (analysis/published.hpp) beside the predicted roof of the same rung and size.
// Empty for a measured profile.
[[nodiscard]] std::string published_section(const analysis& a);

// "## <this GPU> against <other>": TFLOP/s on both GPUs for the rungs and sizes both have,
// the DRAM and FP32 roof ratios, and per class of rung (its bound on the other GPU) which
// rungs followed the DRAM ratio and which the FP32 ratio.
[[nodiscard]] std::string gpu_comparison_section(const analysis& a, const analysis& other,
                                                 std::string_view other_label);

}  // namespace tgemm::render
