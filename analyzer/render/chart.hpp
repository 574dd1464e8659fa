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

// How a bar is filled: solid (measured), tint (a light wash of the colour: the refined model),
// hatched (diagonal strokes over a paler wash: the textbook), hollow (outline only: predicted).
enum class bar_fill { solid, tint, hatched, hollow };

// A bar, a data line or a marker belongs to a series of one marker_kind, as on the roofline:
// where its value comes from. A predicted profile's refined-model values are its prediction.
struct chart_bar {
    std::string rung;
    marker_kind kind = marker_kind::measured;
    std::size_t panel = 0;
    int colour = 0;  // palette index: the rung's, as on the roofline
    bar_fill fill = bar_fill::solid;
    bool dashed = false;  // outline dashed: a prediction
    double value = 0;     // in the panel's data units
    rect box;             // pixels
};

// series: a rung's values across sizes. reference: a value to read the data against (a ridge,
// a roof, cuBLAS), an annotation rather than data.
enum class line_role { series, reference };

// A polyline in pixels: a rung's AI across sizes, a reference value (ridge, roof, cuBLAS).
struct chart_line {
    std::string name;  // rung id for a series; "cuBLAS", "FP32 theoretical", "DRAM ridge"
    line_role role = line_role::series;
    marker_kind kind = marker_kind::measured;  // a series' kind; unused for a reference
    std::size_t panel = 0;
    std::vector<point> points;
    tone colour_tone = tone::rung;
    int colour = 0;
    bool dashed = false;
    double width_px = 2.5;
};

struct chart_marker {
    std::string rung;
    marker_kind kind = marker_kind::measured;
    std::size_t panel = 0;
    point at;          // pixels
    double value = 0;  // data units
    marker_shape glyph = marker_shape::circle;
    tone colour_tone = tone::rung;
    int colour = 0;
    bool filled = true;
    double radius_px = 6;
};

// A value the data is read against (cuBLAS, the FP32 roof, the DRAM ridge), as a chart declares
// it: a line straight across the panel, and the words that name it.
struct reference_line {
    std::string name;  // chart_line::name
    double value = 0;  // data units, on the axis the line crosses
    tone colour_tone = tone::muted;
    bool dashed = false;
    double width_px = 2.6;
    std::string text;  // the label
    text_role role = text_role::roof;
    bool bold = false;
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

struct chart : picture {
    chart_kind kind = chart_kind::bytes_per_level;
    std::vector<chart_panel> panels;
    std::vector<chart_bar> bars;
    std::vector<chart_line> lines;
    std::vector<chart_marker> markers;
    std::vector<label> labels;
    std::vector<legend_glyph> legend;
    std::vector<std::string> notes;  // also drawn, as labels of role note

    // Counts for tests: every element, or those of one series kind (lines: one role).
    [[nodiscard]] std::size_t count_bars() const { return bars.size(); }
    [[nodiscard]] std::size_t count_bars(marker_kind of) const;
    [[nodiscard]] std::size_t count_lines() const { return lines.size(); }
    [[nodiscard]] std::size_t count_lines(marker_kind of) const;  // series lines only
    [[nodiscard]] std::size_t count_lines(line_role of) const;
    [[nodiscard]] std::size_t count_markers() const { return markers.size(); }
    [[nodiscard]] std::size_t count_markers(marker_kind of) const;
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

// The start every layout shares: a chart of `kind` with the profile's predicted flag, watermark
// and title lines: "Bytes per level of NVIDIA H100 80GB HBM3 at 4096³, measured" or, for a
// predicted profile, "PREDICTED (no measurement): bytes per level of ... at 4096³"; then
// clocks, CUDA, driver (title_block, with the charts' own predicted note). `layout` names the
// caller in the error thrown when the analysis has no profile.
[[nodiscard]] chart start_chart(const analysis& a, chart_kind kind, std::string_view layout,
                                std::string_view subject, std::string_view qualifier);

// The height under a plot for its x tick labels and axis title, and the gap before the notes.
[[nodiscard]] inline double x_axis_band() {
    return line_box_height(chart_tick_px) + 10 + line_box_height(chart_axis_title_px) + 16;
}

// The line of `r` across panel `panel` of `c`: vertical at x = r.value where `vertical`, else
// horizontal at y = r.value. Appended to c.lines; returns its position in pixels along the
// axis it marks.
double add_reference_line(chart& c, std::size_t panel, const reference_line& r, bool vertical);

// The label of `r`, sized; the caller places it.
[[nodiscard]] label reference_label(const reference_line& r, const text_width_fn& measure);

// Lays the title lines out from the top-left margin, wrapped to c.width; returns the y below
// them.
double place_titles(chart& c, const text_width_fn& measure);

}  // namespace detail

}  // namespace tgemm::render
