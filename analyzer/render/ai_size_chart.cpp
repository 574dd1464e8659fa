#include "render/ai_size_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/strings.hpp"
#include "render/axis_labels.hpp"
#include "render/chart_legend.hpp"
#include "render/format.hpp"
#include "render/layout_text.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

constexpr double legend_gap = 40;
constexpr double min_plot_w = 900;
constexpr double min_plot_h = 560;
constexpr double marker_radius = 6;

// One rung's AI across the square sizes: the main series (measured, or the refined model's for
// a predicted profile) and the textbook's, in data space (N, AI).
struct rung_series {
    std::string rung;
    int colour = 0;
    std::vector<point> main;
    std::vector<point> book;
};

// Everything the chart shows, declared before any of it is placed.
struct ai_decl {
    bool predicted = false;
    std::vector<std::int64_t> sizes;    // the square sizes with rows, increasing N
    std::vector<std::string> left_out;  // the other sizes with rows
    std::optional<double> ridge;        // FP32 roof / DRAM roof
    std::vector<rung_series> series;    // ladder order
    std::vector<std::string> gaps;      // "naive at N = 1024": no main AI there
    double lo = 0.1;                    // the AI range the y axis must cover
    double hi = 100;
};

void find_sizes(const analysis& a, ai_decl& d) {
    for (const auto& s : a.source->shapes()) {
        const bool has_rows = std::any_of(a.rows.begin(), a.rows.end(),
                                          [&](const row_analysis& r) { return r.row->size == s; });
        if (!has_rows) continue;
        if (s.square())
            d.sizes.push_back(s.n);
        else
            d.left_out.push_back(to_string(s));
    }
    std::sort(d.sizes.begin(), d.sizes.end());
    d.sizes.erase(std::unique(d.sizes.begin(), d.sizes.end()), d.sizes.end());
}

std::optional<double> dram_ridge(const analysis& a) {
    const auto fp32 = a.roof_value(roofs::fp32);
    const auto dram = a.roof_value(roofs::dram);
    if (!fp32 || !dram || *dram <= 0) return std::nullopt;
    return *fp32 / *dram;
}

// The rung's series; the sizes it has a row but no main AI at go to d.gaps.
rung_series declare_series(const analysis& a, ai_decl& d, const std::string& rung, int colour) {
    rung_series rs{rung, colour, {}, {}};
    std::vector<std::string> missing;
    for (const auto n : d.sizes) {
        const auto* r = a.find(rung, shape{n, n, n});
        if (!r) continue;
        const auto ai = d.predicted ? r->ai_refined : r->ai_measured;
        if (ai && *ai > 0)
            rs.main.push_back({static_cast<double>(n), *ai});
        else
            missing.push_back(fmt::format("{}", n));
        if (r->ai_textbook > 0) rs.book.push_back({static_cast<double>(n), r->ai_textbook});
    }
    if (!missing.empty()) d.gaps.push_back(fmt::format("{} at N = {}", rung, join(missing, ", ")));
    return rs;
}

ai_decl declare(const analysis& a, bool predicted) {
    ai_decl d;
    d.predicted = predicted;
    find_sizes(a, d);
    d.ridge = dram_ridge(a);
    double lo = d.ridge ? *d.ridge : 1e300;
    double hi = d.ridge ? *d.ridge : 0;
    const auto rungs = coloured_rungs(a);
    for (const auto& k : rungs) {
        auto rs = declare_series(a, d, k, rung_colour(rungs, k));
        for (const auto& pt : rs.main) lo = std::min(lo, pt.y), hi = std::max(hi, pt.y);
        for (const auto& pt : rs.book) lo = std::min(lo, pt.y), hi = std::max(hi, pt.y);
        if (!rs.main.empty() || !rs.book.empty()) d.series.push_back(std::move(rs));
    }
    if (hi > 0) {
        d.lo = lo;
        d.hi = hi;
    }
    return d;
}

