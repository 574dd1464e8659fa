#include "render/chart_legend.hpp"

#include <algorithm>

#include "render/layout_text.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

constexpr double text_gap = 8;    // a glyph to its words
constexpr double entry_gap = 26;  // an entry's words to the next entry in a row
constexpr double column_row = 24;
constexpr double group_gap = 12;

double glyph_width(const legend_glyph& g) {
    return g.kind == legend_glyph_kind::marker ? 14 : 30;
}

// One entry, its glyph (if any) then its words, left to right from (x, y); returns the x after
// it.
double place_entry(chart& c, const legend_entry& e, double x, double y,
                   const text_width_fn& measure) {
    double text_x = x;
    if (e.glyph) {
        auto g = *e.glyph;
        const double w = glyph_width(g);
        const double h = 14;
        g.box = {x, y + (line_box_height(chart_text_px) - h) / 2, w, h};
        c.legend.push_back(g);
        text_x = x + w + text_gap;
    }
    auto l = make_label(e.text, chart_text_px, false, text_role::legend, measure);
    l.colour_tone = e.text_tone;
    l.colour = e.text_colour;
    l.box.x = text_x;
    l.box.y = y;
    const double after = l.box.right() + entry_gap;
    c.labels.push_back(std::move(l));
    return after;
}

}  // namespace

double place_legend_row(chart& c, const std::vector<legend_entry>& entries, double y,
                        double gap_below, const text_width_fn& measure) {
    double x = chart_margin;
    for (const auto& e : entries) x = place_entry(c, e, x, y, measure);
    auto key = make_label("colour: kernel, as on the roofline", chart_text_px, false,
                          text_role::legend, measure);
    key.colour_tone = tone::muted;
    key.box.x = x;
    key.box.y = y;
    c.labels.push_back(std::move(key));
    return y + (line_box_height(chart_text_px) + gap_below);
}

double legend_column::width(const text_width_fn& measure) const {
    double w = measure(heading, chart_axis_title_px, true);
    for (const auto& group : groups)
        for (const auto& e : group)
            w = std::max(w, (e.glyph ? glyph_width(*e.glyph) + text_gap : 0.0) +
                                measure(e.text, chart_text_px, false));
    return w;
}

double legend_column::height() const {
    std::size_t entries = 0;
    for (const auto& group : groups) entries += group.size();
    const double gaps = groups.empty() ? 0.0 : group_gap * static_cast<double>(groups.size() - 1);
    return line_box_height(chart_axis_title_px) + 8 + static_cast<double>(entries) * column_row +
           gaps;
}

void place_legend_column(chart& c, const legend_column& legend, double x, double y,
                         const text_width_fn& measure) {
    auto h = make_label(legend.heading, chart_axis_title_px, true, text_role::legend, measure);
    h.box.x = x;
    h.box.y = y;
    y += h.box.h + 8;
    c.labels.push_back(std::move(h));
    for (std::size_t i = 0; i < legend.groups.size(); ++i) {
        if (i > 0) y += group_gap;
        for (const auto& e : legend.groups[i]) {
            place_entry(c, e, x, y, measure);
            y += column_row;
        }
    }
}

}  // namespace tgemm::render
