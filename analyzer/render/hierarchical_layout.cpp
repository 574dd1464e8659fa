#include "render/hierarchical_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "render/format.hpp"
#include "render/label_placer.hpp"
#include "render/roofline_common.hpp"
#include "render/roofline_labels.hpp"
#include "render/roofline_panel.hpp"
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

// The levels of the hierarchy, top to bottom; row_analysis::hierarchy keeps this order.
constexpr std::array<std::string_view, 3> memory_levels = {roofs::dram, roofs::l2, roofs::smem};

// 13 rungs × 3 levels × 2 markers share one plot: the point where a kernel sits is a little
// larger than the model's, and the arrows between them are thin.
constexpr double sits_radius = 7;
constexpr double model_radius = 5;
constexpr double arrow_width = 1.1;
constexpr double arrow_head = 7;
constexpr double name_px = 13;
constexpr double roof_px = 14;
// Three memory levels side by side need more room than the DRAM roofline: a wider, taller
// canvas spreads the decades, so parallel roofs leave space for their labels.
constexpr double min_width = 1800;
constexpr double min_height = 1100;

std::string_view glyph_word(marker_shape g) {
    switch (g) {
        case marker_shape::circle:
            return "circle";
        case marker_shape::square:
            return "square";
        case marker_shape::triangle_up:
            return "triangle";
        case marker_shape::diamond:
            return "diamond";
        case marker_shape::triangle_down:
            return "triangle down";
        case marker_shape::hexagon:
            return "hexagon";
    }
    return "marker";
}

// One level of a row at the row's rate: the model's point (the textbook's AI, else, as for L2
// which the textbook does not count, the refined model's, outlined dashed) and where the kernel
// sits (its measured AI; for a prediction, the refined model's), an arrow between them.
// Returns whether the level was measured.
bool add_level(point_set& out, const marker& base, const level_point& lp, double rate,
               bool predicted) {
    const auto add = [&](marker_kind kind, double ai, double radius) {
        auto mk = marker_at(base, kind, {ai, rate});
        mk.radius_px = radius;
        out.markers.push_back(mk);
        return mk.at;
    };
    std::optional<point> from;
    std::optional<point> to;
    if (lp.ai_textbook) from = add(marker_kind::textbook, *lp.ai_textbook, model_radius);
    if (predicted && lp.ai_refined)
        to = add(marker_kind::refined, *lp.ai_refined, from ? sits_radius : model_radius);
    if (!predicted && !from && lp.ai_refined)
        from = add(marker_kind::refined, *lp.ai_refined, model_radius);
    if (!predicted && lp.ai_measured) to = add(marker_kind::measured, *lp.ai_measured, sits_radius);
    if (from && to) {
        auto ar = arrow_for(base, *from, *to, predicted);
        ar.width_px = arrow_width;
        ar.head_px = arrow_head;
        ar.gap_from_px = model_radius + 2;
        ar.gap_to_px = sits_radius + 2;
        out.arrows.push_back(ar);
    }
    return !predicted && lp.ai_measured;
}

// Every level of the row; a note where the row has no rate, or a level no counters. Returns
// whether any level was measured.
bool add_row_levels(point_set& out, const row_analysis& r, int colour, bool predicted) {
    const auto& m = *r.row;
    // Measured: every level at the timed rate. Predicted: at the lowest roof the refined model
    // allows, the only rate there is without a measurement.
    const auto rate = predicted ? r.bound_attainable : r.achieved_flops_per_s;
    if (!rate) {
        out.notes.push_back(
            fmt::format("{}: no point ({})", m.kernel,
                        predicted ? "the refined model gives no FLOP count" : "not timed"));
        return false;
    }
    bool sits = false;
    std::vector<std::string> unmeasured;
    for (const auto& lp : r.hierarchy) {
        marker base;
        base.rung = m.kernel;
        base.size = m.size;
        base.level = lp.roof_key;
        base.colour = colour;
        base.glyph = level_glyph(lp.roof_key);
        if (add_level(out, base, lp, *rate, predicted))
            sits = true;
        else if (!predicted)
            unmeasured.push_back(lp.name);
    }
    if (!unmeasured.empty())
        out.notes.push_back(fmt::format("{}: no measured {} point (counters not measured)",
                                        m.kernel, join(unmeasured, ", ")));
    return sits;
}

