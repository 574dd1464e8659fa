#include "render/tflops_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/published.hpp"
#include "render/format.hpp"
#include "render/label_placer.hpp"
#include "render/layout_text.hpp"
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

constexpr double name_px = 15;
constexpr double bar_label_px = 14;
constexpr double min_plot_w = 900;
constexpr double min_pitch = 38;
constexpr double max_bar_h = 30;
constexpr double diamond_radius = 7;
constexpr double label_gap = 8;
constexpr std::string_view dash = "–";

std::string bound_name(std::string_view key) {
    if (key == roofs::fp32) return "FP32 compute";
    if (key == roofs::dram) return "DRAM";
    if (key == roofs::l2) return "L2";
    if (key == roofs::smem) return "shared memory";
    return std::string(key);
}

std::string tflops_text(double v) {
    return fmt::format("{:.1f} TFLOP/s", v);
}

// Linear ticks at 1, 2, 2.5 or 5 × 10^k, about eight of them up to at least `hi`.
axis linear_axis(std::string title, double hi) {
    axis x;
    x.title = std::move(title);
    x.scale = scale_kind::linear;
    x.min = 0;
    const double raw = std::max(hi, 1e-9) / 8;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (const double f : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (f * mag >= raw) {
            step = f * mag;
            break;
        }
    x.max = std::ceil(hi / step - 1e-9) * step;
    for (double v = 0; v <= x.max + step / 2; v += step)
        x.major.push_back({v, fmt::format("{:g}", v)});
    return x;
}

struct bar_row {
    const row_analysis* r = nullptr;
    std::string rung;
    int colour = 0;
    std::optional<double> value;  // TFLOP/s of 2MNK
    std::string text;             // the bar's label
    std::optional<published_point> published;
};

}  // namespace

