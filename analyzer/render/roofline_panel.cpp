#include "render/roofline_panel.hpp"

#include <algorithm>

#include "render/layout_text.hpp"

namespace tgemm::render {

namespace {

constexpr double heading_px = 17;
constexpr double body_px = 15;
constexpr double note_px = 14;
constexpr double row_h = 25;      // a 15 px line box is 19.5 px: 5 px between rows
constexpr double glyph_col = 30;  // the swatch column
constexpr double col_gap = 18;
constexpr double block_gap = 16;

label text_at(std::string text, double x, double row_top, double w, double font_px, bool bold,
              text_role role, tone t = tone::ink) {
    const double h = line_box_height(font_px);
    label l;
    l.text = std::move(text);
    l.box = {x, row_top + (row_h - h) / 2, w, h};
    l.font_px = font_px;
    l.bold = bold;
    l.role = role;
    l.colour_tone = t;
    return l;
}

// Columns after the kernel name and size hold numbers: right-aligned so digits line up.
bool numeric_column(std::size_t i) {
    return i >= 2;
}

}  // namespace

void panel_block::shift(double dx, double dy) {
    for (auto& l : labels) {
        l.box.x += dx;
        l.box.y += dy;
    }
    for (auto& s : swatches) {
        s.centre.x += dx;
        s.centre.y += dy;
    }
}

namespace {

const std::string legend_title = "Legend";

// Each column as wide as its widest cell, the header's in bold.
std::vector<double> column_widths(const panel_content& c, const text_width_fn& measure) {
    std::vector<double> col_w(c.table_header.size(), 0.0);
    for (std::size_t i = 0; i < col_w.size(); ++i) {
        col_w[i] = measure(c.table_header[i], body_px, true);
        for (const auto& r : c.rows)
            if (i < r.cells.size())
                col_w[i] = std::max(col_w[i], measure(r.cells[i], body_px, false));
    }
    return col_w;
}

double panel_width(const panel_content& c, const std::vector<double>& col_w,
                   const text_width_fn& measure, double min_width) {
    double legend_w = measure(legend_title, heading_px, true);
    for (const auto& item : c.legend)
        legend_w = std::max(legend_w, glyph_col + measure(item.text, body_px, false));
    double table_w = glyph_col;
    for (const auto w : col_w) table_w += w;
    if (!col_w.empty()) table_w += col_gap * double(col_w.size() - 1);
    return std::max({min_width, legend_w, table_w, measure(c.table_title, heading_px, true)});
}

// "Legend", then a row per item: its swatch in the glyph column, its words after it. Returns
// the y below.
double place_legend(panel_block& b, const panel_content& c, double y,
                    const text_width_fn& measure) {
    b.labels.push_back(text_at(legend_title, 0, y, measure(legend_title, heading_px, true),
                               heading_px, true, text_role::legend));
    y += row_h + 2;
    for (const auto& item : c.legend) {
        if (item.glyph) {
            auto sw = *item.glyph;
            sw.centre = {glyph_col / 2 - 2, y + row_h / 2};
            b.swatches.push_back(sw);
        }
        b.labels.push_back(text_at(item.text, glyph_col, y, measure(item.text, body_px, false),
                                   body_px, false, text_role::legend));
        y += row_h;
    }
    return y;
}

// One row of cells from the glyph column on: names left-aligned, numbers right-aligned.
void place_cells(panel_block& b, const std::vector<std::string>& cells,
                 const std::vector<double>& col_w, double y, bool header,
                 const text_width_fn& measure) {
    double x = glyph_col;
    for (std::size_t i = 0; i < col_w.size() && i < cells.size(); ++i) {
        const double w = measure(cells[i], body_px, header);
        const double left = numeric_column(i) ? x + col_w[i] - w : x;
        b.labels.push_back(text_at(cells[i], left, y, w, body_px, header,
                                   header ? text_role::table_header : text_role::table_cell,
                                   header ? tone::muted : tone::ink));
        x += col_w[i] + col_gap;
    }
}

// The table's title, its header, then a row per kernel with its marker in the rung's colour.
// Returns the y below.
double place_table(panel_block& b, const panel_content& c, const std::vector<double>& col_w,
                   double y, const text_width_fn& measure) {
    b.labels.push_back(text_at(c.table_title, 0, y, measure(c.table_title, heading_px, true),
                               heading_px, true, text_role::table_header));
    y += row_h + 2;
    place_cells(b, c.table_header, col_w, y, true, measure);
    y += row_h;
    for (const auto& r : c.rows) {
        swatch sw;
        sw.kind = swatch_kind::marker;
        sw.glyph = r.glyph;
        sw.colour_tone = tone::rung;
        sw.colour = r.colour;
        sw.filled = r.has_measured_point;
        sw.size = 7;
        sw.centre = {glyph_col / 2 - 2, y + row_h / 2};
        b.swatches.push_back(sw);
        place_cells(b, r.cells, col_w, y, false, measure);
        y += row_h;
    }
    return y;
}

}  // namespace

panel_block layout_panel(const panel_content& c, const text_width_fn& measure, double min_width) {
    const auto col_w = column_widths(c, measure);
    panel_block b;
    b.width = panel_width(c, col_w, measure, min_width);
    double y = place_legend(b, c, 0, measure);
    y = place_table(b, c, col_w, y + block_gap, measure);
    if (!c.notes.empty())
        y = place_notes(b.labels, c.notes, {0, y + block_gap / 2}, b.width, {note_px, 2, 4},
                        measure);
    b.height = y;
    return b;
}

}  // namespace tgemm::render
