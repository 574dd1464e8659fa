#include "render/tflops_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "analysis/published.hpp"
#include "render/axis_labels.hpp"
#include "render/chart_legend.hpp"
#include "render/label_placer.hpp"
#include "render/layout_text.hpp"
#include "render/names.hpp"
#include "render/report_sections.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

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

// "FP32 compute", "DRAM", "L2", "shared memory": the roof that bounds a rung.
std::string bound_name(std::string_view key) {
    return key == roofs::fp32 ? std::string("FP32 compute") : roof_table_name(key);
}

std::string tflops_text(double v) {
    return fmt::format("{:.1f} TFLOP/s", v);
}

// One rung's bar: its value, the words beside it, and a published point where there is one.
struct bar_row {
    std::string rung;
    int colour = 0;
    std::optional<double> value;  // TFLOP/s of 2MNK
    std::string text;             // the bar's label
    std::optional<published_point> published;
};

// Everything the chart shows, declared before any of it is placed.
struct tflops_decl {
    std::optional<shape> focus;
    bool predicted = false;
    std::vector<bar_row> rows;  // ladder order, top to bottom
    std::vector<reference_line> references;
    std::vector<published_point> published;
    int cublas_lines = 0;  // timed cuBLAS rows at the focus (a prediction times nothing)
    // The compute roofs the rows are judged against beyond FP32 ("tensor_bf16", ...): drawn,
    // and named in the legend and the notes.
    std::vector<std::string> tensor_roofs;
    bool fp32_measured = false;
    bool tensor_measured = false;
};

// "BF16": how the chart names an input type.
std::string dtype_word(std::string_view dtype) {
    std::string out(dtype);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    return out;
}

// What a row's cuBLAS reference is called: "cuBLAS" for FP32 (the FP32 ladder's word), else
// "cuBLAS BF16".
std::string reference_name(std::string_view dtype) {
    return compute_roof_key(dtype) == roofs::fp32 ? std::string("cuBLAS")
                                                  : "cuBLAS " + dtype_word(dtype);
}

// A predicted bar stands at the bounding roof; a measured one at the timed rate, against the
// cuBLAS row of its own input type.
bar_row declare_row(const row_analysis& r, const std::string& rung, int colour, bool predicted) {
    bar_row b{rung, colour, {}, {}, {}};
    const auto& dtype = r.row->dtype;
    if (predicted) {
        if (const auto v = predicted_tflops(r)) {
            b.value = *v / 1e12;
            b.text = fmt::format("predicted {} · bound: {}", tflops_text(*b.value),
                                 bound_name(r.bound_roof));
        } else {
            b.text = fmt::format("{} no prediction (the refined model gives no FLOPs)", dash);
        }
    } else if (r.tflops) {
        b.value = r.tflops;
        const bool fp32 = compute_roof_key(dtype) == roofs::fp32;
        if (is_reference_kernel(rung))
            b.text = fmt::format("{} · the {}reference", tflops_text(*b.value),
                                 fp32 ? std::string() : fmt::format("{} ", dtype_word(dtype)));
        else if (r.pct_cublas)
            b.text = fmt::format("{} · {:.0f} % of {}", tflops_text(*b.value), *r.pct_cublas * 100,
                                 reference_name(dtype));
        else
            b.text = tflops_text(*b.value);
    } else {
        b.text = fmt::format("{} not timed", dash);
    }
    return b;
}

reference_line make_reference(std::string name, double value, bool dashed, tone t, std::string text,
                              bool cublas) {
    return reference_line{.name = std::move(name),
                          .value = value,
                          .colour_tone = t,
                          .dashed = dashed,
                          .width_px = cublas ? 2.2 : 2.6,
                          .text = std::move(text),
                          .role = text_role::roof,
                          .bold = cublas};
}

// One compute roof line before it becomes a reference line.
struct roof_mark {
    std::string label;  // "FP32", "BF16 tensor", "BF16/FP16 tensor"
    double value = 0;   // TFLOP/s
    bool theoretical = true;
    bool tensor = false;
};

