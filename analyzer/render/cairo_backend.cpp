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
        fill_rect({0, 0, m_s.width, m_s.height}, {1, 1, 1});
        draw_watermark();
        draw_grid();
        clip_to_plot([&] {
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
        draw_frame();
        for (const auto& sw : m_s.swatches) draw_swatch(sw);
        for (const auto& l : m_s.labels) draw_label(l);
    }

  private:
    void set_colour(rgb c, double alpha = 1) { cairo_set_source_rgba(m_cr, c.r, c.g, c.b, alpha); }

    void fill_rect(const rect& r, rgb c, double alpha = 1) {
        cairo_rectangle(m_cr, r.x, r.y, r.w, r.h);
        set_colour(c, alpha);
        cairo_fill(m_cr);
    }

    void set_dash(bool dashed, double on, double off) {
        if (!dashed) {
            cairo_set_dash(m_cr, nullptr, 0, 0);
            return;
        }
        const double pattern[] = {on, off};
        cairo_set_dash(m_cr, pattern, 2, 0);
    }

    template <class F>
    void clip_to_plot(F&& body) {
        cairo_save(m_cr);
        cairo_rectangle(m_cr, m_s.plot.x, m_s.plot.y, m_s.plot.w, m_s.plot.h);
        cairo_clip(m_cr);
        body();
        cairo_restore(m_cr);
    }

    void line(point a, point b) {
        cairo_move_to(m_cr, a.x, a.y);
        cairo_line_to(m_cr, b.x, b.y);
        cairo_stroke(m_cr);
    }

    void draw_watermark() {
        if (m_s.watermark.empty()) return;
        cairo_save(m_cr);
        const auto c = m_s.plot.centre();
        const double angle = -std::atan2(m_s.plot.h, m_s.plot.w);
        const double diagonal = std::hypot(m_s.plot.w, m_s.plot.h);
        set_font(m_cr, 100, true);
        cairo_text_extents_t e;
        cairo_text_extents(m_cr, m_s.watermark.c_str(), &e);
        // Scaled to span about 60 % of the diagonal, whatever the canvas size.
        const double px = 100 * 0.6 * diagonal / e.x_advance;
        set_font(m_cr, px, true);
        cairo_text_extents(m_cr, m_s.watermark.c_str(), &e);
        cairo_translate(m_cr, c.x, c.y);
        cairo_rotate(m_cr, angle);
        cairo_move_to(m_cr, -e.x_advance / 2, e.height / 2);
        set_colour({0.80, 0.10, 0.10}, 0.07);
        cairo_show_text(m_cr, m_s.watermark.c_str());
        cairo_restore(m_cr);
    }

    void draw_grid() {
        cairo_set_line_width(m_cr, 1);
        set_dash(false, 0, 0);
        const auto vertical = [&](double v, rgb c) {
            const double x = std::round(m_s.to_px({v, m_s.y.min}).x) + 0.5;
            set_colour(c);
            line({x, m_s.plot.y}, {x, m_s.plot.bottom()});
        };
        const auto horizontal = [&](double v, rgb c) {
            const double y = std::round(m_s.to_px({m_s.x.min, v}).y) + 0.5;
            set_colour(c);
            line({m_s.plot.x, y}, {m_s.plot.right(), y});
        };
        const rgb minor{0.93, 0.93, 0.93};
        const rgb major{0.80, 0.80, 0.80};
        for (const double v : m_s.x.minor) vertical(v, minor);
        for (const double v : m_s.y.minor) horizontal(v, minor);
        for (const auto& t : m_s.x.major) vertical(t.value, major);
        for (const auto& t : m_s.y.major) horizontal(t.value, major);
    }

    void draw_frame() {
        const rgb ink = tone_colour(tone::ink, 0);
        set_colour(ink);
        set_dash(false, 0, 0);
        cairo_set_line_width(m_cr, 1.5);
        cairo_rectangle(m_cr, m_s.plot.x, m_s.plot.y, m_s.plot.w, m_s.plot.h);
        cairo_stroke(m_cr);
        for (const auto& t : m_s.x.major) {
            const double x = m_s.to_px({t.value, m_s.y.min}).x;
            line({x, m_s.plot.bottom()}, {x, m_s.plot.bottom() + 6});
        }
        for (const auto& t : m_s.y.major) {
            const double y = m_s.to_px({m_s.x.min, t.value}).y;
            line({m_s.plot.x - 6, y}, {m_s.plot.x, y});
        }
    }

    void draw_roof(const roof_line& r) {
        const rgb c = r.kind == roof_kind::compute ? rgb{0.20, 0.20, 0.20} : rgb{0.12, 0.25, 0.45};
        set_colour(c);
        cairo_set_line_width(m_cr, r.dashed ? 2.5 : 3);
        set_dash(r.dashed, 12, 7);
        line(m_s.to_px(r.from), m_s.to_px(r.to));
        set_dash(false, 0, 0);
    }

    void draw_ridge(const ridge_mark& rg) {
        const auto at = m_s.to_px({rg.ai, rg.flops});
        set_colour(tone_colour(tone::muted, 0));
        cairo_set_line_width(m_cr, 1.3);
        set_dash(true, 2, 4);
        line(at, {at.x, m_s.plot.bottom()});
        set_dash(false, 0, 0);
        cairo_arc(m_cr, at.x, at.y, 5, 0, 2 * std::numbers::pi);
        set_colour(tone_colour(tone::ink, 0));
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
        set_colour(c);
        cairo_set_line_width(m_cr, width);
        set_dash(dashed, 6, 4);
        line(a, base);
        set_dash(false, 0, 0);
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

    void shape_path(marker_shape g, point c, double r) {
        const auto poly = [&](std::initializer_list<point> pts) {
            bool first = true;
            for (const auto& p : pts) {
                if (first)
                    cairo_move_to(m_cr, c.x + p.x * r, c.y + p.y * r);
                else
                    cairo_line_to(m_cr, c.x + p.x * r, c.y + p.y * r);
                first = false;
            }
            cairo_close_path(m_cr);
        };
        switch (g) {
            case marker_shape::circle:
                cairo_new_sub_path(m_cr);
                cairo_arc(m_cr, c.x, c.y, r, 0, 2 * std::numbers::pi);
                break;
            case marker_shape::square:
                poly({{-0.88, -0.88}, {0.88, -0.88}, {0.88, 0.88}, {-0.88, 0.88}});
                break;
            case marker_shape::triangle_up:
                poly({{0, -1.2}, {1.1, 0.8}, {-1.1, 0.8}});
                break;
            case marker_shape::triangle_down:
                poly({{0, 1.2}, {1.1, -0.8}, {-1.1, -0.8}});
                break;
            case marker_shape::diamond:
                poly({{0, -1.2}, {1.2, 0}, {0, 1.2}, {-1.2, 0}});
                break;
            case marker_shape::hexagon:
                poly({{1.05, 0},
                      {0.525, -0.91},
                      {-0.525, -0.91},
                      {-1.05, 0},
                      {-0.525, 0.91},
                      {0.525, 0.91}});
                break;
        }
    }

    void glyph(marker_shape g, point c, double r, rgb colour, bool filled, bool dashed,
               bool outlined = false) {
        shape_path(g, c, r);
        if (outlined) {
            // A published point: filled, with a thin dark outline.
            set_colour(colour);
            cairo_fill_preserve(m_cr);
            set_colour(tone_colour(tone::ink, 0));
            cairo_set_line_width(m_cr, 1.3);
            set_dash(false, 0, 0);
        } else if (filled) {
            set_colour(colour);
            cairo_fill_preserve(m_cr);
            // A thin white rim keeps overlapping filled markers apart.
            set_colour({1, 1, 1});
            cairo_set_line_width(m_cr, 1.2);
            set_dash(false, 0, 0);
        } else {
            set_colour({1, 1, 1});
            cairo_fill_preserve(m_cr);
            set_colour(colour);
            // Thinner on small markers, so a hollow glyph keeps its hole.
            cairo_set_line_width(m_cr, std::min(2.4, 0.35 * r));
            set_dash(dashed, 4, 3);
        }
        cairo_stroke(m_cr);
        set_dash(false, 0, 0);
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
                set_colour(c);
                cairo_set_line_width(m_cr, 2.5);
                set_dash(sw.dashed, 7, 4);
                line({sw.centre.x - sw.size, sw.centre.y}, {sw.centre.x + sw.size, sw.centre.y});
                set_dash(false, 0, 0);
                break;
            case swatch_kind::arrow:
                arrow_path({sw.centre.x - sw.size, sw.centre.y},
                           {sw.centre.x + sw.size, sw.centre.y}, 0, 0, c, sw.dashed, 1.6);
                break;
            case swatch_kind::chip:
                fill_rect(box_around(sw.centre, sw.size), c);
                break;
        }
    }

    void draw_label(const label& l) {
        if (l.backdrop) fill_rect(l.box.inflated(2), {1, 1, 1}, 0.85);
        set_font(m_cr, l.font_px, l.bold);
        cairo_font_extents_t fe;
        cairo_font_extents(m_cr, &fe);
        set_colour(tone_colour(l.colour_tone, l.colour));
        const double across = l.rotated ? l.box.w : l.box.h;
        const double baseline = (across - (fe.ascent + fe.descent)) / 2 + fe.ascent;
        cairo_save(m_cr);
        if (l.rotated) {
            cairo_translate(m_cr, l.box.x + baseline, l.box.bottom());
            cairo_rotate(m_cr, -std::numbers::pi / 2);
            cairo_move_to(m_cr, 0, 0);
        } else {
            cairo_move_to(m_cr, l.box.x, l.box.y + baseline);
        }
        cairo_show_text(m_cr, l.text.c_str());
        cairo_restore(m_cr);
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
