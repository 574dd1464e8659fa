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

}  // namespace

chart layout_ai_vs_size(const analysis& a, const chart_options& opts) {
    chart c =
        start_chart(a, chart_kind::ai_vs_size, "layout_ai_vs_size", "DRAM AI vs problem size", "");
    const profile& p = *a.source;
    const auto& measure = opts.measure;
    const auto main_kind = c.predicted ? marker_kind::refined : marker_kind::measured;

    // The square sizes with rows, in increasing N; the rest are named in a note.
    std::vector<std::int64_t> ns;
    std::vector<std::string> left_out;
    for (const auto& s : p.shapes()) {
        const bool has_rows = std::any_of(a.rows.begin(), a.rows.end(),
                                          [&](const row_analysis& r) { return r.row->size == s; });
        if (!has_rows) continue;
        if (s.square())
            ns.push_back(s.n);
        else
            left_out.push_back(to_string(s));
    }
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());

    const auto rungs = coloured_rungs(a);
    const auto ridge = [&]() -> std::optional<double> {
        const auto fp32 = a.roof_value(roofs::fp32);
        const auto dram = a.roof_value(roofs::dram);
        if (!fp32 || !dram || *dram <= 0) return std::nullopt;
        return *fp32 / *dram;
    }();

    // Per rung: the main AI and the textbook AI at each N.
    struct rung_series {
        std::string rung;
        int colour = 0;
        std::vector<point> main;  // data space: (N, AI)
        std::vector<point> book;
    };
    std::vector<rung_series> data;
    double lo = ridge ? *ridge : 1e300;
    double hi = ridge ? *ridge : 0;
    std::vector<std::string> gaps;
    for (const auto& k : rungs) {
        rung_series rs;
        rs.rung = k;
        rs.colour = rung_colour(rungs, k);
        std::vector<std::string> missing;
        for (const auto n : ns) {
            const auto* r = a.find(k, shape{n, n, n});
            if (!r) continue;
            const auto ai = c.predicted ? r->ai_refined : r->ai_measured;
            if (ai && *ai > 0)
                rs.main.push_back({static_cast<double>(n), *ai});
            else
                missing.push_back(fmt::format("{}", n));
            if (r->ai_textbook > 0) rs.book.push_back({static_cast<double>(n), r->ai_textbook});
        }
        if (!missing.empty()) gaps.push_back(fmt::format("{} at N = {}", k, join(missing, ", ")));
        for (const auto& pt : rs.main) lo = std::min(lo, pt.y), hi = std::max(hi, pt.y);
        for (const auto& pt : rs.book) lo = std::min(lo, pt.y), hi = std::max(hi, pt.y);
        if (!rs.main.empty() || !rs.book.empty()) data.push_back(std::move(rs));
    }
    if (hi <= 0) {
        lo = 0.1;
        hi = 100;
    }

    if (!left_out.empty())
        c.notes.push_back(
            fmt::format("Left out (not square, no single N): {}.", join(left_out, ", ")));
    if (!gaps.empty())
        c.notes.push_back(
            fmt::format("No {} DRAM AI (no {}): {}.", c.predicted ? "refined-model" : "measured",
                        c.predicted ? "refined DRAM bytes or FLOPs" : "DRAM or FLOP counters",
                        join(gaps, "; ")));
    // Skipped rows, one note per rung and reason: "sm90_fp32 at 1024³, 4096³: skipped: ...".
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
        c.notes.push_back(
            fmt::format("{} at {}: skipped: {}", g.kernel, join(g.sizes, ", "), g.reason));
    c.notes.push_back(
        c.predicted
            ? "AI = FLOPs / DRAM bytes (read + write). Predicted: the refined model's FLOPs and "
              "DRAM bytes; textbook: the seed's formula. Lines are drawn in ladder order: where "
              "rungs coincide, the later one covers the earlier."
            : "AI = FLOPs / DRAM bytes (read + write). Measured: executed FLOPs and DRAM bytes "
              "from the counters; textbook: the seed's formula, which counts every global access "
              "as DRAM traffic. Lines are drawn in ladder order: where rungs coincide, the later "
              "one covers the earlier.");

    // The legend panel to the right: kernels, then the line styles.
    legend_column legend{"Kernels", {{}, {}}};
    for (const auto& rs : data) {
        legend_glyph g;
        g.kind = legend_glyph_kind::line;
        g.with_marker = !rs.main.empty();
        g.colour_tone = tone::rung;
        g.colour = rs.colour;
        legend.groups[0].push_back({g, rs.rung, tone::rung, rs.colour});
    }
    {
        legend_glyph g;
        g.kind = legend_glyph_kind::line;
        g.with_marker = true;
        g.colour_tone = tone::ink;
        legend.groups[1].push_back({g, c.predicted ? "solid + dots: predicted (refined model)"
                                                   : "solid + dots: measured (counters)"});
        g.with_marker = false;
        g.dashed = true;
        legend.groups[1].push_back({g, "dashed: textbook (seed formula)"});
        g.colour_tone = tone::muted;
        if (ridge) legend.groups[1].push_back({g, "grey dashed: DRAM ridge"});
    }
    const double legend_w = legend.width(measure);

    // The axes, then the plot box: ticks left and below, the legend right, notes at the bottom.
    const auto x_axis = make_value_axis("N (M = N = K), log scale",
                                        ns.empty() ? std::vector<std::int64_t>{1024} : ns);
    auto y_axis = make_log_axis("DRAM arithmetic intensity (FLOP/byte, log scale)", lo, hi, 0);
    double tick_w = 0;
    for (const auto& t : y_axis.major)
        tick_w = std::max(tick_w, measure(t.label, chart_tick_px, false));
    const double gutter = line_box_height(chart_axis_title_px) + 10 + tick_w + 10;
    c.width = std::max(opts.width, 2 * chart_margin + gutter + min_plot_w + legend_gap + legend_w);
    const double plot_w = c.width - 2 * chart_margin - gutter - legend_gap - legend_w;
    const double y = place_titles(c, measure) + 12;
    const double notes_h = notes_height(c.notes, plot_w + gutter, {}, measure);
    const double below =
        line_box_height(chart_tick_px) + 10 + line_box_height(chart_axis_title_px) + 16;
    const double legend_h = legend.height();
    const double plot_h =
        std::max({min_plot_h, opts.height - y - below - notes_h - chart_margin, legend_h});
    c.height = std::max(opts.height, y + plot_h + below + notes_h + chart_margin);

    chart_panel pn;
    pn.plot = {chart_margin + gutter, y, plot_w, plot_h};
    pn.x = x_axis;
    pn.y = y_axis;

    // Ticks and axis titles.
    axis_label_style axis_text;
    axis_text.y_title_left = chart_margin;
    place_axis_labels(c.labels, pn.plot, pn.x, pn.y, axis_text, measure);

    // The ridge, under the data.
    if (ridge) {
        chart_line l;
        l.name = "DRAM ridge";
        l.role = line_role::reference;
        l.colour_tone = tone::muted;
        l.dashed = true;
        l.width_px = 3;
        const double py = pn.to_px({pn.x.min, *ridge}).y;
        l.points = {{pn.plot.x, py}, {pn.plot.right(), py}};
        c.lines.push_back(l);
        auto t = make_label(
            fmt::format("DRAM ridge {} FLOP/B (FP32 roof ÷ DRAM roof): below it a kernel is "
                        "DRAM-bound",
                        format_ai_value(*ridge)),
            chart_text_px, false, text_role::ridge, measure);
        t.colour_tone = tone::muted;
        t.backdrop = true;
        t.box.x = pn.plot.right() - t.box.w - 8;
        t.box.y = py - t.box.h - 3;
        if (t.box.y < pn.plot.y + 2) t.box.y = py + 3;
        c.labels.push_back(std::move(t));
    }

    // Textbook lines under the main lines; markers last.
    for (const auto& rs : data) {
        std::vector<point> px;
        for (const auto& pt : rs.book) px.push_back(pn.to_px(pt));
        if (px.size() >= 2) {
            chart_line l;
            l.name = rs.rung;
            l.kind = marker_kind::textbook;
            l.colour = rs.colour;
            l.dashed = true;
            l.width_px = 1.8;
            l.points = std::move(px);
            c.lines.push_back(std::move(l));
        }
    }
    for (const auto& rs : data) {
        std::vector<point> px;
        for (const auto& pt : rs.main) px.push_back(pn.to_px(pt));
        for (std::size_t i = 0; i < rs.main.size(); ++i) {
            chart_marker m;
            m.rung = rs.rung;
            m.kind = main_kind;
            m.at = px[i];
            m.value = rs.main[i].y;
            m.colour = rs.colour;
            m.filled = !c.predicted;
            m.radius_px = marker_radius;
            c.markers.push_back(std::move(m));
        }
        if (px.size() >= 2) {
            chart_line l;
            l.name = rs.rung;
            l.kind = main_kind;
            l.colour = rs.colour;
            l.width_px = 2.6;
            l.points = std::move(px);
            c.lines.push_back(std::move(l));
        }
    }

    // The legend.
    place_legend_column(c, legend, pn.plot.right() + legend_gap, pn.plot.y, measure);

    c.panels.push_back(std::move(pn));
    place_notes(c.labels, c.notes, {chart_margin, c.panels.back().plot.bottom() + below},
                plot_w + gutter, {}, measure);
    return c;
}

}  // namespace tgemm::render
