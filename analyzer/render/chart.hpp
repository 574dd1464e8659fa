#pragma once
// The report's bar and line charts as plain data: bytes per level, AI against problem size and
// TFLOP/s against cuBLAS. A layout (bytes_chart, ai_size_chart, tflops_chart) decides every
// position, colour and word from an analysis; chart_cairo draws it. Everything is in pixels
// except the axes, which keep their data range so the backend can draw the grid. Tests count
// bars, lines and markers and check label boxes without reading pixels.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"
#include "render/geometry.hpp"
#include "render/scene.hpp"
#include "render/text_metrics.hpp"

namespace tgemm::render {

// Series names shared by the layouts and the tests.
namespace series {
inline constexpr std::string_view textbook = "textbook";
inline constexpr std::string_view refined = "refined";
inline constexpr std::string_view measured = "measured";
inline constexpr std::string_view predicted = "predicted";
inline constexpr std::string_view published = "published";
}  // namespace series

// How a bar is filled: solid (measured), tint (a light wash of the colour: the refined model),
// hatched (diagonal strokes over a paler wash: the textbook), hollow (outline only: predicted).
enum class bar_fill { solid, tint, hatched, hollow };

struct chart_bar {
    std::string rung;
    std::string series;
    std::size_t panel = 0;
    int colour = 0;  // palette index: the rung's, as on the roofline
    bar_fill fill = bar_fill::solid;
    bool dashed = false;  // outline dashed: a prediction
    double value = 0;     // in the panel's data units
    rect box;             // pixels
};

// A polyline in pixels: a rung's AI across sizes, a reference value (ridge, roof, cuBLAS).
struct chart_line {
    std::string name;    // rung id for data lines; "cuBLAS", "FP32 theoretical", "DRAM ridge"
    std::string series;  // "measured", "textbook", ... for data lines; "reference" otherwise
    std::size_t panel = 0;
    std::vector<point> points;
    tone colour_tone = tone::rung;
    int colour = 0;
    bool dashed = false;
    double width_px = 2.5;
};

struct chart_marker {
    std::string rung;
    std::string series;
    std::size_t panel = 0;
    point at;          // pixels
    double value = 0;  // data units
    marker_shape glyph = marker_shape::circle;
    tone colour_tone = tone::rung;
    int colour = 0;
    bool filled = true;
    double radius_px = 6;
};

// One set of axes. A categorical axis (rung names) is linear over [0, 1] with no ticks; its
// names are labels.
struct chart_panel {
    std::string name;  // "DRAM", "L2", ...; empty for a single-panel chart
    rect plot;         // pixels
    axis x;
    axis y;
    [[nodiscard]] point to_px(point data) const;
};

enum class legend_glyph_kind { bar, line, marker };

// A glyph of the legend, in pixels.
struct legend_glyph {
    legend_glyph_kind kind = legend_glyph_kind::bar;
    rect box;  // where it is drawn (a line runs through its middle)
    bar_fill fill = bar_fill::solid;
    marker_shape glyph = marker_shape::circle;
    bool with_marker = false;  // a line swatch with a marker at its middle
    bool dashed = false;
    tone colour_tone = tone::muted;
    int colour = 0;
};

enum class chart_kind { bytes_per_level, ai_vs_size, tflops };

struct chart {
    chart_kind kind = chart_kind::bytes_per_level;
    double width = 1600;
    double height = 1000;
    bool predicted = false;
    std::string watermark;  // drawn faintly behind each panel; empty for measured profiles
    std::vector<std::string> title_lines;
    std::vector<chart_panel> panels;
    std::vector<chart_bar> bars;
    std::vector<chart_line> lines;
    std::vector<chart_marker> markers;
    std::vector<label> labels;
    std::vector<legend_glyph> legend;
    std::vector<std::string> notes;  // also drawn, as labels of role note

    // Counts for tests; an empty `of` counts every series.
    [[nodiscard]] std::size_t count_bars(std::string_view of = {}) const;
    [[nodiscard]] std::size_t count_lines(std::string_view of = {}) const;
    [[nodiscard]] std::size_t count_markers(std::string_view of = {}) const;
    [[nodiscard]] std::size_t count_labels(text_role role) const;
};

struct chart_options {
    // The minimum canvas; a chart grows where its content needs more room.
    double width = 1600;
    double height = 1000;
    text_width_fn measure = estimate_text_width;  // cairo_text_width() for exact boxes
};

namespace detail {

// Pieces the three layouts share.
inline constexpr double chart_margin = 28;
inline constexpr double chart_title_px = 26;
inline constexpr double chart_subtitle_px = 17;
inline constexpr double chart_tick_px = 14;
inline constexpr double chart_axis_title_px = 16;
inline constexpr double chart_text_px = 14;
inline constexpr double chart_note_px = 14;

// The start every layout shares: a chart of `kind` with the profile's predicted flag, watermark
// and title lines (chart_title_lines). `layout` names the caller in the error thrown when the
// analysis has no profile.
[[nodiscard]] chart start_chart(const analysis& a, chart_kind kind, std::string_view layout,
                                std::string_view subject, std::string_view qualifier);

// "Bytes per level of NVIDIA H100 80GB HBM3 at 4096³, measured" or, for a predicted profile,
// "PREDICTED (no measurement): bytes per level of ... at 4096³"; then clocks, CUDA, driver
// (title_block, with the chart's own predicted note).
[[nodiscard]] std::vector<std::string> chart_title_lines(const profile& p, std::string_view subject,
                                                         std::string_view qualifier);

// Lays the title lines out from the top-left margin, wrapped to c.width; returns the y below
// them.
double place_titles(chart& c, const text_width_fn& measure);

// Lays the notes out, wrapped to `width`, from (x, y); returns the y below them.
double place_notes(chart& c, double x, double y, double width, const text_width_fn& measure);

// The height place_notes will take for c.notes at `width`.
[[nodiscard]] double notes_height(const chart& c, double width, const text_width_fn& measure);

// The muted "colour: kernel, as on the roofline" key at (x, y), ending a legend row.
void place_colour_key(chart& c, double x, double y, const text_width_fn& measure);

// One legend entry: a glyph and its text, left to right from (x, y); returns the x after it.
double place_legend_entry(chart& c, legend_glyph g, std::string text, double x, double y,
                          const text_width_fn& measure);

}  // namespace detail

}  // namespace tgemm::render
