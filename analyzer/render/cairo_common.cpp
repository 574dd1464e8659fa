#include "render/cairo_common.hpp"

#include <cairo-svg.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/throw.hpp"

namespace tgemm::render::detail {

void check(cairo_status_t st, const char* what) {
    if (st != CAIRO_STATUS_SUCCESS)
        TGEMM_THROW(internal, "cairo could not {}: {}", what, cairo_status_to_string(st));
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

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

void set_colour(cairo_t* cr, rgb c, double alpha) {
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

void fill_rect(cairo_t* cr, const rect& r, rgb c, double alpha) {
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    set_colour(cr, c, alpha);
    cairo_fill(cr);
}

void segment(cairo_t* cr, point a, point b) {
    cairo_move_to(cr, a.x, a.y);
    cairo_line_to(cr, b.x, b.y);
    cairo_stroke(cr);
}

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

namespace {

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

}  // namespace

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

}  // namespace tgemm::render::detail
