#pragma once
// layout_tflops: analysis → chart. One horizontal bar per rung at the focus size, in ladder
// order, labelled with its TFLOP/s (2MNK) and its share of cuBLAS, against vertical lines at
// cuBLAS and at the FP32 roof. A predicted profile gets hollow dashed bars at the bounding
// roof's FLOP/s and, where the GPU has them, the published points as filled diamonds.
#include "analysis/analysis.hpp"
#include "render/chart.hpp"

namespace tgemm::render {

[[nodiscard]] chart layout_tflops(const analysis& a, const chart_options& opts = {});

}  // namespace tgemm::render
