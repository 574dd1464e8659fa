#pragma once
// layout_hierarchical_roofline: analysis → scene for the hierarchical roofline at one size
// (analysis::focus_size). Memory roofs for DRAM, L2 and shared memory, compute roofs for FP32
// (and the tensor roofs the rows use); for each rung one marker per level of
// row_analysis::hierarchy, the model's AI hollow, joined by an arrow to where the kernel sits.
#include <string_view>

#include "analysis/analysis.hpp"
#include "render/roofline_layout.hpp"
#include "render/scene.hpp"

namespace tgemm::render {

// The marker shape of a memory level: circle DRAM, square L2, triangle shared; a diamond for a
// level this plot does not know.
[[nodiscard]] marker_shape level_glyph(std::string_view roof_key);

// Throws error_kind::input when the analysis has no row to plot or no FP32 roof.
[[nodiscard]] scene layout_hierarchical_roofline(const analysis& a,
                                                 const render_options& opts = {});

}  // namespace tgemm::render