// A compute roof's lines: theoretical, and measured where it ran. A tensor roof at the value
// of one already declared (BF16 and FP16 share the hardware) joins that line: "BF16/FP16 tensor".
void declare_roof(std::vector<roof_mark>& marks, const profile& p, std::string_view key) {
    const auto it = p.peaks.find(key);
    if (it == p.peaks.end()) return;
    const bool tensor = key != roofs::fp32;
    const auto label = roof_name(key);
    constexpr std::string_view suffix = " tensor";
    const auto type = std::string_view(label).substr(0, label.find(suffix));  // "FP16"
    const auto add = [&](double value, bool theoretical) {
        for (auto& m : marks)
            if (tensor && m.tensor && m.value == value && m.theoretical == theoretical &&
                m.label.ends_with(suffix)) {
                const auto types = std::string_view(m.label).substr(0, m.label.find(suffix));
                m.label = fmt::format("{}/{}{}", types, type, suffix);
                return;
            }
        marks.push_back({label, value, theoretical, tensor});
    };
    add(it->second.theoretical / 1e12, true);
    if (it->second.measured) add(*it->second.measured / 1e12, false);
}

// The cuBLAS row of each input type at the focus (ladder order), then the FP32 roof and the
// tensor roofs the rows use: theoretical dashed, measured solid.
std::vector<reference_line> declare_references(const analysis& a, const tflops_decl& d) {
    std::vector<reference_line> refs;
    if (!d.predicted && d.focus)
        for (const auto* r : rows_at(a, *d.focus))
            if (is_reference_kernel(r->row->kernel) && r->tflops &&
                r->row->kernel == reference_kernel(r->row->dtype)) {
                const auto name = reference_name(r->row->dtype);
                refs.push_back(make_reference(name, *r->tflops, false, tone::ink,
                                              fmt::format("{} {}", name, tflops_text(*r->tflops)),
                                              true));
            }
    std::vector<roof_mark> marks;
    declare_roof(marks, *a.source, roofs::fp32);
    for (const auto& key : d.tensor_roofs) declare_roof(marks, *a.source, key);
    for (const auto& m : marks) {
        const auto text =
            m.theoretical ? fmt::format("{} peak {} (theoretical)", m.label, tflops_text(m.value))
                          : fmt::format("{} measured {}", m.label, tflops_text(m.value));
        refs.push_back(make_reference(
            fmt::format("{} {}", m.label, m.theoretical ? "theoretical" : "measured"), m.value,
            m.theoretical, tone::muted, text, false));
    }
    return refs;
}

// The tensor roofs the rows at the focus are judged against, in the rooflines' order.
std::vector<std::string> tensor_roofs_at(const analysis& a, const shape& focus) {
    std::vector<std::string> out;
    const auto rows = rows_at(a, focus);
    for (const auto key : {roofs::tensor_tf32, roofs::tensor_fp16, roofs::tensor_bf16})
        if (std::any_of(rows.begin(), rows.end(),
                        [&](const row_analysis* r) { return r->compute_roof == key; }))
            out.emplace_back(key);
    return out;
}

tflops_decl declare(const analysis& a, bool predicted) {
    tflops_decl d;
    d.focus = a.focus_size();
    d.predicted = predicted;
    if (predicted) d.published = published_points(a.source->gpu.key);
    if (d.focus) d.tensor_roofs = tensor_roofs_at(a, *d.focus);
    const auto measured = [&](std::string_view key) {
        const auto it = a.source->peaks.find(key);
        return it != a.source->peaks.end() && it->second.measured.has_value();
    };
    d.fp32_measured = measured(roofs::fp32);
    d.tensor_measured = std::any_of(d.tensor_roofs.begin(), d.tensor_roofs.end(), measured);
    const auto rungs = coloured_rungs(a);
    for (const auto& k : rungs) {
        const auto* r = d.focus ? a.find(k, *d.focus) : nullptr;
        if (!r) continue;
        auto b = declare_row(*r, k, rung_colour(rungs, k), predicted);
        for (const auto& pp : d.published)
            if (pp.kernel == k) b.published = pp;
        d.rows.push_back(std::move(b));
    }
    d.references = declare_references(a, d);
    d.cublas_lines = static_cast<int>(
        std::count_if(d.references.begin(), d.references.end(),
                      [](const reference_line& r) { return r.colour_tone == tone::ink; }));
    return d;
}