// Skipped rows, one note per rung and reason: "sm90_fp32 at 1024³, 4096³: skipped: ...".
void skipped_notes(const profile& p, std::vector<std::string>& notes) {
    struct skip_group {
        std::string kernel;
        std::string reason;
        std::vector<std::string> sizes;
    };
    std::vector<skip_group> skipped;
    for (const auto& m : p.measurements) {
        if (!m.skipped || !m.size.square()) continue;
        auto it = std::find_if(skipped.begin(), skipped.end(), [&](const skip_group& g) {
            return g.kernel == m.kernel && g.reason == *m.skipped;
        });
        if (it == skipped.end()) it = skipped.insert(skipped.end(), {m.kernel, *m.skipped, {}});
        it->sizes.push_back(to_string(m.size));
    }
    for (const auto& g : skipped)
        notes.push_back(
            fmt::format("{} at {}: skipped: {}", g.kernel, join(g.sizes, ", "), g.reason));
}

std::vector<std::string> declare_notes(const ai_decl& d, const profile& p) {
    std::vector<std::string> notes;
    if (!d.left_out.empty())
        notes.push_back(
            fmt::format("Left out (not square, no single N): {}.", join(d.left_out, ", ")));
    if (!d.gaps.empty())
        notes.push_back(
            fmt::format("No {} DRAM AI (no {}): {}.", d.predicted ? "refined-model" : "measured",
                        d.predicted ? "refined DRAM bytes or FLOPs" : "DRAM or FLOP counters",
                        join(d.gaps, "; ")));
    skipped_notes(p, notes);
    notes.emplace_back(
        d.predicted
            ? "AI = FLOPs / DRAM bytes (read + write). Predicted: the refined model's FLOPs and "
              "DRAM bytes; textbook: the seed's formula. Lines are drawn in ladder order: where "
              "rungs coincide, the later one covers the earlier."
            : "AI = FLOPs / DRAM bytes (read + write). Measured: executed FLOPs and DRAM bytes "
              "from the counters; textbook: the seed's formula, which counts every global access "
              "as DRAM traffic. Lines are drawn in ladder order: where rungs coincide, the later "
              "one covers the earlier.");
    return notes;
}

// Kernels, then the line styles.
legend_column declare_legend(const ai_decl& d) {
    legend_column legend{"Kernels", {{}, {}}};
    legend_glyph g;
    g.kind = legend_glyph_kind::line;
    g.colour_tone = tone::rung;
    for (const auto& rs : d.series) {
        g.with_marker = !rs.main.empty();
        g.colour = rs.colour;
        legend.groups[0].push_back({g, rs.rung, tone::rung, rs.colour});
    }
    g.colour = 0;
    g.with_marker = true;
    g.colour_tone = tone::ink;
    legend.groups[1].push_back({g, d.predicted ? "solid + dots: predicted (refined model)"
                                               : "solid + dots: measured (counters)"});
    g.with_marker = false;
    g.dashed = true;
    legend.groups[1].push_back({g, "dashed: textbook (seed formula)"});
    g.colour_tone = tone::muted;
    if (d.ridge) legend.groups[1].push_back({g, "grey dashed: DRAM ridge"});
    return legend;
}

// The ridge across the plot, labelled at its right end: above it, or below where the plot's
// top leaves no room.
void place_ridge(chart& c, double ridge, const text_width_fn& measure) {
    const reference_line r{.name = "DRAM ridge",
                           .value = ridge,
                           .colour_tone = tone::muted,
                           .dashed = true,
                           .width_px = 3,
                           .text = fmt::format("DRAM ridge {} FLOP/B (FP32 roof ÷ DRAM roof): "
                                               "below it a kernel is DRAM-bound",
                                               format_ai_value(ridge)),
                           .role = text_role::ridge};
    const double py = add_reference_line(c, 0, r, false);
    const rect& plot = c.panels.front().plot;
    auto t = reference_label(r, measure);
    t.backdrop = true;
    t.box.x = plot.right() - t.box.w - 8;
    t.box.y = py - t.box.h - 3;
    if (t.box.y < plot.y + 2) t.box.y = py + 3;
    c.labels.push_back(std::move(t));
}

