#pragma once
// Cairo plumbing shared by the roofline backend (cairo_backend) and the chart backend
// (chart_cairo): owning handles, error checks, the font and exact text widths, the drawing both
// pictures have in common (grid, frame, watermark, marker outlines, labels) and the two output
// surfaces. Only the render backends include this header.
#include <cairo.h>

#include <functional>
#include <memory>
#include <string>

#include "render/scene.hpp"

namespace tgemm::render::detail {

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

inline constexpr const char* font_family = "DejaVu Sans";

// Throws tgemm::error naming `what` unless `st` is success.
void check(cairo_status_t st, const char* what);

// A cairo write function appending to the std::string passed as closure.
cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length);

// Unhinted metrics, so the widths measured for the layout are the widths drawn, on every
// surface type.
void set_font(cairo_t* cr, double px, bool bold);
[[nodiscard]] double text_width(cairo_t* cr, const std::string& text, double px, bool bold);

void set_colour(cairo_t* cr, rgb c, double alpha = 1);
void set_dash(cairo_t* cr, bool dashed, double on, double off);
void fill_rect(cairo_t* cr, const rect& r, rgb c, double alpha = 1);

// One straight stroke in the current colour, width and dash.
void segment(cairo_t* cr, point a, point b);

// Runs `body` with drawing clipped to `r`.
template <class F>
void clipped(cairo_t* cr, const rect& r, F&& body) {
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    cairo_clip(cr);
    body();
    cairo_restore(cr);
}

// The faint diagonal stamp (PREDICTED) across a plot; nothing for an empty `text`.
void draw_watermark(cairo_t* cr, const std::string& text, const rect& plot);

// Grid lines and frame of axes x and y over `plot`: the roofline and every chart panel share
// them, so the pictures of one report look alike.
void draw_grid(cairo_t* cr, const rect& plot, const axis& x, const axis& y);
void draw_frame(cairo_t* cr, const rect& plot, const axis& x, const axis& y);

// The outline of a marker glyph of radius `r` around `c`, as a new sub-path.
void shape_path(cairo_t* cr, marker_shape g, point c, double r);

// A label at its box: horizontal, or rotated to read bottom to top; with a white backdrop
// where it asks for one.
void draw_label(cairo_t* cr, const label& l);

// Runs `draw` on a fresh context over a width × height canvas and returns the PNG or SVG
// bytes. `what` names the picture in error messages ("draw the roofline").
using draw_fn = std::function<void(cairo_t*)>;
[[nodiscard]] std::string paint_png(double width, double height, const draw_fn& draw,
                                    const char* what);
[[nodiscard]] std::string paint_svg(double width, double height, const draw_fn& draw,
                                    const char* what);

}  // namespace tgemm::render::detail
