#pragma once
// The roofline plot as plain data: what to draw and where, with no drawing code. The layout
// fills it from an analysis; a backend (cairo_backend) turns it into pixels or SVG. Tests read
// it directly, so every roof, marker and label the picture shows can be counted and measured.
#include <cstddef>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "render/geometry.hpp"

namespace tgemm::render {

enum class scale_kind { linear, log };

struct tick {
    double value = 0;  // in data units
    std::string label;
};

struct axis {
    std::string title;
    scale_kind scale = scale_kind::log;
    double min = 1;
    double max = 10;
    std::vector<tick> major;    // labelled (decades on a log axis)
    std::vector<double> minor;  // unlabelled grid lines
    // 0 at min, 1 at max; log axes map log10(v) linearly.
    [[nodiscard]] double fraction(double v) const;
};

// Data to pixels for axes x and y drawn over `plot` (pixel y grows downwards). The roofline
// scene and every chart panel map through this one function, so both backends draw grids alike.
[[nodiscard]] point plot_to_px(const rect& plot, const axis& x, const axis& y, point data);

enum class roof_kind { compute, memory };
enum class roof_source { theoretical, measured };

// A roof segment in data space (x = FLOP/byte, y = FLOP/s). The compute roof runs from its
// ridge to the right edge; the memory roof from the left edge up to its ridge.
struct roof_line {
    std::string key;  // "fp32", "dram", ...: the profile's peaks key
    roof_kind kind = roof_kind::compute;
    roof_source source = roof_source::theoretical;
    double value = 0;  // FLOP/s or B/s
    std::string label;
    bool dashed = true;
    point from;
    point to;
};

// Where a compute roof meets a memory roof.
struct ridge_mark {
    roof_source source = roof_source::theoretical;
    double ai = 0;     // FLOP/byte
    double flops = 0;  // FLOP/s at the ridge
    std::string text;  // "ridge 9.75 FLOP/B"
};

enum class marker_shape { circle, square, triangle_up, diamond, triangle_down, hexagon };
// measured: the counters' AI and the timed rate. textbook: the seed's AI, placed on the roof
// (the hierarchical roofline: at the same rate). refined: the refined model's AI (predicted
// profiles; in the hierarchical roofline also levels the textbook does not count, as L2).
// published: a throughput someone else measured on that GPU (analysis/published.hpp), drawn on a
// predicted profile only, at the refined model's DRAM AI: a filled diamond, outlined dark.
// The report charts (chart.hpp) name their series with the same kinds.
enum class marker_kind { measured, textbook, refined, published };

struct marker {
    std::string rung;
    shape size;
    std::string level;  // hierarchical roofline: the level's roof key ("dram", "l2", "smem")
    marker_kind kind = marker_kind::measured;
    int colour = 0;                             // palette index: one per rung
    marker_shape glyph = marker_shape::circle;  // one per size (hierarchical: per level)
    bool filled = false;
    bool dashed = false;  // outline dashed: a prediction
    point at;             // data space
    double radius_px = 9;
    double value = 0;  // published: the TFLOP/s as published (2MNK)
};

// From the model's point to where the kernel really sits (or, predicted, to the refined model).
struct arrow {
    std::string rung;
    shape size;
    point from;  // data space
    point to;
    int colour = 0;
    bool dashed = false;
    double width_px = 1.6;
    double head_px = 11;      // length of the head
    double gap_from_px = 11;  // left free at each end, for the markers it joins
    double gap_to_px = 12;
    std::string level;  // as marker::level
};

enum class text_role {
    title,
    subtitle,
    warning,
    tick,
    axis_title,
    roof,
    ridge,
    point,
    legend,
    table_header,
    table_cell,
    note,
};
enum class tone { ink, muted, warning, rung };

struct label {
    std::string text;
    rect box;  // pixel space, the whole extent of the text including descenders
    double font_px = 15;
    bool bold = false;
    text_role role = text_role::note;
    tone colour_tone = tone::ink;
    int colour = 0;         // palette index when colour_tone is rung
    bool rotated = false;   // reads bottom to top; box is the rotated extent
    bool backdrop = false;  // a white box behind it, where it sits on grid lines
};

// chip: a filled square of the rung's colour (the hierarchical roofline's kernel table).
enum class swatch_kind { marker, line, arrow, chip };

// A small legend or table glyph in pixel space.
struct swatch {
    swatch_kind kind = swatch_kind::marker;
    point centre;
    double size = 8;  // marker radius or half the line length
    marker_shape glyph = marker_shape::circle;
    tone colour_tone = tone::ink;
    int colour = 0;
    bool filled = true;
    bool dashed = false;
    bool outlined = false;  // filled, with a thin dark outline: the published marker's style
    [[nodiscard]] rect bounds() const { return box_around(centre, size + 2); }
};

// One row of the kernel table beside the plot.
struct kernel_entry {
    std::string rung;
    shape size;
    int colour = 0;
    marker_shape glyph = marker_shape::circle;
    bool has_measured_point = false;
    std::vector<std::string> cells;  // as in scene::table_header
};

// What every picture has, the roofline and each chart alike: a canvas, a title block and,
// for a predicted profile, a watermark.
struct picture {
    double width = 1600;
    double height = 1000;
    bool predicted = false;
    std::vector<std::string> title_lines;
    std::string watermark;  // drawn faintly behind each plot; empty for measured profiles
};

struct scene : picture {
    rect plot;  // the axes' box in pixels
    axis x;
    axis y;
    std::vector<roof_line> roofs;
    std::vector<ridge_mark> ridges;
    std::vector<marker> markers;
    std::vector<arrow> arrows;
    std::vector<label> labels;
    std::vector<swatch> swatches;
    std::vector<std::string> table_header;
    std::vector<kernel_entry> table;
    // Why a row has no measured point, which rows were skipped: also drawn under the table.
    std::vector<std::string> notes;

    [[nodiscard]] point to_px(point data) const;
    [[nodiscard]] std::size_t count(marker_kind kind) const;
};

struct rgb {
    double r = 0;
    double g = 0;
    double b = 0;
};

// Rung colours, chosen to stay readable as text on white; indices wrap around.
[[nodiscard]] rgb palette_colour(int index);
[[nodiscard]] rgb tone_colour(tone t, int palette_index);

}  // namespace tgemm::render
