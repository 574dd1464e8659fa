#include "render/chart_cairo.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>

#include "render/cairo_common.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

// How light each fill is: a wash of the rung's colour under the hatching, a stronger one for
// the refined model.
constexpr double hatched_alpha = 0.16;
constexpr double tint_alpha = 0.45;
constexpr double hatch_step = 5;

class chart_painter {
  public:
    chart_painter(cairo_t* cr, const chart& c) : m_cr(cr), m_c(c) {}

    void draw() {
        fill_rect(m_cr, {0, 0, m_c.width, m_c.height}, {1, 1, 1});
        for (std::size_t i = 0; i < m_c.panels.size(); ++i) {
            const auto& pn = m_c.panels[i];
            draw_watermark(m_cr, m_c.watermark, pn.plot);
            draw_grid(m_cr, pn.plot, pn.x, pn.y);
            clipped(m_cr, pn.plot, [&] {
                for (const auto& b : m_c.bars)
                    if (b.panel == i) draw_bar(b);
                for (const auto& l : m_c.lines)
                    if (l.panel == i) draw_line(l);
            });
            draw_frame(m_cr, pn.plot, pn.x, pn.y);
            // Markers may sit on the frame (a value at the axis's end): drawn unclipped.
            for (const auto& m : m_c.markers)
                if (m.panel == i) draw_marker(m);
        }
        for (const auto& g : m_c.legend) draw_legend_glyph(g);
        for (const auto& l : m_c.labels) draw_label(m_cr, l);
    }

  private:
    void fill_box(const rect& r, bar_fill fill, rgb c, bool dashed) {
        if (r.w <= 0 || r.h <= 0) return;
        switch (fill) {
            case bar_fill::solid:
                fill_rect(m_cr, r, c);
                return;
            case bar_fill::tint:
                fill_rect(m_cr, r, c, tint_alpha);
                break;
            case bar_fill::hatched:
                fill_rect(m_cr, r, c, hatched_alpha);
                clipped(m_cr, r, [&] {
                    set_colour(m_cr, c, 0.9);
                    set_dash(m_cr, false, 0, 0);
                    cairo_set_line_width(m_cr, 1.1);
                    // Strokes rising to the right, hatch_step apart along x.
                    for (double x = r.x - r.h; x < r.right(); x += hatch_step)
                        segment(m_cr, {x, r.bottom()}, {x + r.h, r.y});
                });
                break;
            case bar_fill::hollow:
                fill_rect(m_cr, r, {1, 1, 1});
                break;
        }
        // Outline inside the box, so neighbouring bars never merge.
        const double lw = fill == bar_fill::hollow ? 2.2 : 1.4;
        cairo_rectangle(m_cr, r.x + lw / 2, r.y + lw / 2, std::max(0.0, r.w - lw),
                        std::max(0.0, r.h - lw));
        set_colour(m_cr, c);
        cairo_set_line_width(m_cr, lw);
        set_dash(m_cr, dashed, 5, 3);
        cairo_stroke(m_cr);
        set_dash(m_cr, false, 0, 0);
    }

    void draw_bar(const chart_bar& b) {
        fill_box(b.box, b.fill, palette_colour(b.colour), b.dashed);
    }

    void draw_line(const chart_line& l) {
        if (l.points.size() < 2) return;
        set_colour(m_cr, tone_colour(l.colour_tone, l.colour));
        cairo_set_line_width(m_cr, l.width_px);
        set_dash(m_cr, l.dashed, 9, 5);
        cairo_set_line_join(m_cr, CAIRO_LINE_JOIN_ROUND);
        cairo_move_to(m_cr, l.points.front().x, l.points.front().y);
        for (std::size_t i = 1; i < l.points.size(); ++i)
            cairo_line_to(m_cr, l.points[i].x, l.points[i].y);
        cairo_stroke(m_cr);
        set_dash(m_cr, false, 0, 0);
    }

    void glyph(marker_shape g, point c, double r, rgb colour, bool filled) {
        shape_path(m_cr, g, c, r);
        set_dash(m_cr, false, 0, 0);
        if (filled) {
            set_colour(m_cr, colour);
            cairo_fill_preserve(m_cr);
            // A thin white rim keeps overlapping markers apart.
            set_colour(m_cr, {1, 1, 1});
            cairo_set_line_width(m_cr, 1.2);
        } else {
            set_colour(m_cr, {1, 1, 1});
            cairo_fill_preserve(m_cr);
            set_colour(m_cr, colour);
            cairo_set_line_width(m_cr, 2.2);
        }
        cairo_stroke(m_cr);
    }

    void draw_marker(const chart_marker& m) {
        glyph(m.glyph, m.at, m.radius_px, tone_colour(m.colour_tone, m.colour), m.filled);
    }

    void draw_legend_glyph(const legend_glyph& g) {
        const rgb c = tone_colour(g.colour_tone, g.colour);
        switch (g.kind) {
            case legend_glyph_kind::bar:
                fill_box(g.box, g.fill, c, g.dashed);
                break;
            case legend_glyph_kind::line: {
                const double y = g.box.centre().y;
                set_colour(m_cr, c);
                cairo_set_line_width(m_cr, 2.5);
                set_dash(m_cr, g.dashed, 7, 4);
                segment(m_cr, {g.box.x, y}, {g.box.right(), y});
                set_dash(m_cr, false, 0, 0);
                if (g.with_marker) glyph(g.glyph, g.box.centre(), 5, c, true);
                break;
            }
            case legend_glyph_kind::marker:
                glyph(g.glyph, g.box.centre(), g.box.h / 2 - 1, c, g.fill != bar_fill::hollow);
                break;
        }
    }

    cairo_t* m_cr;
    const chart& m_c;
};

}  // namespace

std::string render_chart_png(const chart& c) {
    return paint_png(
        c.width, c.height, [&](cairo_t* cr) { chart_painter(cr, c).draw(); }, "draw the chart");
}

std::string render_chart_svg(const chart& c) {
    return paint_svg(
        c.width, c.height, [&](cairo_t* cr) { chart_painter(cr, c).draw(); }, "draw the chart");
}

}  // namespace tgemm::render