// A series as a line in pixels; none for fewer than two points.
void add_series_line(chart& c, const rung_series& rs, const std::vector<point>& data,
                     marker_kind kind) {
    if (data.size() < 2) return;
    const auto& pn = c.panels.front();
    chart_line l;
    l.name = rs.rung;
    l.kind = kind;
    l.colour = rs.colour;
    l.dashed = kind == marker_kind::textbook;
    l.width_px = kind == marker_kind::textbook ? 1.8 : 2.6;
    for (const auto& pt : data) l.points.push_back(pn.to_px(pt));
    c.lines.push_back(std::move(l));
}

// Textbook lines under the main lines, each main point a marker.
void place_series(chart& c, const ai_decl& d) {
    const auto main_kind = d.predicted ? marker_kind::refined : marker_kind::measured;
    for (const auto& rs : d.series) add_series_line(c, rs, rs.book, marker_kind::textbook);
    for (const auto& rs : d.series) {
        for (const auto& pt : rs.main) {
            chart_marker m;
            m.rung = rs.rung;
            m.kind = main_kind;
            m.at = c.panels.front().to_px(pt);
            m.value = pt.y;
            m.colour = rs.colour;
            m.filled = !d.predicted;
            m.radius_px = marker_radius;
            c.markers.push_back(std::move(m));
        }
        add_series_line(c, rs, rs.main, main_kind);
    }
}

}  // namespace

chart layout_ai_vs_size(const analysis& a, const chart_options& opts) {
    chart c =
        start_chart(a, chart_kind::ai_vs_size, "layout_ai_vs_size", "DRAM AI vs problem size", "");
    const auto& measure = opts.measure;
    const auto d = declare(a, c.predicted);
    c.notes = declare_notes(d, *a.source);
    const auto legend = declare_legend(d);
    chart_panel pn;
    pn.x = make_value_axis("N (M = N = K), log scale",
                           d.sizes.empty() ? std::vector<std::int64_t>{1024} : d.sizes);
    pn.y = make_log_axis("DRAM arithmetic intensity (FLOP/byte, log scale)", d.lo, d.hi, 0);

    // The plot box: ticks left and below, the legend right, notes at the bottom.
    double tick_w = 0;
    for (const auto& t : pn.y.major)
        tick_w = std::max(tick_w, measure(t.label, chart_tick_px, false));
    const double gutter = line_box_height(chart_axis_title_px) + 10 + tick_w + 10;
    const double legend_w = legend.width(measure);
    c.width = std::max(opts.width, 2 * chart_margin + gutter + min_plot_w + legend_gap + legend_w);
    const double plot_w = c.width - 2 * chart_margin - gutter - legend_gap - legend_w;
    const double y = place_titles(c, measure) + 12;
    const double notes_h = notes_height(c.notes, plot_w + gutter, {}, measure);
    const double below = x_axis_band();
    const double plot_h =
        std::max({min_plot_h, opts.height - y - below - notes_h - chart_margin, legend.height()});
    c.height = std::max(opts.height, y + plot_h + below + notes_h + chart_margin);
    pn.plot = {chart_margin + gutter, y, plot_w, plot_h};
    c.panels.push_back(pn);

    axis_label_style axis_text;
    axis_text.y_title_left = chart_margin;
    place_axis_labels(c.labels, pn.plot, pn.x, pn.y, axis_text, measure);
    if (d.ridge) place_ridge(c, *d.ridge, measure);
    place_series(c, d);
    place_legend_column(c, legend, pn.plot.right() + legend_gap, pn.plot.y, measure);
    place_notes(c.labels, c.notes, {chart_margin, pn.plot.bottom() + below}, plot_w + gutter, {},
                measure);
    return c;
}

}  // namespace tgemm::render
