#pragma once
// The block beside the plot: a legend, the kernel table and the notes, laid out at the origin
// so the caller can measure it before it knows where it goes.
#include <optional>
#include <string>
#include <vector>

#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

struct legend_item {
    std::optional<swatch> glyph;  // centre is filled in by the layout
    std::string text;
};

struct panel_content {
    std::vector<legend_item> legend;
    std::string table_title;
    std::vector<std::string> table_header;  // without the glyph column
    std::vector<kernel_entry> rows;
    std::vector<std::string> notes;
};

struct panel_block {
    std::vector<label> labels;
    std::vector<swatch> swatches;
    double width = 0;
    double height = 0;
    // Moves everything by (dx, dy).
    void shift(double dx, double dy);
};

// Lays the panel out with its top-left corner at (0, 0), at least `min_width` wide; notes wrap
// to the panel's width.
[[nodiscard]] panel_block layout_panel(const panel_content& c, const text_width_fn& measure,
                                       double min_width);

}  // namespace tgemm::render
