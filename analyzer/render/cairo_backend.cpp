#include "render/cairo_backend.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "render/cairo_common.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

class painter {
  public:
    painter(cairo_t* cr, const scene& s) : m_cr(cr), m_s(s) {}

    void draw() {
        fill_rect(m_cr, {0, 0, m_s.width, m_s.height}, {1, 1, 1});
        draw_watermark(m_cr, m_s.watermark, m_s.plot);
        draw_grid(m_cr, m_s.plot, m_s.x, m_s.y);
        clipped(m_cr, m_s.plot, [&] {
            for (const auto& r : m_s.roofs) draw_roof(r);
            for (const auto& rg : m_s.ridges) draw_ridge(rg);
            for (const auto& a : m_s.arrows) draw_arrow(a);
            // Model points under published ones under measured ones, so a measurement is
            // never hidden.
            for (const auto kind : {marker_kind::textbook, marker_kind::refined,
                                    marker_kind::published, marker_kind::measured})
                for (const auto& m : m_s.markers)
                    if (m.kind == kind) draw_marker(m);
        });
        draw_frame(m_cr, m_s.plot, m_s.x, m_s.y);
        for (const auto& sw : m_s.swatches) draw_swatch(sw);
        for (const auto& l : m_s.labels) draw_label(m_cr, l);
    }

  private:
    void draw_roof(const roof_line& r) {
        const rgb c = r.kind == roof_kind::compute ? rgb{0.20, 0.20, 0.20} : rgb{0.12, 0.25, 0.45};
        set_colour(m_cr, c);
        cairo_set_line_width(m_cr, r.dashed ? 2.5 : 3);
        set_dash(m_cr, r.dashed, 12, 7);
        segment(m_cr, m_s.to_px(r.from), m_s.to_px(r.to));
        set_dash(m_cr, false, 0, 0);
    }

    void draw_ridge(const ridge_mark& rg) {
        const auto at = m_s.to_px({rg.ai, rg.flops});
        set_colour(m_cr, tone_colour(tone::muted, 0));
        cairo_set_line_width(m_cr, 1.3);
        set_dash(m_cr, true, 2, 4);
        segment(m_cr, at, {at.x, m_s.plot.bottom()});
        set_dash(m_cr, false, 0, 0);
        cairo_arc(m_cr, at.x, at.y, 5, 0, 2 * std::numbers::pi);
        set_colour(m_cr, tone_colour(tone::ink, 0));
        cairo_fill(m_cr);
    }

    void arrow_path(point from, point to, double start_gap, double end_gap, rgb c, bool dashed,
                    double width, double head = 11) {
        const double dx = to.x - from.x;
        const double dy = to.y - from.y;
        const double len = std::hypot(dx, dy);
        // Too short to read as an arrow: the model point and the measurement coincide.
        if (len < start_gap + end_gap + 8) return;
        const double ux = dx / len;
        const double uy = dy / len;
        const point a{from.x + ux * start_gap, from.y + uy * start_gap};
        const point tip{to.x - ux * end_gap, to.y - uy * end_gap};
        const point base{tip.x - ux * head, tip.y - uy * head};
        const double half = head * 5 / 11;  // half the head's width
        set_colour(m_cr, c);
        cairo_set_line_width(m_cr, width);
        set_dash(m_cr, dashed, 6, 4);
        segment(m_cr, a, base);
        set_dash(m_cr, false, 0, 0);
        cairo_move_to(m_cr, tip.x, tip.y);
        cairo_line_to(m_cr, base.x - uy * half, base.y + ux * half);
        cairo_line_to(m_cr, base.x + uy * half, base.y - ux * half);
        cairo_close_path(m_cr);
        cairo_fill(m_cr);
    }

    void draw_arrow(const arrow& a) {
        arrow_path(m_s.to_px(a.from), m_s.to_px(a.to), a.gap_from_px, a.gap_to_px,
                   palette_colour(a.colour), a.dashed, a.width_px, a.head_px);
    }

    void glyph(marker_shape g, point c, double r, rgb colour, bool filled, bool dashed,
               bool outlined = false) {
        shape_path(m_cr, g, c, r);
        if (outlined) {
            // A published point: filled, with a thin dark outline.
            set_colour(m_cr, colour);
            cairo_fill_preserve(m_cr);
            set_colour(m_cr, tone_colour(tone::ink, 0));
            cairo_set_line_width(m_cr, 1.3);
            set_dash(m_cr, false, 0, 0);
        } else if (filled) {
            set_colour(m_cr, colour);
            cairo_fill_preserve(m_cr);
            // A thin white rim keeps overlapping filled markers apart.
            set_colour(m_cr, {1, 1, 1});
            cairo_set_line_width(m_cr, 1.2);
            set_dash(m_cr, false, 0, 0);
        } else {
            set_colour(m_cr, {1, 1, 1});
            cairo_fill_preserve(m_cr);
            set_colour(m_cr, colour);
            // Thinner on small markers, so a hollow glyph keeps its hole.
            cairo_set_line_width(m_cr, std::min(2.4, 0.35 * r));
            set_dash(m_cr, dashed, 4, 3);
        }
        cairo_stroke(m_cr);
        set_dash(m_cr, false, 0, 0);
    }

    void draw_marker(const marker& m) {
        bool outlined = false;
        switch (m.kind) {
            case marker_kind::published:
                outlined = true;
                break;
            case marker_kind::measured:
            case marker_kind::textbook:
            case marker_kind::refined:
                break;
        }
        glyph(m.glyph, m_s.to_px(m.at), m.radius_px, palette_colour(m.colour), m.filled, m.dashed,
              outlined);
    }

    void draw_swatch(const swatch& sw) {
        const rgb c = tone_colour(sw.colour_tone, sw.colour);
        switch (sw.kind) {
            case swatch_kind::marker:
                glyph(sw.glyph, sw.centre, sw.size, c, sw.filled, sw.dashed, sw.outlined);
                break;
            case swatch_kind::line:
                set_colour(m_cr, c);
                cairo_set_line_width(m_cr, 2.5);
                set_dash(m_cr, sw.dashed, 7, 4);
                segment(m_cr, {sw.centre.x - sw.size, sw.centre.y},
                        {sw.centre.x + sw.size, sw.centre.y});
                set_dash(m_cr, false, 0, 0);
                break;
            case swatch_kind::arrow:
                arrow_path({sw.centre.x - sw.size, sw.centre.y},
                           {sw.centre.x + sw.size, sw.centre.y}, 0, 0, c, sw.dashed, 1.6);
                break;
            case swatch_kind::chip:
                fill_rect(m_cr, box_around(sw.centre, sw.size), c);
                break;
        }
    }

    cairo_t* m_cr;
    const scene& m_s;
};

}  // namespace

std::string render_png(const scene& s) {
    return paint_png(
        s.width, s.height, [&](cairo_t* cr) { painter(cr, s).draw(); }, "draw the roofline");
}

std::string render_svg(const scene& s) {
    return paint_svg(
        s.width, s.height, [&](cairo_t* cr) { painter(cr, s).draw(); }, "draw the roofline");
}

text_width_fn cairo_text_width() {
    // One scratch context shared by every call of the returned function.
    struct scratch {
        surface_ptr surface{cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)};
        context_ptr cr{cairo_create(surface.get())};
    };
    auto shared = std::make_shared<scratch>();
    check(cairo_status(shared->cr.get()), "create a context to measure text");
    return [shared](std::string_view text, double font_px, bool bold) {
        return text_width(shared->cr.get(), std::string(text), font_px, bold);
    };
}

}  // namespace tgemm::render
