#include "render/roofline_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "model/levels.hpp"
#include "render/format.hpp"
#include "render/label_placer.hpp"
#include "render/layout_text.hpp"
#include "render/roofline_common.hpp"
#include "render/roofline_labels.hpp"
#include "render/roofline_panel.hpp"
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

constexpr double plot_label_px = 15;
constexpr double marker_radius = 9;
constexpr double published_radius = 7;

constexpr std::array<marker_shape, 6> size_glyphs = {
    marker_shape::circle,  marker_shape::square,        marker_shape::triangle_up,
    marker_shape::diamond, marker_shape::triangle_down, marker_shape::hexagon,
};

template <class T>
int index_in(const std::vector<T>& v, const T& x) {
    const auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? 0 : static_cast<int>(it - v.begin());
}

std::string row_name(const measurement& m) {
    return fmt::format("{} {}", m.kernel, to_string(m.size));
}

// Why a row of a measured profile has no filled marker.
std::string missing_point_reason(const row_analysis& r) {
    const auto& m = *r.row;
    std::vector<std::string> absent;
    if (!m.counter(keys::flops)) absent.emplace_back("FLOP counter");
    if (!m.counter(keys::dram_read_bytes) || !m.counter(keys::dram_write_bytes))
        absent.emplace_back("DRAM counters");
    if (!absent.empty()) return join(absent, " and ") + " not measured";
    if (!m.time) return "not timed";
    return "no DRAM traffic counted";
}

// The DRAM roofline draws one memory level.
constexpr std::array<std::string_view, 1> dram_only = {roofs::dram};

// Ladder order, then size: the table reads like the plot's colours.
std::vector<const row_analysis*> ladder_rows(const analysis& a,
                                             const std::vector<std::string>& kernels,
                                             const std::vector<shape>& shapes) {
    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [&](const auto* l, const auto* r) {
        const auto kl = index_in(kernels, l->row->kernel);
        const auto kr = index_in(kernels, r->row->kernel);
        if (kl != kr) return kl < kr;
        return index_in(shapes, l->row->size) < index_in(shapes, r->row->size);
    });
    return rows;
}

// The row's textbook marker, the marker where it sits (measured, or the refined model's for a
// prediction) and the arrow between them; a note where it has no such point. Returns whether
// it has one.
bool add_row_points(point_set& out, const row_analysis& r, const marker& base, bool predicted) {
    const auto& m = *r.row;
    std::optional<point> book;
    if (r.ai_textbook > 0 && r.attainable_textbook > 0) {
        book = point{r.ai_textbook, r.attainable_textbook};
        out.markers.push_back(marker_at(base, marker_kind::textbook, *book));
    }
    std::optional<point> end;
    if (predicted && r.ai_refined && r.attainable) {
        end = point{*r.ai_refined, *r.attainable};
        out.markers.push_back(marker_at(base, marker_kind::refined, *end));
    } else if (predicted) {
        out.notes.push_back(
            fmt::format("{}: the refined model gives no {}; textbook point only", row_name(m),
                        m.model.refined.get(keys::flops) ? "DRAM traffic" : "FLOP count"));
    } else if (r.ai_measured && r.achieved_flops_per_s) {
        end = point{*r.ai_measured, *r.achieved_flops_per_s};
        out.markers.push_back(marker_at(base, marker_kind::measured, *end));
    } else {
        out.notes.push_back(
            fmt::format("{}: no measured point ({})", row_name(m), missing_point_reason(r)));
    }
    if (book && end) out.arrows.push_back(arrow_for(base, *book, *end, predicted));
    return end.has_value();
}

kernel_entry table_entry(const row_analysis& r, const marker& base, bool predicted,
                         bool has_point) {
    const auto& m = *r.row;
    kernel_entry e{m.kernel, m.size, base.colour, base.glyph, !predicted && has_point, {}};
    const auto ai = [](std::optional<double> v) {
        return v ? format_ai_value(*v) : std::string(missing_mark);
    };
    if (predicted)
        e.cells = {m.kernel, to_string(m.size), format_ai_value(r.ai_textbook), ai(r.ai_refined),
                   format_tflops_value(r.attainable)};
    else
        e.cells = {m.kernel, to_string(m.size),
                   r.tflops ? format_tflops_value(*r.tflops * 1e12) : std::string(missing_mark),
                   ai(r.ai_measured), format_percent(r.pct_roof)};
    return e;
}

