// The layout pieces every plot shares: axis labels, chart legends, title blocks and notes. A
// measure of 10 px per byte keeps every expected position a sum to do by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render/axis_labels.hpp"
#include "render/chart_legend.hpp"
#include "render/layout_text.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {
namespace {

double ten_per_byte(std::string_view text, double, bool) {
    return 10.0 * static_cast<double>(text.size());
}

const text_width_fn measure = ten_per_byte;

// ---- axis labels --------------------------------------------------------------------------

TEST(axis_labels, ticks_and_titles_in_order_around_the_plot) {
    const rect plot{100, 50, 400, 300};
    const auto x = make_linear_axis("x title", 40);  // 0, 5, ..., 40: nine ticks
    const auto y = make_log_axis("y", 1, 100, 0);    // 1, 10, 100
    ASSERT_EQ(x.major.size(), 9u);
    axis_label_style style;
    style.y_title_left = 20;
    std::vector<label> out;
    place_axis_labels(out, plot, x, y, style, measure);
    ASSERT_EQ(out.size(), 9u + 3 + 2);
    // The x ticks first, centred under their value: "20" (20 px wide) at 200 of 400.
    const auto& mid = out[4];
    EXPECT_EQ(mid.text, "20");
    EXPECT_EQ(mid.role, text_role::tick);
    EXPECT_DOUBLE_EQ(mid.box.x, 100 + 200 - 10);
    EXPECT_DOUBLE_EQ(mid.box.y, 350 + 8);
    // Then the y ticks, right-aligned 10 px left of the plot, centred on their value.
    const auto& ten = out[10];
    EXPECT_EQ(ten.text, "10");
    EXPECT_DOUBLE_EQ(ten.box.right(), 100 - 10);
    EXPECT_DOUBLE_EQ(ten.box.centre().y, 50 + 150);
    // The x title under the tick labels, the y title rotated along the plot.
    const auto& xt = out[12];
    EXPECT_EQ(xt.role, text_role::axis_title);
    EXPECT_DOUBLE_EQ(xt.box.x, 100 + (400 - 70) / 2.0);
    EXPECT_DOUBLE_EQ(xt.box.y, 350 + 8 + line_box_height(14) + 6);
    const auto& yt = out[13];
    EXPECT_TRUE(yt.rotated);
    EXPECT_DOUBLE_EQ(yt.box.x, 20);
    EXPECT_DOUBLE_EQ(yt.box.w, line_box_height(16));
    EXPECT_DOUBLE_EQ(yt.box.h, 10);
    EXPECT_DOUBLE_EQ(yt.box.centre().y, 50 + 150);
}

TEST(axis_labels, titles_left_out_where_asked_empty_or_too_long) {
    const rect plot{100, 50, 400, 30};
    const auto x = make_linear_axis("", 40);
    const auto y = make_log_axis("a title longer than the plot", 1, 10, 0);
    axis_label_style style;
    style.y_title_left = 20;
    std::vector<label> out;
    place_axis_labels(out, plot, x, y, style, measure);
    // Nine x ticks and two y ticks; no x title (empty), no y title (280 px along a 30 px plot).
    EXPECT_EQ(out.size(), 11u);
    const auto named = make_linear_axis("x", 40);
    style.x_title = false;
    style.y_title_left.reset();
    out.clear();
    place_axis_labels(out, plot, named, y, style, measure);
    EXPECT_EQ(out.size(), 11u);
}

// ---- chart legends ------------------------------------------------------------------------

TEST(chart_legend, row_sets_entries_left_to_right_then_the_colour_key) {
    chart c;
    legend_glyph bar;
    legend_glyph dot;
    dot.kind = legend_glyph_kind::marker;
    const double below = place_legend_row(
        c, {{bar, "bars"}, {dot, "dots"}, {std::nullopt, "– none"}}, 100, 10, measure);
    EXPECT_DOUBLE_EQ(below, 100 + (line_box_height(14) + 10));
    ASSERT_EQ(c.legend.size(), 2u);
    ASSERT_EQ(c.labels.size(), 4u);
    // A bar glyph is 30 px wide, a marker 14; words 8 px after the glyph, 26 px to the next.
    EXPECT_DOUBLE_EQ(c.legend[0].box.x, detail::chart_margin);
    EXPECT_DOUBLE_EQ(c.legend[0].box.w, 30);
    EXPECT_DOUBLE_EQ(c.labels[0].box.x, detail::chart_margin + 30 + 8);
    const double second = detail::chart_margin + 30 + 8 + 40 + 26;
    EXPECT_DOUBLE_EQ(c.legend[1].box.x, second);
    EXPECT_DOUBLE_EQ(c.legend[1].box.w, 14);
    EXPECT_DOUBLE_EQ(c.labels[1].box.x, second + 14 + 8);
    // Words alone start where the entry starts.
    EXPECT_DOUBLE_EQ(c.labels[2].box.x, second + 14 + 8 + 40 + 26);
    EXPECT_EQ(c.labels[3].text, "colour: kernel, as on the roofline");
    EXPECT_EQ(c.labels[3].colour_tone, tone::muted);
    for (const auto& l : c.labels) EXPECT_DOUBLE_EQ(l.box.y, 100);
}

TEST(chart_legend, column_groups_rows_under_a_heading) {
    legend_glyph line;
    line.kind = legend_glyph_kind::line;
    const legend_column col{"Kernels",
                            {{{line, "naive", tone::rung, 3}, {line, "cublas", tone::rung, 1}},
                             {{line, "dashed: textbook"}}}};
    // The widest: a 30 px glyph, 8 px, then 16 bytes of words.
    EXPECT_DOUBLE_EQ(col.width(measure), 30 + 8 + 160);
    EXPECT_DOUBLE_EQ(col.height(), line_box_height(16) + 8 + 3 * 24 + 12);
    chart c;
    place_legend_column(c, col, 500, 60, measure);
    ASSERT_EQ(c.labels.size(), 4u);
    ASSERT_EQ(c.legend.size(), 3u);
    EXPECT_EQ(c.labels[0].text, "Kernels");
    EXPECT_TRUE(c.labels[0].bold);
    const double first = 60 + line_box_height(16) + 8;
    EXPECT_DOUBLE_EQ(c.labels[1].box.y, first);
    EXPECT_EQ(c.labels[1].colour_tone, tone::rung);
    EXPECT_EQ(c.labels[1].colour, 3);
    EXPECT_DOUBLE_EQ(c.labels[2].box.y, first + 24);
    // The second group 12 px further down.
    EXPECT_DOUBLE_EQ(c.labels[3].box.y, first + 2 * 24 + 12);
    EXPECT_EQ(c.labels[3].colour_tone, tone::ink);
    for (const auto& g : c.legend) EXPECT_DOUBLE_EQ(g.box.x, 500);
}

// ---- reference lines -----------------------------------------------------------------------

TEST(reference_line, crosses_its_panel_at_its_value) {
    chart c;
    chart_panel pn;
    pn.plot = {100, 50, 400, 300};
    pn.x = make_linear_axis("x", 40);  // 0 to 40
    pn.y = make_log_axis("y", 1, 100, 0);
    c.panels = {pn, pn};
    const reference_line r{.name = "ridge", .value = 10, .dashed = true, .text = "ridge 10"};
    // Vertical at x = 10: a quarter of the way across panel 1.
    EXPECT_DOUBLE_EQ(detail::add_reference_line(c, 1, r, true), 200);
    // Horizontal at y = 10: half way up.
    EXPECT_DOUBLE_EQ(detail::add_reference_line(c, 0, r, false), 200);
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.count_lines(line_role::reference), 2u);
    EXPECT_EQ(c.count_lines(marker_kind::measured), 0u);
    const auto& v = c.lines[0];
    EXPECT_EQ(v.panel, 1u);
    EXPECT_TRUE(v.dashed);
    ASSERT_EQ(v.points.size(), 2u);
    EXPECT_DOUBLE_EQ(v.points[0].y, 50);
    EXPECT_DOUBLE_EQ(v.points[1].y, 350);
    const auto& h = c.lines[1];
    EXPECT_DOUBLE_EQ(h.points[0].x, 100);
    EXPECT_DOUBLE_EQ(h.points[1].x, 500);
    const auto l = detail::reference_label(r, measure);
    EXPECT_EQ(l.text, "ridge 10");
    EXPECT_DOUBLE_EQ(l.box.w, 80);
    EXPECT_EQ(l.role, text_role::roof);
    EXPECT_EQ(l.colour_tone, tone::muted);
}

