#pragma once
// Tick labels and axis titles around a plot box. The roofline and every chart panel set their
// axes' words with this one function; each says only how large and how far from the plot.
#include <optional>
#include <vector>

#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

struct axis_label_style {
    double tick_px = 14;
    double title_px = 16;
    double x_tick_gap = 8;   // the plot's bottom edge to the x tick labels
    double y_tick_gap = 10;  // the y tick labels' right end to the plot's left edge
    double x_title_gap = 6;  // the x tick labels to the x title
    // False where the x axis is named another way (the bytes chart's rung names).
    bool x_title = true;
    // The left edge of the y title, which reads bottom to top; none: no y title.
    std::optional<double> y_title_left;
};

// Appends to `out`, in this order: each x tick's label centred under it, each y tick's label
// right-aligned left of it, the x title centred under the tick labels, and the y title centred
// along the plot's height. An empty title, or a y title longer than the plot is high, is left
// out.
void place_axis_labels(std::vector<label>& out, const rect& plot, const axis& x, const axis& y,
                       const axis_label_style& style, const text_width_fn& measure);

}  // namespace tgemm::render