// Where each published source is named, and why a published point is not drawn.
void published_notes(const tflops_decl& d, std::vector<std::string>& notes) {
    std::vector<std::string> sources;
    for (const auto& pp : d.published)
        if (std::find(sources.begin(), sources.end(), std::string(pp.source)) == sources.end())
            sources.emplace_back(pp.source);
    for (const auto& s : sources) notes.push_back(fmt::format("◆ Published: {}.", s));
    for (const auto& pp : d.published) {
        const bool drawn = std::any_of(d.rows.begin(), d.rows.end(), [&](const bar_row& b) {
            return b.published && b.published->kernel == pp.kernel;
        });
        if (!drawn)
            notes.push_back(fmt::format("Published {} ({}): no such rung in this profile.",
                                        pp.published_name, pp.kernel));
        else if (d.focus && !(pp.size == *d.focus))
            notes.push_back(fmt::format("Published {} is at {}, not {}.", pp.published_name,
                                        to_string(pp.size), to_string(*d.focus)));
    }
}

std::vector<std::string> declare_notes(const tflops_decl& d, const profile& p) {
    std::vector<std::string> notes;
    const bool tensor = !d.tensor_roofs.empty();
    if (d.focus)
        notes.push_back(fmt::format(
            "TFLOP/s counts 2MNK useful FLOPs at {}, as cuBLAS and the published numbers do{}.",
            to_string(*d.focus),
            d.predicted ? ""
            : tensor    ? "; measured from the median time; % of cuBLAS is against the cuBLAS "
                          "row of the rung's input type (cublas for FP32, cublas_bf16 for BF16, "
                          "…) at the same size"
                        : "; measured from the median time; % of cuBLAS is against cuBLAS's "
                          "TFLOP/s at the same size"));
    if (d.predicted)
        notes.emplace_back(
            "Predicted = the bounding roof (the lowest of the FP32 roof and every level's "
            "refined-model AI × its bandwidth at the spec's peaks), scaled by useful / executed "
            "FLOPs. A bound, not a forecast of the time.");
    if (const auto it = p.peaks.find(roofs::fp32); it != p.peaks.end() && !it->second.measured)
        notes.emplace_back(
            "FP32 roof: theoretical only (dashed); the profile has no measured FP32 peak.");
    for (const auto& key : d.tensor_roofs)
        if (const auto it = p.peaks.find(key); it != p.peaks.end() && !it->second.measured)
            notes.push_back(fmt::format(
                "{0} roof: theoretical only (dashed); the profile has no measured {0} peak.",
                roof_name(key)));
    published_notes(d, notes);
    if (d.focus)
        for (const auto& m : p.measurements)
            if (m.skipped && m.size == *d.focus)
                notes.push_back(fmt::format("{}: skipped: {}", m.kernel, *m.skipped));
    if (d.rows.empty()) notes.emplace_back("The profile has no rows to chart.");
    return notes;
}

std::vector<legend_entry> declare_legend(const tflops_decl& d) {
    const auto glyph = [](legend_glyph_kind kind, tone t, bool dashed) {
        legend_glyph g;
        g.kind = kind;
        g.colour_tone = t;
        g.dashed = dashed;
        return g;
    };
    auto bar = glyph(legend_glyph_kind::bar, tone::muted, d.predicted);
    bar.fill = d.predicted ? bar_fill::hollow : bar_fill::solid;
    std::vector<legend_entry> entries = {{bar, d.predicted
                                                   ? "predicted: bounding roof (PREDICTED)"
                                                   : "measured TFLOP/s (median of timed runs)"}};
    if (d.cublas_lines > 0)
        entries.push_back({glyph(legend_glyph_kind::line, tone::ink, false),
                           d.cublas_lines > 1 ? "cuBLAS, one line per input type" : "cuBLAS"});
    // With tensor rows the grey lines are FP32 and tensor roofs; their labels say which.
    const bool tensor = !d.tensor_roofs.empty();
    entries.push_back({glyph(legend_glyph_kind::line, tone::muted, true),
                       tensor ? "FP32 and tensor roofs, theoretical" : "FP32 roof, theoretical"});
    if (d.fp32_measured || d.tensor_measured)
        entries.push_back({glyph(legend_glyph_kind::line, tone::muted, false),
                           tensor ? "FP32 and tensor roofs, measured" : "FP32 roof, measured"});
    if (!d.published.empty()) {
        auto diamond = glyph(legend_glyph_kind::marker, tone::ink, false);
        diamond.glyph = marker_shape::diamond;
        entries.push_back({diamond, "published (source in the notes)"});
    }
    return entries;
}

// Pixels at TFLOP/s `v` on an axis from 0 to `top`.
double px_at(const rect& plot, double v, double top) {
    return plot.x + v / top * plot.w;
}