kernel_entry table_entry(const row_analysis& r, int colour, bool sits, bool predicted) {
    const auto& m = *r.row;
    kernel_entry e{m.kernel, m.size, colour, marker_shape::circle, sits, {}};
    const std::string bound =
        r.bound_roof.empty() ? std::string(missing_mark) : roof_name(r.bound_roof);
    if (predicted)
        e.cells = {m.kernel, bound, format_tflops_value(r.bound_attainable)};
    else
        e.cells = {m.kernel, bound,
                   r.tflops ? format_tflops_value(*r.tflops * 1e12) : std::string(missing_mark),
                   format_percent(r.pct_bound_roof)};
    return e;
}

// Markers, arrows, the kernel table and the notes at the focus size.
point_set collect_points(const analysis& a, const shape& focus, bool predicted) {
    const auto kernels = coloured_rungs(a);
    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows)
        if (r.row->size == focus) rows.push_back(&r);
    // Ladder order: the table reads like the plot's colours.
    std::stable_sort(rows.begin(), rows.end(), [&](const auto* l, const auto* r) {
        return rung_colour(kernels, l->row->kernel) < rung_colour(kernels, r->row->kernel);
    });
    point_set out;
    for (const auto* r : rows) {
        const int colour = rung_colour(kernels, r->row->kernel);
        const bool sits = add_row_levels(out, *r, colour, predicted);
        out.table.push_back(table_entry(*r, colour, sits, predicted));
    }
    for (const auto& m : a.source->measurements)
        if (m.skipped && m.size == focus)
            out.notes.push_back(fmt::format("{}: skipped: {}", m.kernel, *m.skipped));
    return out;
}

panel_content panel_for(const point_set& pts, const shape& focus, bool predicted,
                        bool any_measured_roof, bool tensor_roofs) {
    panel_content c;
    for (const auto key : memory_levels) {
        const bool drawn = std::any_of(pts.markers.begin(), pts.markers.end(),
                                       [&](const marker& m) { return m.level == key; });
        if (!drawn) continue;
        const auto g = level_glyph(key);
        add_legend_item(c, swatch_kind::marker, g, !predicted, false,
                        fmt::format("{}: {}", glyph_word(g), roof_name(key)));
    }
    if (predicted) {
        add_legend_item(c, swatch_kind::marker, marker_shape::circle, false, false,
                        "hollow: textbook AI");
        add_legend_item(c, swatch_kind::marker, marker_shape::circle, false, true,
                        "dashed: refined model AI (PREDICTED)");
        add_legend_item(c, swatch_kind::arrow, marker_shape::circle, false, true,
                        "textbook → refined model");
        c.legend.push_back({std::nullopt, "height: the lowest roof the refined model allows"});
        if (std::any_of(pts.markers.begin(), pts.markers.end(),
                        [](const marker& m) { return m.kind == marker_kind::published; }))
            add_published_legend(c);
    } else {
        add_legend_item(c, swatch_kind::marker, marker_shape::circle, true, false,
                        "filled: measured AI, at the timed rate");
        add_legend_item(c, swatch_kind::marker, marker_shape::circle, false, false,
                        "hollow: textbook AI, at the same rate");
        if (std::any_of(pts.markers.begin(), pts.markers.end(),
                        [](const marker& m) { return m.kind == marker_kind::refined; }))
            add_legend_item(c, swatch_kind::marker, marker_shape::circle, false, true,
                            "dashed: refined model AI (no textbook count, L2)");
        add_legend_item(c, swatch_kind::arrow, marker_shape::circle, false, false,
                        "model → measured");
    }
    add_roof_legend(c, any_measured_roof);
    // Which compute roof judges which rung, once there is more than FP32.
    if (tensor_roofs)
        c.legend.push_back(
            {std::nullopt, "compute roof: FP32, or the tensor roof of the rung's input type"});
    c.legend.push_back({std::nullopt, "colour: kernel, as in the table below"});

    c.table_title = predicted
                        ? fmt::format("Kernels at {}: {}", to_string(focus), predicted_tag)
                        : fmt::format("Kernels at {} (TFLOP/s counts 2MNK)", to_string(focus));
    c.table_header = predicted
                         ? std::vector<std::string>{"kernel", "bound by", "roof TFLOP/s"}
                         : std::vector<std::string>{"kernel", "bound by", "TFLOP/s", "% of bound"};
    c.rows = pts.table;
    c.notes = pts.notes;
    return c;
}

