#pragma once
// Draws a chart (bytes per level, AI vs size, TFLOP/s) as PNG or SVG bytes with the same
// drawing code; cairo_backend.cpp, the only file that talks to cairo, implements it. Text
// widths for the layouts come from cairo_text_width (cairo_backend.hpp).
#include <string>

#include "render/chart.hpp"

namespace tgemm::render {

[[nodiscard]] std::string render_chart_png(const chart& c);
[[nodiscard]] std::string render_chart_svg(const chart& c);

}  // namespace tgemm::render