// ---- titles and notes ---------------------------------------------------------------------

TEST(layout_text, title_block_marks_a_prediction) {
    const std::vector<std::string> lines = {"PREDICTED: roofline", "SM clock", "nothing measured"};
    std::vector<label> out;
    title_style style;
    style.line_gap = 6;
    style.after_title = 0;
    style.bold_warning = true;
    const double below = place_title_block(out, lines, true, {28, 28}, style, measure);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].role, text_role::title);
    EXPECT_EQ(out[0].colour_tone, tone::warning);
    EXPECT_EQ(out[1].role, text_role::subtitle);
    EXPECT_EQ(out[1].colour_tone, tone::muted);
    EXPECT_EQ(out[2].role, text_role::warning);
    EXPECT_TRUE(out[2].bold);
    EXPECT_DOUBLE_EQ(out[1].box.y, 28 + (line_box_height(26) + 6));
    EXPECT_DOUBLE_EQ(below, out[2].box.bottom() + 6);
    // Measured: two lines, the title in ink; wrapped to 100 px, "SM clock" stays one line.
    out.clear();
    title_style wrapped;
    wrapped.wrap_width = 100;
    place_title_block(out, {"Roofline of GPU", "SM clock"}, false, {28, 28}, wrapped, measure);
    ASSERT_EQ(out.size(), 3u);  // "Roofline of" (110 px) does not fit: three lines
    EXPECT_EQ(out[0].text, "Roofline");
    EXPECT_EQ(out[1].text, "of GPU");
    EXPECT_EQ(out[0].colour_tone, tone::ink);
    EXPECT_DOUBLE_EQ(out[2].box.y, 28 + 2 * (line_box_height(26) + 2) + 4);
}

TEST(layout_text, notes_height_is_what_place_notes_takes) {
    const std::vector<std::string> notes = {"one two three four", "five"};
    const notes_style style{14, 2, 4};
    std::vector<label> out;
    const double below = place_notes(out, notes, {10, 100}, 100, style, measure);
    // "one two three" is 130 px, "three four" exactly 100: the first note takes two lines.
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].text, "one two");
    EXPECT_EQ(out[1].text, "three four");
    EXPECT_DOUBLE_EQ(out[2].box.y, 100 + 2 * (line_box_height(14) + 2) + 4);
    EXPECT_EQ(out[0].colour_tone, tone::muted);
    EXPECT_EQ(out[0].role, text_role::note);
    EXPECT_DOUBLE_EQ(below - 100, notes_height(notes, 100, style, measure));
    EXPECT_DOUBLE_EQ(below - 100, 3 * (line_box_height(14) + 2) + 2 * 4);
}

}  // namespace
}  // namespace tgemm::render