// Markers, arrows, the kernel table and the notes: everything that comes from the rows.
point_set collect_points(const analysis& a, bool predicted) {
    // Colours go to kernels that have rows: a rung skipped at every size takes none.
    const auto kernels = coloured_rungs(a);
    const auto shapes = a.source->shapes();
    point_set out;
    for (const auto* r : ladder_rows(a, kernels, shapes)) {
        marker base;
        base.rung = r->row->kernel;
        base.size = r->row->size;
        base.colour = rung_colour(kernels, r->row->kernel);
        base.glyph = size_glyphs[static_cast<std::size_t>(index_in(shapes, r->row->size)) %
                                 size_glyphs.size()];
        base.radius_px = marker_radius;
        const bool has_point = add_row_points(out, *r, base, predicted);
        out.table.push_back(table_entry(*r, base, predicted, has_point));
    }
    for (const auto& m : a.source->measurements)
        if (m.skipped) out.notes.push_back(fmt::format("{}: skipped: {}", row_name(m), *m.skipped));
    return out;
}

panel_content panel_for(const point_set& pts, const profile& p, bool predicted,
                        bool any_measured_roof, bool any_published) {
    panel_content c;
    const auto add = [&](swatch_kind kind, marker_shape glyph, bool filled, bool dashed,
                         std::string text) {
        add_legend_item(c, kind, glyph, filled, dashed, std::move(text));
    };
    const auto shapes = p.shapes();
    for (std::size_t i = 0; i < shapes.size(); ++i)
        add(swatch_kind::marker, size_glyphs[i % size_glyphs.size()], true, false,
            fmt::format("shape: size {}", to_string(shapes[i])));
    if (predicted) {
        add(swatch_kind::marker, marker_shape::circle, false, false,
            "hollow: textbook AI, placed on the roof");
        add(swatch_kind::marker, marker_shape::circle, false, true,
            "dashed: refined model AI on the roof (PREDICTED)");
        add(swatch_kind::arrow, marker_shape::circle, false, true, "textbook → refined model");
        if (any_published) add_published_legend(c);
    } else {
        add(swatch_kind::marker, marker_shape::circle, true, false,
            "filled: measured (DRAM counters, timed)");
        add(swatch_kind::marker, marker_shape::circle, false, false,
            "hollow: textbook AI, placed on the roof");
        add(swatch_kind::arrow, marker_shape::circle, false, false, "textbook → measured");
    }
    add_roof_legend(c, any_measured_roof);
    c.legend.push_back({std::nullopt, "colour: kernel, as in the table below"});

    c.table_title = predicted ? fmt::format("Kernels: {}", predicted_tag)
                              : std::string("Kernels (TFLOP/s counts 2MNK)");
    c.table_header =
        predicted ? std::vector<std::string>{"kernel", "size", "AI textbook", "AI refined",
                                             "roof TFLOP/s"}
                  : std::vector<std::string>{"kernel", "size", "TFLOP/s", "AI (DRAM)", "% of roof"};
    c.rows = pts.table;
    c.notes = pts.notes;
    return c;
}

// Where the FP32 roof meets the DRAM roof, theoretical and measured. Where only the DRAM roof
// was measured, its ridge is with the theoretical FP32 roof.
std::vector<ridge_mark> dram_ridges(const std::vector<roof_spec>& rs, double fp32_peak) {
    std::vector<ridge_mark> out;
    for (const auto& r : rs) {
        if (r.kind != roof_kind::compute || r.key != roofs::fp32) continue;
        const double ai = r.value / ridge_bandwidth(rs, r.source);
        out.push_back(
            {r.source, ai, r.value,
             fmt::format("{}ridge {}", r.source == roof_source::measured ? "measured " : "",
                         format_ai(ai))});
    }
    const bool measured_ridge = std::any_of(
        out.begin(), out.end(), [](const auto& rg) { return rg.source == roof_source::measured; });
    if (any_measured(rs) && !measured_ridge) {
        const double bw = ridge_bandwidth(rs, roof_source::measured);
        out.push_back({roof_source::measured, fp32_peak / bw, fp32_peak,
                       fmt::format("measured ridge {}", format_ai(fp32_peak / bw))});
    }
    return out;
}

