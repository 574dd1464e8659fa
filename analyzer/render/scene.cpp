#include "render/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tgemm::render {

double axis::fraction(double v) const {
    if (scale == scale_kind::log) {
        const double lo = std::log10(min);
        return (std::log10(v) - lo) / (std::log10(max) - lo);
    }
    return (v - min) / (max - min);
}

point plot_to_px(const rect& plot, const axis& x, const axis& y, point data) {
    return {plot.x + x.fraction(data.x) * plot.w, plot.bottom() - y.fraction(data.y) * plot.h};
}

point scene::to_px(point data) const {
    return plot_to_px(plot, x, y, data);
}

std::size_t scene::count(marker_kind kind) const {
    return static_cast<std::size_t>(std::count_if(
        markers.begin(), markers.end(), [kind](const marker& m) { return m.kind == kind; }));
}

rgb palette_colour(int index) {
    // Tableau-like hues, darkened where the original is too pale for 15 px text; twenty-two, so
    // the FP32 ladder and the tensor ladder together (20 rungs with the cuBLAS references)
    // repeat none. The first sixteen are the FP32 ladder's colours.
    static constexpr std::array<rgb, 22> colours = {{
        {0.13, 0.13, 0.13}, {0.12, 0.47, 0.71}, {0.84, 0.15, 0.16}, {0.17, 0.60, 0.17},
        {0.58, 0.40, 0.74}, {0.85, 0.42, 0.00}, {0.55, 0.34, 0.29}, {0.80, 0.28, 0.62},
        {0.06, 0.58, 0.64}, {0.55, 0.56, 0.06}, {0.25, 0.25, 0.65}, {0.62, 0.45, 0.08},
        {0.50, 0.00, 0.22}, {0.00, 0.40, 0.28}, {0.05, 0.22, 0.42}, {0.42, 0.47, 0.53},
        {0.36, 0.60, 0.00}, {0.62, 0.10, 0.80}, {0.85, 0.35, 0.35}, {0.00, 0.60, 0.85},
        {0.20, 0.66, 0.45}, {0.45, 0.40, 0.25},
    }};
    const auto n = static_cast<int>(colours.size());
    return colours[static_cast<std::size_t>(((index % n) + n) % n)];
}

rgb tone_colour(tone t, int palette_index) {
    switch (t) {
        case tone::ink:
            return {0.10, 0.10, 0.10};
        case tone::muted:
            return {0.38, 0.38, 0.38};
        case tone::warning:
            return {0.75, 0.05, 0.05};
        case tone::rung:
            return palette_colour(palette_index);
    }
    return {0, 0, 0};
}

}  // namespace tgemm::render
