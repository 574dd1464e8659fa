#pragma once
// layout_ai_vs_size: analysis → chart. DRAM arithmetic intensity against N for the square sizes,
// log-log: a solid line with markers per rung for the measured AI (the refined model's for a
// predicted profile), a dashed line of the same colour for the textbook AI, and the DRAM ridge
// as a horizontal reference. Tiled rungs climb with N; naive stays flat.
#include "analysis/analysis.hpp"
#include "render/chart.hpp"

namespace tgemm::render {

[[nodiscard]] chart layout_ai_vs_size(const analysis& a, const chart_options& opts = {});

}  // namespace tgemm::render
