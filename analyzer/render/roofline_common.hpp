#pragma once
// What the two roofline layouts share: the DRAM roofline across sizes (layout_roofline) and
// the hierarchical roofline at one size (layout_hierarchical_roofline). Which roofs to draw
// and where their segments run, the axes, the title, the frame around the plot (canvas, the
// panel beside it, ticks and axis titles), markers and arrows, and the published points.
// Labels inside the plot: roofline_labels.hpp.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"
#include "render/layout_text.hpp"
#include "render/names.hpp"
#include "render/roofline_labels.hpp"  // the labels inside the plot, declared here before
#include "render/roofline_layout.hpp"
#include "render/roofline_panel.hpp"
#include "render/scene.hpp"

namespace tgemm::render {

// One roof to draw, before it becomes a segment.
struct roof_spec {
    std::string key;   // the profile's peaks key
    std::string name;  // roof_name(key)
    roof_kind kind = roof_kind::compute;
    roof_source source = roof_source::theoretical;
    double value = 0;  // FLOP/s or B/s
};

// The tensor roof a row of `dtype` runs under ("tf32" → "tensor_tf32", "fp16" → "tensor_fp16",
// "bf16" → "tensor_bf16"); empty for fp32 and anything unknown.
[[nodiscard]] std::string_view tensor_roof_key(std::string_view dtype);

// Compute roofs first: FP32, then the tensor roof of each non-fp32 dtype the rows use where the
// profile has it (a bf16 row falls back to tensor_fp16); tensor roofs of one value and source
// are one line named for both types ("FP16/BF16 tensor"). Then the memory roofs of
// `memory_keys` the profile has, in that order. Each roof theoretical, then measured where the
// profile has a measured value. Throws when the profile has no FP32 roof.
[[nodiscard]] std::vector<roof_spec> collect_roofs(const analysis& a,
                                                   std::span<const std::string_view> memory_keys);

[[nodiscard]] bool any_measured(const std::vector<roof_spec>& rs);

// The bandwidths a compute roof of `source` meets: one per memory level, that level's roof of
// `source` where there is one, else its theoretical roof.
[[nodiscard]] std::vector<double> bandwidths_for(const std::vector<roof_spec>& rs,
                                                 roof_source source);
// The highest of bandwidths_for: where a compute roof of `source` starts.
[[nodiscard]] double ridge_bandwidth(const std::vector<roof_spec>& rs, roof_source source);
// The highest compute roof a memory roof of `source` climbs to (measured ones where any were
// measured, else theoretical).
[[nodiscard]] double top_compute(const std::vector<roof_spec>& rs, roof_source source);

// "FP32 peak 66.9 TFLOP/s (theoretical)", "DRAM 3.35 TB/s (theoretical)", "L2 measured
// 10.2 TB/s".
[[nodiscard]] std::string roof_label(const roof_spec& r);

// Where the data lies, to fit the axes around it.
struct data_extent {
    double x_lo = 1e300;
    double x_hi = 0;
    double y_lo = 1e300;
    double y_hi = 0;
    void add(point p);
};

// Log axes over the extent and every ridge, with room right of the last ridge for the flat
// roofs. Tick labels of y are in TFLOP/s.
void fit_axes(scene& s, const std::vector<roof_spec>& rs, const data_extent& e,
              std::string x_title);

// One segment per roof, in data space, within the axes: a compute roof from its first ridge
// to the right edge; a memory roof from the left (or bottom) edge up to the top compute roof.
// Theoretical roofs dashed, measured ones solid.
[[nodiscard]] std::vector<roof_line> make_roof_lines(const scene& s,
                                                     const std::vector<roof_spec>& rs);

// A scene with the profile's predicted flag, watermark and title lines (title_block, with the
// plots' own predicted note; `subject` names the plot in lower case, "roofline", and
// `qualifier` follows the GPU's name, " at 4096³"): the start both roofline layouts share.
[[nodiscard]] scene start_scene(const profile& p, std::string_view subject,
                                std::string_view qualifier = {});

// Appends a legend line with a glyph.
void add_legend_item(panel_content& c, swatch_kind kind, marker_shape glyph, bool filled,
                     bool dashed, std::string text);
// The roof entries of the legend: dashed = theoretical, solid = measured (when drawn).
void add_roof_legend(panel_content& c, bool any_measured_roof);

// Lays out the title labels, the canvas, the plot box, the panel beside the plot, the tick
// labels and the axis titles. Needs s.title_lines, s.predicted and the axes; sets s.width,
// s.height, s.plot, s.swatches and s.table_header, and appends to s.labels. The canvas is at
// least opts.width × opts.height and grows rather than squeeze the plot or the panel.
void frame_scene(scene& s, const panel_content& c, const render_options& opts);

// Throughputs published for the profile's GPU (analysis/published.hpp), as markers.
struct published_set {
    std::vector<marker> markers;
    // The sources, once each ("◆ Published: …."), then why a published point is not drawn.
    std::vector<std::string> notes;
};

// For a predicted profile only (empty for a measured one): one marker_kind::published per
// published point of the GPU whose size has a row (only `focus` where given): a filled diamond
// in the rung's colour at the rung's refined-model DRAM AI for that size (textbook where the
// refined model gives none), at the published TFLOP/s × executed / useful FLOPs, on the same
// executed-FLOP/s axis as the models. marker::value keeps the published TFLOP/s.
[[nodiscard]] published_set collect_published(const analysis& a, std::optional<shape> focus,
                                              double radius_px);

// What a roofline layout collects from the rows before it lays anything out.
struct point_set {
    std::vector<marker> markers;
    std::vector<arrow> arrows;
    std::vector<kernel_entry> table;
    std::vector<std::string> notes;
};

// Fits the axes around the points of `pts` and every ridge of `rs` (fit_axes), then puts the
// roofs, the markers, the arrows, the kernel table and the notes into the scene.
void add_points(scene& s, const std::vector<roof_spec>& rs, const point_set& pts,
                std::string x_title);

// A copy of `base` (rung, size, level, colour, glyph, radius) as a marker of `kind` at `at`:
// filled where measured, outlined dashed for the refined model.
[[nodiscard]] marker marker_at(marker base, marker_kind kind, point at);

// The arrow from `from` to `to` in the rung, size, level and colour of `base`.
[[nodiscard]] arrow arrow_for(const marker& base, point from, point to, bool dashed);

// Adds the published markers and their notes after the rows' own.
void add_published(point_set& pts, const published_set& published);

// The legend entry of the published markers: a diamond, filled and outlined.
void add_published_legend(panel_content& c);

}  // namespace tgemm::render