std::string published_text(const published_point& pp) {
    return fmt::format("{:g}", pp.tflops);
}

// How far right a row's bar, diamond and words reach on an axis up to `top`.
double row_right(const bar_row& b, const rect& plot, double top, const text_width_fn& measure) {
    double right = plot.x + 6;
    if (b.value) right = std::max(right, px_at(plot, *b.value, top));
    if (b.published)
        right = std::max(right, px_at(plot, b.published->tflops, top) + diamond_radius + 4 +
                                    measure(published_text(*b.published), bar_label_px, true));
    return right + label_gap + measure(b.text, bar_label_px, false);
}

// The widest the axis must reach: every bar's words inside the plot, every line in it.
double axis_reach(const tflops_decl& d, const rect& plot, const text_width_fn& measure) {
    double hi = 1e-9;
    for (const auto& b : d.rows) {
        if (b.value) hi = std::max(hi, *b.value);
        if (b.published) hi = std::max(hi, b.published->tflops);
    }
    for (const auto& r : d.references) hi = std::max(hi, r.value);
    hi *= 1.03;
    for (int i = 0; i < 200; ++i) {
        const bool fits = std::all_of(d.rows.begin(), d.rows.end(), [&](const bar_row& b) {
            return row_right(b, plot, hi, measure) <= plot.right() - 6;
        });
        if (fits) break;
        hi *= 1.04;
    }
    return hi;
}

// The published point of a row: a diamond at its TFLOP/s and the value beside it. Returns the
// right end of the value.
double place_published(chart& c, const bar_row& b, const rect& plot, double top, double cy,
                       const text_width_fn& measure) {
    chart_marker m;
    m.rung = b.rung;
    m.kind = marker_kind::published;
    m.at = {px_at(plot, b.published->tflops, top), cy};
    m.value = b.published->tflops;
    m.glyph = marker_shape::diamond;
    m.colour_tone = tone::ink;
    m.radius_px = diamond_radius;
    c.markers.push_back(m);
    auto v =
        make_label(published_text(*b.published), bar_label_px, true, text_role::point, measure);
    v.box.x = m.at.x + diamond_radius + 4;
    v.box.y = cy - v.box.h / 2;
    v.backdrop = true;
    const double right = v.box.right();
    c.labels.push_back(std::move(v));
    return right;
}

// One row centred on `cy`: the rung's name left of the plot, its bar, its published point and
// its words after whichever reaches furthest.
void place_row(chart& c, const bar_row& b, double cy, double bar_h, const text_width_fn& measure) {
    const auto& pn = c.panels.front();
    const rect& plot = pn.plot;
    const double top = pn.x.max;
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
        bar.kind = c.predicted ? marker_kind::refined : marker_kind::measured;
        bar.colour = b.colour;
        bar.fill = c.predicted ? bar_fill::hollow : bar_fill::solid;
        bar.dashed = c.predicted;
        bar.value = *b.value;
        bar.box = {plot.x, cy - bar_h / 2, px_at(plot, *b.value, top) - plot.x, bar_h};
        right = std::max(right, bar.box.right());
        c.bars.push_back(std::move(bar));
    }
    if (b.published) right = std::max(right, place_published(c, b, plot, top, cy, measure));
    auto t = make_label(b.text, bar_label_px, false, text_role::point, measure);
    t.box.x = right + label_gap;
    t.box.y = cy - t.box.h / 2;
    t.backdrop = true;
    if (!b.value) t.colour_tone = tone::muted;
    c.labels.push_back(std::move(t));
}

// A reference label's places, best first: centred on its line, then beside it, in the row just
// above the plot, then in each row above that.
std::vector<rect> reference_candidates(double x, double w, double h, double plot_y, int rows) {
    std::vector<rect> out;
    for (int i = 1; i <= rows; ++i)
        for (const double left : {x - w / 2, x - w + 4, x - 4, x - w - 6, x + 6})
            out.push_back({left, plot_y - i * (h + 3), w, h});
    return out;
}

// The band above the plot for `rows` rows of reference labels.
double reference_band(int rows) {
    return rows * (line_box_height(chart_text_px) + 3) + 4;
}

