#pragma once
// How wide a line of text is. The layout needs widths to keep labels apart but must not
// depend on cairo, so it takes a measuring function: the cairo backend supplies an exact one,
// and estimate_text_width is a font-table fallback that errs on the wide side.
#include <functional>
#include <string_view>

namespace tgemm::render {

// Advance width in pixels of `text` (UTF-8) set in DejaVu Sans at `font_px`.
using text_width_fn = std::function<double(std::string_view text, double font_px, bool bold)>;

[[nodiscard]] double estimate_text_width(std::string_view text, double font_px, bool bold);

// Height of a label's box for a font size: ascender to descender of DejaVu Sans, with room.
[[nodiscard]] inline double line_box_height(double font_px) {
    return 1.3 * font_px;
}

}  // namespace tgemm::render