// At the end of the rung's row of markers (they share one height) where there is room, else
// above or below one of them.
std::vector<rect> name_candidates(const scene& s, const std::string& rung, double w, double h) {
    double left = 1e300, right = -1e300, y = 0;
    std::vector<point> at;
    for (const auto& o : s.markers) {
        if (o.rung != rung || o.kind == marker_kind::published) continue;
        const auto px = s.to_px(o.at);
        left = std::min(left, px.x - o.radius_px);
        right = std::max(right, px.x + o.radius_px);
        y = px.y;
        at.push_back(px);
    }
    std::vector<rect> candidates = {{right + 6, y - h / 2, w, h}, {left - 6 - w, y - h / 2, w, h}};
    for (const double gap : {sits_radius + 3, sits_radius + 14}) {
        for (const auto& px : at) {
            candidates.push_back({px.x - w / 2, px.y - gap - h, w, h});
            candidates.push_back({px.x - w / 2, px.y + gap, w, h});
        }
    }
    return candidates;
}

}  // namespace

marker_shape level_glyph(std::string_view roof_key) {
    if (roof_key == roofs::dram) return marker_shape::circle;
    if (roof_key == roofs::l2) return marker_shape::square;
    if (roof_key == roofs::smem) return marker_shape::triangle_up;
    return marker_shape::diamond;
}

scene layout_hierarchical_roofline(const analysis& a, const render_options& opts) {
    if (!a.source)
        TGEMM_THROW(internal, "layout_hierarchical_roofline: the analysis has no profile");
    const auto focus = a.focus_size();
    if (!focus) TGEMM_THROW(input, "no row to plot: every row of the profile was skipped");
    const profile& p = *a.source;
    const bool predicted = p.source == profile_source::predicted;

    scene s = start_scene(p, "hierarchical roofline", fmt::format(" at {}", to_string(*focus)));

    const auto rs = collect_roofs(a, memory_levels);
    auto pts = collect_points(a, *focus, predicted);
    // Published throughputs of this GPU at the focus size (a predicted profile only), at the
    // rung's DRAM AI.
    add_published(pts, collect_published(a, *focus, sits_radius));
    const bool tensor_roofs = std::any_of(rs.begin(), rs.end(), [](const roof_spec& r) {
        return r.kind == roof_kind::compute && r.key != roofs::fp32;
    });
    const auto content = panel_for(pts, *focus, predicted, any_measured(rs), tensor_roofs);
    add_points(s, rs, pts, "Arithmetic intensity (FLOP/byte at each memory level, log scale)");

    auto frame = opts;
    frame.width = std::max(frame.width, min_width);
    frame.height = std::max(frame.height, min_height);
    frame_scene(s, content, frame);
    // The table's glyph is the rung's colour, not a level's shape.
    for (auto& sw : s.swatches)
        if (sw.colour_tone == tone::rung) {
            sw.kind = swatch_kind::chip;
            sw.filled = true;
        }

    label_placer placer(s.labels);
    add_plot_obstacles(placer, s);
    place_roof_labels(placer, s, opts.measure, roof_px);
    // Published values before the rung names: a value belongs beside its diamond, a name may
    // sit at either end of its rung's row.
    place_published_labels(placer, s, opts.measure, name_px);
    place_rung_names(placer, s, opts.measure, name_px,
                     std::bind_front(name_candidates, std::cref(s)));
    return s;
}

}  // namespace tgemm::render
