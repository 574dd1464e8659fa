#pragma once
// The only code that talks to cairo (cairo_backend.cpp): draws a roofline scene, or a chart
// (chart_cairo.hpp), as PNG or SVG bytes with the same drawing code, and measures text for the
// layouts. Layouts build plain data (scene.hpp, chart.hpp) and never draw.
#include <string>

#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

[[nodiscard]] std::string render_png(const scene& s);
[[nodiscard]] std::string render_svg(const scene& s);

// Exact widths of DejaVu Sans as cairo sets it, for render_options::measure.
[[nodiscard]] text_width_fn cairo_text_width();

}  // namespace tgemm::render