double volume(const shape& sz) {
    return double(sz.m) * double(sz.n) * double(sz.k);
}

// One name per rung, beside its markers at the largest size (most FLOPs) only: with many
// sizes a name beside a small size's marker would be read as that point. Markers of every
// size stay drawn; the table names the rest. Boxes around the rung's markers at its largest
// size: measured first, then refined, then textbook. A box nearer one of the rung's smaller sizes
// than to the marker it names would name the wrong point: such boxes are left out.
std::vector<rect> name_candidates(const scene& s, const std::string& rung, double w, double h) {
    double largest = 0;
    for (const auto& mk : s.markers)
        if (mk.rung == rung) largest = std::max(largest, volume(mk.size));
    const std::array<double, 5> gaps = {marker_radius + 5, marker_radius + 18, marker_radius + 34,
                                        marker_radius + 52, marker_radius + 72};
    std::vector<rect> candidates;
    for (const auto kind : {marker_kind::measured, marker_kind::refined, marker_kind::textbook})
        for (const auto& mk : s.markers) {
            if (mk.rung != rung || mk.kind != kind || volume(mk.size) != largest) continue;
            const auto at = s.to_px(mk.at);
            for (const auto& box : boxes_around(at, w, h, gaps)) {
                const double own = distance(box, at);
                const bool nearer_other =
                    std::any_of(s.markers.begin(), s.markers.end(), [&](const marker& o) {
                        return o.rung == rung && volume(o.size) != largest &&
                               distance(box, s.to_px(o.at)) < own;
                    });
                if (!nearer_other) candidates.push_back(box);
            }
        }
    return candidates;
}

}  // namespace

scene layout_roofline(const analysis& a, const render_options& opts) {
    if (!a.source) TGEMM_THROW(internal, "layout_roofline: the analysis has no profile");
    if (!(a.fp32_peak > 0) || !(a.dram_peak > 0))
        TGEMM_THROW(input, "cannot plot a roofline without positive FP32 and DRAM peaks");
    const profile& p = *a.source;
    const bool predicted = p.source == profile_source::predicted;

    // One size: the plot says which (the per-size rooflines beside the one across sizes).
    const auto sizes = p.shapes();
    scene s = start_scene(p, "roofline",
                          sizes.size() == 1 ? " at " + to_string(sizes.front()) : std::string());
    auto pts = collect_points(a, predicted);
    // Published throughputs of this GPU (a predicted profile only), at every size they have.
    add_published(pts, collect_published(a, std::nullopt, published_radius));
    const auto rs = collect_roofs(a, dram_only);
    s.ridges = dram_ridges(rs, a.fp32_peak);

    // Axis ranges cover every point and ridge, with room right of the ridge for the flat roof.
    add_points(s, rs, pts, "Arithmetic intensity (FLOP/byte at DRAM, log scale)");
    frame_scene(s,
                panel_for(pts, p, predicted, any_measured(rs), s.count(marker_kind::published) > 0),
                opts);

    // Labels inside the plot go where nothing else is: markers and lines are obstacles.
    // Published values before the rung names: a value belongs beside its diamond, a name may
    // sit by any of its rung's markers.
    label_placer placer(s.labels);
    add_plot_obstacles(placer, s);
    place_roof_labels(placer, s, opts.measure);
    place_ridge_labels(placer, s, opts.measure, plot_label_px);
    place_published_labels(placer, s, opts.measure, plot_label_px);
    place_rung_names(placer, s, opts.measure, plot_label_px,
                     std::bind_front(name_candidates, std::cref(s)));
    return s;
}

}  // namespace tgemm::render