// How many rows the reference labels need, at least two: the FP32 ladder's cuBLAS and roof
// labels fit in two; with tensor rows the cuBLAS line of each type and the tensor roofs join,
// and a label must never be dropped for want of room.
int reference_rows(const tflops_decl& d, const axis& x, const rect& plot, double canvas_w,
                   const text_width_fn& measure) {
    const int most = std::max(2, static_cast<int>(d.references.size()));
    for (int rows = 2;; ++rows) {
        std::vector<label> placed;
        label_placer placer(placed);
        const rect band{chart_margin, plot.y - reference_band(rows), canvas_w - 2 * chart_margin,
                        reference_band(rows) - 2};
        bool all = true;
        for (const auto& r : d.references) {
            auto t = reference_label(r, measure);
            const double at = plot.x + x.fraction(r.value) * plot.w;
            const auto boxes = reference_candidates(at, t.box.w, t.box.h, plot.y, rows);
            all = placer.place(std::move(t), boxes, band) && all;
        }
        if (all || rows >= most) return rows;
    }
}

// Each reference line across the plot, its words in the band above the plot, clear of each
// other.
void place_references(chart& c, const tflops_decl& d, const rect& band, int rows,
                      const text_width_fn& measure) {
    const rect plot = c.panels.front().plot;
    label_placer placer(c.labels);
    for (const auto& r : d.references) {
        const double x = add_reference_line(c, 0, r, true);
        auto t = reference_label(r, measure);
        const auto candidates = reference_candidates(x, t.box.w, t.box.h, plot.y, rows);
        (void)placer.place(std::move(t), candidates, band);
    }
}

}  // namespace

chart layout_tflops(const analysis& a, const chart_options& opts) {
    const auto focus = a.focus_size();
    chart c = start_chart(a, chart_kind::tflops, "layout_tflops", "TFLOP/s per kernel vs cuBLAS",
                          focus ? " at " + to_string(*focus) : std::string());
    const auto& measure = opts.measure;
    const auto d = declare(a, c.predicted);
    c.notes = declare_notes(d, *a.source);

    // The canvas: rung names left of the plot, the reference labels in a band above it.
    double name_w = 0;
    for (const auto& b : d.rows) name_w = std::max(name_w, measure(b.rung, name_px, false));
    const double gutter = name_w + 14;
    c.width = std::max(opts.width, 2 * chart_margin + gutter + min_plot_w);
    const double y =
        place_legend_row(c, declare_legend(d), place_titles(c, measure) + 8, 10, measure);
    // TFLOP/s across: the axis depends on the plot's width only, the band above it on the axis.
    rect plot{chart_margin + gutter, 0, c.width - 2 * chart_margin - gutter, 0};
    const auto x = make_linear_axis(c.predicted ? "TFLOP/s (2MNK), predicted" : "TFLOP/s (2MNK)",
                                    axis_reach(d, plot, measure));
    const int ref_rows = reference_rows(d, x, plot, c.width, measure);
    const double ref_band = reference_band(ref_rows);
    const double notes_h = notes_height(c.notes, c.width - 2 * chart_margin, {}, measure);
    const double below = x_axis_band();
    const auto n_rows = static_cast<double>(std::max<std::size_t>(d.rows.size(), 1));
    plot.h =
        std::max(n_rows * min_pitch, opts.height - y - ref_band - below - notes_h - chart_margin);
    plot.y = y + ref_band;
    c.height = std::max(opts.height, y + ref_band + plot.h + below + notes_h + chart_margin);

    // The rows down a unit axis.
    chart_panel pn;
    pn.plot = plot;
    pn.x = x;
    pn.y.scale = scale_kind::linear;
    pn.y.min = 0;
    pn.y.max = 1;
    c.panels.push_back(std::move(pn));
    place_axis_labels(c.labels, plot, c.panels[0].x, c.panels[0].y, {}, measure);

    const double pitch = plot.h / n_rows;
    const double bar_h = std::min(max_bar_h, pitch * 0.62);
    for (std::size_t i = 0; i < d.rows.size(); ++i)
        place_row(c, d.rows[i], plot.y + (static_cast<double>(i) + 0.5) * pitch, bar_h, measure);
    place_references(c, d,
                     {chart_margin, plot.y - ref_band, c.width - 2 * chart_margin, ref_band - 2},
                     ref_rows, measure);
    place_notes(c.labels, c.notes, {chart_margin, plot.bottom() + below},
                c.width - 2 * chart_margin, {}, measure);
    return c;
}

}  // namespace tgemm::render