chart layout_tflops(const analysis& a, const chart_options& opts) {
    const auto focus = a.focus_size();
    chart c = start_chart(a, chart_kind::tflops, "layout_tflops", "TFLOP/s per kernel vs cuBLAS",
                          focus ? " at " + to_string(*focus) : std::string());
    const profile& p = *a.source;
    const auto& measure = opts.measure;

    // The rows, in ladder order.
    const auto rungs = coloured_rungs(a);
    const auto* cublas = focus ? a.find("cublas", *focus) : nullptr;
    // cuBLAS's measured TFLOP/s; 0 where there is none (a predicted profile times nothing).
    const double cublas_tflops = !c.predicted && cublas && cublas->tflops ? *cublas->tflops : 0.0;
    const auto published =
        c.predicted ? published_points(p.gpu.key) : std::vector<published_point>{};
    std::vector<bar_row> rows;
    for (const auto& k : rungs) {
        const auto* r = focus ? a.find(k, *focus) : nullptr;
        if (!r) continue;
        bar_row b;
        b.r = r;
        b.rung = k;
        b.colour = rung_colour(rungs, k);
        if (c.predicted) {
            if (r->bound_attainable) {
                const double useful_share = r->executed_flops && *r->executed_flops > 0
                                                ? r->useful_flops / *r->executed_flops
                                                : 1.0;
                b.value = *r->bound_attainable * useful_share / 1e12;
                b.text = fmt::format("predicted {} · bound: {}", tflops_text(*b.value),
                                     bound_name(r->bound_roof));
            } else {
                b.text = fmt::format("{} no prediction (the refined model gives no FLOPs)", dash);
            }
        } else if (r->tflops) {
            b.value = r->tflops;
            if (k == "cublas")
                b.text = fmt::format("{} · the reference", tflops_text(*b.value));
            else if (r->pct_cublas)
                b.text = fmt::format("{} · {:.0f} % of cuBLAS", tflops_text(*b.value),
                                     *r->pct_cublas * 100);
            else
                b.text = tflops_text(*b.value);
        } else {
            b.text = fmt::format("{} not timed", dash);
        }
        for (const auto& pp : published)
            if (pp.kernel == k) b.published = pp;
        rows.push_back(std::move(b));
    }

    // Reference lines: cuBLAS, then the FP32 roof (theoretical, and measured where it ran).
    struct ref_line {
        std::string name;
        double value;
        bool dashed;
        tone t;
        std::string text;
    };
    std::vector<ref_line> refs;
    if (cublas_tflops > 0)
        refs.push_back({"cuBLAS", cublas_tflops, false, tone::ink,
                        fmt::format("cuBLAS {}", tflops_text(cublas_tflops))});
    if (const auto it = p.peaks.find(roofs::fp32); it != p.peaks.end()) {
        refs.push_back({"FP32 theoretical", it->second.theoretical / 1e12, true, tone::muted,
                        fmt::format("FP32 peak {} (theoretical)",
                                    tflops_text(it->second.theoretical / 1e12))});
        if (it->second.measured)
            refs.push_back(
                {"FP32 measured", *it->second.measured / 1e12, false, tone::muted,
                 fmt::format("FP32 measured {}", tflops_text(*it->second.measured / 1e12))});
    }

    // Notes.
    if (focus)
        c.notes.push_back(fmt::format(
            "TFLOP/s counts 2MNK useful FLOPs at {}, as cuBLAS and the published numbers do{}.",
            to_string(*focus),
            c.predicted ? ""
                        : "; measured from the median time; % of cuBLAS is against cuBLAS's "
                          "TFLOP/s at the same size"));
    if (c.predicted)
        c.notes.push_back(
            "Predicted = the bounding roof (the lowest of the FP32 roof and every level's "
            "refined-model AI × its bandwidth at the spec's peaks), scaled by useful / executed "
            "FLOPs. A bound, not a forecast of the time.");
    {
        const auto it = p.peaks.find(roofs::fp32);
        if (it != p.peaks.end() && !it->second.measured)
            c.notes.push_back(
                "FP32 roof: theoretical only (dashed); the profile has no measured "
                "FP32 peak.");
    }
    if (!published.empty()) {
        std::vector<std::string> sources;
        for (const auto& pp : published)
            if (std::find(sources.begin(), sources.end(), std::string(pp.source)) == sources.end())
                sources.emplace_back(pp.source);
        for (const auto& s : sources) c.notes.push_back(fmt::format("◆ Published: {}.", s));
        for (const auto& pp : published) {
            const bool drawn = std::any_of(rows.begin(), rows.end(), [&](const bar_row& b) {
                return b.published && b.published->kernel == pp.kernel;
            });
            if (!drawn)
                c.notes.push_back(fmt::format("Published {} ({}): no such rung in this profile.",
                                              pp.published_name, pp.kernel));
            else if (focus && !(pp.size == *focus))
                c.notes.push_back(fmt::format("Published {} is at {}, not {}.", pp.published_name,
                                              to_string(pp.size), to_string(*focus)));
        }
    }
    if (focus)
        for (const auto& m : p.measurements)
            if (m.skipped && m.size == *focus)
                c.notes.push_back(fmt::format("{}: skipped: {}", m.kernel, *m.skipped));
    if (rows.empty()) c.notes.push_back("The profile has no rows to chart.");

    double name_w = 0;
    for (const auto& b : rows) name_w = std::max(name_w, measure(b.rung, name_px, false));
    const double gutter = name_w + 14;
    c.width = std::max(opts.width, 2 * chart_margin + gutter + min_plot_w);
    double y = place_titles(c, measure) + 8;

    // The legend row.
    {
        double x = chart_margin;
        legend_glyph g;
        g.kind = legend_glyph_kind::bar;
        g.fill = c.predicted ? bar_fill::hollow : bar_fill::solid;
        g.dashed = c.predicted;
        x = place_legend_entry(c, g,
                               c.predicted ? "predicted: bounding roof (PREDICTED)"
                                           : "measured TFLOP/s (median of timed runs)",
                               x, y, measure);
        if (cublas_tflops > 0) {
            legend_glyph l;
            l.kind = legend_glyph_kind::line;
            l.colour_tone = tone::ink;
            x = place_legend_entry(c, l, "cuBLAS", x, y, measure);
        }
        legend_glyph roof;
        roof.kind = legend_glyph_kind::line;
        roof.dashed = true;
        x = place_legend_entry(c, roof, "FP32 roof, theoretical", x, y, measure);
        if (refs.size() > (cublas_tflops > 0 ? 2u : 1u)) {
            roof.dashed = false;
            x = place_legend_entry(c, roof, "FP32 roof, measured", x, y, measure);
        }
        if (!published.empty()) {
            legend_glyph d;
            d.kind = legend_glyph_kind::marker;
            d.glyph = marker_shape::diamond;
            d.colour_tone = tone::ink;
            x = place_legend_entry(c, d, "published (source in the notes)", x, y, measure);
        }
        place_colour_key(c, x, y, measure);
        y += line_box_height(chart_text_px) + 10;
    }

    // Geometry.
    const double plot_w = c.width - 2 * chart_margin - gutter;
    const double ref_band = 2 * line_box_height(chart_text_px) + 10;
    const double notes_h = notes_height(c, c.width - 2 * chart_margin, measure);
    const double below =
        line_box_height(chart_tick_px) + 10 + line_box_height(chart_axis_title_px) + 16;
    const auto n_rows = static_cast<double>(std::max<std::size_t>(rows.size(), 1));
    const double plot_h =
        std::max(n_rows * min_pitch, opts.height - y - ref_band - below - notes_h - chart_margin);
    c.height = std::max(opts.height, y + ref_band + plot_h + below + notes_h + chart_margin);
    const rect plot{chart_margin + gutter, y + ref_band, plot_w, plot_h};
    const double pitch = plot_h / n_rows;
    const double bar_h = std::min(max_bar_h, pitch * 0.62);

    // The widest the axis must reach: every bar's label inside the plot, every line in it.
    double hi = 1e-9;
    for (const auto& b : rows) {
        if (b.value) hi = std::max(hi, *b.value);
        if (b.published) hi = std::max(hi, b.published->tflops);
    }
    for (const auto& r : refs) hi = std::max(hi, r.value);
    hi *= 1.03;
    const auto px_at = [&](double v, double top) { return plot.x + v / top * plot.w; };
    const auto row_right = [&](const bar_row& b, double top) {
        double right = plot.x + 6;
        if (b.value) right = std::max(right, px_at(*b.value, top));
        if (b.published)
            right = std::max(
                right, px_at(b.published->tflops, top) + diamond_radius + 4 +
                           measure(fmt::format("{:g}", b.published->tflops), bar_label_px, true));
        return right + label_gap + measure(b.text, bar_label_px, false);
    };
    for (int i = 0; i < 200; ++i) {
        const bool fits = std::all_of(rows.begin(), rows.end(), [&](const bar_row& b) {
            return row_right(b, hi) <= plot.right() - 6;
        });
        if (fits) break;
        hi *= 1.04;
    }
    chart_panel pn;
    pn.plot = plot;
    pn.x = linear_axis(c.predicted ? "TFLOP/s (2MNK), predicted" : "TFLOP/s (2MNK)", hi);
    pn.y.scale = scale_kind::linear;
    pn.y.min = 0;
    pn.y.max = 1;
    const double top = pn.x.max;

    // Ticks and the axis title.
    for (const auto& t : pn.x.major) {
        auto l = make_label(t.label, chart_tick_px, false, text_role::tick, measure);
        l.box.x = pn.to_px({t.value, 0}).x - l.box.w / 2;
        l.box.y = plot.bottom() + 8;
        c.labels.push_back(std::move(l));
    }
    {
        auto l = make_label(pn.x.title, chart_axis_title_px, false, text_role::axis_title, measure);
        l.box.x = plot.x + (plot.w - l.box.w) / 2;
        l.box.y = plot.bottom() + 8 + line_box_height(chart_tick_px) + 6;
        c.labels.push_back(std::move(l));
    }

    // Bars, names, labels and published diamonds, row by row from the top.
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& b = rows[i];
        const double cy = plot.y + (static_cast<double>(i) + 0.5) * pitch;
        auto n = make_label(b.rung, name_px, false, text_role::tick, measure);
        n.colour_tone = tone::rung;
        n.colour = b.colour;
        n.box.x = plot.x - 10 - n.box.w;
        n.box.y = cy - n.box.h / 2;
        c.labels.push_back(std::move(n));

        double right = plot.x + 6;
        if (b.value) {
            chart_bar bar;
            bar.rung = b.rung;
            bar.series = std::string(c.predicted ? series::predicted : series::measured);
            bar.colour = b.colour;
            bar.fill = c.predicted ? bar_fill::hollow : bar_fill::solid;
            bar.dashed = c.predicted;
            bar.value = *b.value;
            bar.box = {plot.x, cy - bar_h / 2, px_at(*b.value, top) - plot.x, bar_h};
            right = std::max(right, bar.box.right());
            c.bars.push_back(std::move(bar));
        }
        if (b.published) {
            chart_marker m;
            m.rung = b.rung;
            m.series = std::string(series::published);
            m.at = {px_at(b.published->tflops, top), cy};
            m.value = b.published->tflops;
            m.glyph = marker_shape::diamond;
            m.colour_tone = tone::ink;
            m.radius_px = diamond_radius;
            c.markers.push_back(m);
            auto v = make_label(fmt::format("{:g}", b.published->tflops), bar_label_px, true,
                                text_role::point, measure);
            v.box.x = m.at.x + diamond_radius + 4;
            v.box.y = cy - v.box.h / 2;
            v.backdrop = true;
            right = std::max(right, v.box.right());
            c.labels.push_back(std::move(v));
        }
        auto t = make_label(b.text, bar_label_px, false, text_role::point, measure);
        t.box.x = right + label_gap;
        t.box.y = cy - t.box.h / 2;
        t.backdrop = true;
        if (!b.value) t.colour_tone = tone::muted;
        c.labels.push_back(std::move(t));
    }

    // Reference lines across the plot, labelled in the band above it.
    label_placer placer(c.labels);
    const rect band{chart_margin, plot.y - ref_band, c.width - 2 * chart_margin, ref_band - 2};
    for (const auto& r : refs) {
        chart_line l;
        l.name = r.name;
        l.series = "reference";
        l.colour_tone = r.t;
        l.dashed = r.dashed;
        l.width_px = r.name == "cuBLAS" ? 2.2 : 2.6;
        const double x = px_at(r.value, top);
        l.points = {{x, plot.y}, {x, plot.bottom()}};
        c.lines.push_back(l);
        auto t = make_label(r.text, chart_text_px, r.name == "cuBLAS", text_role::roof, measure);
        t.colour_tone = r.t;
        const double w = t.box.w;
        const double h = t.box.h;
        std::vector<rect> candidates;
        for (const double row_y : {plot.y - h - 3, plot.y - 2 * h - 6})
            for (const double left : {x - w / 2, x - w + 4, x - 4, x - w - 6, x + 6})
                candidates.push_back({left, row_y, w, h});
        (void)placer.place(std::move(t), candidates, band);
    }

    c.panels.push_back(std::move(pn));
    place_notes(c, chart_margin, plot.bottom() + below, c.width - 2 * chart_margin, measure);
    return c;
}

}  // namespace tgemm::render
