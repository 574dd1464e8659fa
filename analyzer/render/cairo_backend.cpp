#include "render/cairo_backend.hpp"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>

#include "core/throw.hpp"
#include "render/chart_cairo.hpp"

namespace tgemm::render {

namespace {

// ---- cairo plumbing: handles, errors, fonts, surfaces ---------------------------------------

struct surface_deleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct context_deleter {
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
struct font_options_deleter {
    void operator()(cairo_font_options_t* o) const { cairo_font_options_destroy(o); }
};
using surface_ptr = std::unique_ptr<cairo_surface_t, surface_deleter>;
using context_ptr = std::unique_ptr<cairo_t, context_deleter>;
using font_options_ptr = std::unique_ptr<cairo_font_options_t, font_options_deleter>;

constexpr const char* font_family = "DejaVu Sans";

// Runs `body` with drawing clipped to `r`.
template <class F>
void clipped(cairo_t* cr, const rect& r, F&& body) {
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    cairo_clip(cr);
    body();
    cairo_restore(cr);
}

using draw_fn = std::function<void(cairo_t*)>;

// Throws tgemm::error naming `what` unless `st` is success.
void check(cairo_status_t st, const char* what) {
    if (st != CAIRO_STATUS_SUCCESS)
        TGEMM_THROW(internal, "cairo could not {}: {}", what, cairo_status_to_string(st));
}

// A cairo write function appending to the std::string passed as closure.
cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

// Unhinted metrics, so the widths measured for the layout are the widths drawn, on every
// surface type.
void set_font(cairo_t* cr, double px, bool bold) {
    font_options_ptr fo(cairo_font_options_create());
    cairo_font_options_set_hint_metrics(fo.get(), CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo.get(), CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(cr, fo.get());
    cairo_select_font_face(cr, font_family, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, px);
}

double text_width(cairo_t* cr, const std::string& text, double px, bool bold) {
    set_font(cr, px, bold);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text.c_str(), &e);
    return std::max(e.x_advance, e.x_bearing + e.width);
}

void set_colour(cairo_t* cr, rgb c, double alpha = 1) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void set_dash(cairo_t* cr, bool dashed, double on, double off) {
    if (!dashed) {
        cairo_set_dash(cr, nullptr, 0, 0);
        return;
    }
    const double pattern[] = {on, off};
    cairo_set_dash(cr, pattern, 2, 0);
}

void fill_rect(cairo_t* cr, const rect& r, rgb c, double alpha = 1) {
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    set_colour(cr, c, alpha);
    cairo_fill(cr);
}

// One straight stroke in the current colour, width and dash.
void segment(cairo_t* cr, point a, point b) {
    cairo_move_to(cr, a.x, a.y);
    cairo_line_to(cr, b.x, b.y);
    cairo_stroke(cr);
}

// The faint diagonal stamp (PREDICTED) across a plot; nothing for an empty `text`.
void draw_watermark(cairo_t* cr, const std::string& text, const rect& plot) {
    if (text.empty()) return;
    cairo_save(cr);
    const auto c = plot.centre();
    const double angle = -std::atan2(plot.h, plot.w);
    const double diagonal = std::hypot(plot.w, plot.h);
    set_font(cr, 100, true);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text.c_str(), &e);
    // Scaled to span about 60 % of the diagonal, whatever the canvas size.
    const double px = 100 * 0.6 * diagonal / e.x_advance;
    set_font(cr, px, true);
    cairo_text_extents(cr, text.c_str(), &e);
    cairo_translate(cr, c.x, c.y);
    cairo_rotate(cr, angle);
    cairo_move_to(cr, -e.x_advance / 2, e.height / 2);
    set_colour(cr, {0.80, 0.10, 0.10}, 0.07);
    cairo_show_text(cr, text.c_str());
    cairo_restore(cr);
}

// Grid lines and frame of axes x and y over `plot`: the roofline and every chart panel share
// them, so the pictures of one report look alike.
void draw_grid(cairo_t* cr, const rect& plot, const axis& x, const axis& y) {
    cairo_set_line_width(cr, 1);
    set_dash(cr, false, 0, 0);
    // Snapped to the pixel centre, so a 1 px line stays sharp in the PNG.
    const auto vertical = [&](double v, rgb c) {
        const double px = std::round(plot_to_px(plot, x, y, {v, y.min}).x) + 0.5;
        set_colour(cr, c);
        segment(cr, {px, plot.y}, {px, plot.bottom()});
    };
    const auto horizontal = [&](double v, rgb c) {
        const double py = std::round(plot_to_px(plot, x, y, {x.min, v}).y) + 0.5;
        set_colour(cr, c);
        segment(cr, {plot.x, py}, {plot.right(), py});
    };
    const rgb minor{0.93, 0.93, 0.93};
    const rgb major{0.80, 0.80, 0.80};
    for (const double v : x.minor) vertical(v, minor);
    for (const double v : y.minor) horizontal(v, minor);
    for (const auto& t : x.major) vertical(t.value, major);
    for (const auto& t : y.major) horizontal(t.value, major);
}

void draw_frame(cairo_t* cr, const rect& plot, const axis& x, const axis& y) {
    set_colour(cr, tone_colour(tone::ink, 0));
    set_dash(cr, false, 0, 0);
    cairo_set_line_width(cr, 1.5);
    cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
    cairo_stroke(cr);
    for (const auto& t : x.major) {
        const double px = plot_to_px(plot, x, y, {t.value, y.min}).x;
        segment(cr, {px, plot.bottom()}, {px, plot.bottom() + 6});
    }
    for (const auto& t : y.major) {
        const double py = plot_to_px(plot, x, y, {x.min, t.value}).y;
        segment(cr, {plot.x - 6, py}, {plot.x, py});
    }
}

// The outline of a marker glyph of radius `r` around `c`, as a new sub-path.
void shape_path(cairo_t* cr, marker_shape g, point c, double r) {
    const auto poly = [&](std::initializer_list<point> pts) {
        bool first = true;
        for (const auto& p : pts) {
            if (first)
                cairo_move_to(cr, c.x + p.x * r, c.y + p.y * r);
            else
                cairo_line_to(cr, c.x + p.x * r, c.y + p.y * r);
            first = false;
        }
        cairo_close_path(cr);
    };
    switch (g) {
        case marker_shape::circle:
            cairo_new_sub_path(cr);
            cairo_arc(cr, c.x, c.y, r, 0, 2 * std::numbers::pi);
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

// A label at its box: horizontal, or rotated to read bottom to top; with a white backdrop
// where it asks for one.
void draw_label(cairo_t* cr, const label& l) {
    if (l.backdrop) fill_rect(cr, l.box.inflated(2), {1, 1, 1}, 0.85);
    set_font(cr, l.font_px, l.bold);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    set_colour(cr, tone_colour(l.colour_tone, l.colour));
    const double across = l.rotated ? l.box.w : l.box.h;
    const double baseline = (across - (fe.ascent + fe.descent)) / 2 + fe.ascent;
    cairo_save(cr);
    if (l.rotated) {
        cairo_translate(cr, l.box.x + baseline, l.box.bottom());
        cairo_rotate(cr, -std::numbers::pi / 2);
        cairo_move_to(cr, 0, 0);
    } else {
        cairo_move_to(cr, l.box.x, l.box.y + baseline);
    }
    cairo_show_text(cr, l.text.c_str());
    cairo_restore(cr);
}

void paint(cairo_surface_t* surface, const draw_fn& draw, const char* what) {
    check(cairo_surface_status(surface), "create a surface");
    context_ptr cr(cairo_create(surface));
    check(cairo_status(cr.get()), "create a drawing context");
    draw(cr.get());
    check(cairo_status(cr.get()), what);
}

int pixels(double v) {
    return static_cast<int>(std::ceil(v));
}

// Runs `draw` on a fresh context over a width × height canvas and returns the PNG or SVG
// bytes. `what` names the picture in error messages ("draw the roofline").
std::string paint_png(double width, double height, const draw_fn& draw, const char* what) {
    surface_ptr surface(
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixels(width), pixels(height)));
    paint(surface.get(), draw, what);
    cairo_surface_flush(surface.get());
    std::string out;
    check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &out), "write the PNG");
    return out;
}

std::string paint_svg(double width, double height, const draw_fn& draw, const char* what) {
    std::string out;
    {
        surface_ptr surface(cairo_svg_surface_create_for_stream(append_bytes, &out, width, height));
        // Pixels, as the PNG: cairo's default unit (pt) would make the SVG a third larger.
        cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
        paint(surface.get(), draw, what);
        // The SVG is complete only once the surface is finished.
        cairo_surface_finish(surface.get());
        check(cairo_surface_status(surface.get()), "write the SVG");
    }
    return out;
}

// ---- the roofline -------------------------------------------------------------------------

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

// ---- the charts ---------------------------------------------------------------------------

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

std::string render_chart_png(const chart& c) {
    return paint_png(
        c.width, c.height, [&](cairo_t* cr) { chart_painter(cr, c).draw(); }, "draw the chart");
}

std::string render_chart_svg(const chart& c) {
    return paint_svg(
        c.width, c.height, [&](cairo_t* cr) { chart_painter(cr, c).draw(); }, "draw the chart");
}

}  // namespace tgemm::render
