#pragma once
// layout_bytes_per_level: analysis → chart. Small multiples at the focus size, one panel per
// level (DRAM, L2, L1 global loads, shared), the rungs along x in ladder order and a textbook,
// a refined and a measured bar per rung on one log byte scale shared by every panel.
#include "analysis/analysis.hpp"
#include "render/chart.hpp"

namespace tgemm::render {

[[nodiscard]] chart layout_bytes_per_level(const analysis& a, const chart_options& opts = {});

}  // namespace tgemm::render
