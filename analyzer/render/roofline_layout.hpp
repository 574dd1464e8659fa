#pragma once
// layout_roofline: analysis → scene. Decides every position, colour and word of the roofline
// plot; draws nothing.
#include <string_view>

#include "analysis/analysis.hpp"
#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

// The words a predicted profile carries in every title, legend and table.
inline constexpr std::string_view predicted_tag = "PREDICTED (no measurement)";

struct render_options {
    // The minimum canvas; it grows when the kernel table needs more room.
    double width = 1600;
    double height = 1000;
    // Text widths for label boxes. The cairo backend offers exact metrics
    // (cairo_text_width); the estimate errs on the wide side and needs no font.
    text_width_fn measure = estimate_text_width;
};

[[nodiscard]] scene layout_roofline(const analysis& a, const render_options& opts = {});

}  // namespace tgemm::render
