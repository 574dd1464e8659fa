#pragma once
// The charts' legends: each chart declares its entries (a glyph and its words); a row under
// the title (bytes per level, TFLOP/s) or a column beside the plot (AI vs size) sets them.
#include <optional>
#include <string>
#include <vector>

#include "render/chart.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

struct legend_entry {
    std::optional<legend_glyph> glyph;  // none: the words alone ("– no value")
    std::string text;
    tone text_tone = tone::ink;
    int text_colour = 0;
};

// Entries left to right from the left margin at `y`, then the muted "colour: kernel, as on the
// roofline" key. Returns the y `gap_below` under the row.
double place_legend_row(chart& c, const std::vector<legend_entry>& entries, double y,
                        double gap_below, const text_width_fn& measure);

// A bold heading over groups of entries, one entry a row, a gap between the groups.
struct legend_column {
    std::string heading;
    std::vector<std::vector<legend_entry>> groups;

    [[nodiscard]] double width(const text_width_fn& measure) const;
    [[nodiscard]] double height() const;
};

// Sets the column with its top-left corner at (x, y).
void place_legend_column(chart& c, const legend_column& legend, double x, double y,
                         const text_width_fn& measure);

}  // namespace tgemm::render
