#include "render/roofline_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/published.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "render/axis_labels.hpp"
#include "render/format.hpp"
#include "render/names.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {

namespace {

constexpr double margin = 28;
constexpr double tick_px = 15;
constexpr double axis_title_px = 17;
constexpr double min_plot_w = 880;
// Each decade of x keeps the width the FP32 ladder's four decades had in min_plot_w: the tensor
// roofs add a decade right of their ridge, and squeezing it in would crowd the markers and
// labels of every rung.
constexpr double min_decade_w = min_plot_w / 4;
constexpr double min_plot_h = 520;
constexpr double panel_gap = 48;
constexpr double min_panel_w = 360;
constexpr double tick_gap = 12;  // between the plot's edge and its tick labels

}  // namespace

std::string_view tensor_roof_key(std::string_view dtype) {
    if (dtype == "tf32") return roofs::tensor_tf32;
    if (dtype == "fp16") return roofs::tensor_fp16;
    if (dtype == "bf16") return roofs::tensor_bf16;
    return {};
}

namespace {

// Tensor roofs of one value and source (FP16 and BF16 run on the same hardware) would be drawn
// on top of each other and fight for one place for their labels: they become one line, named
// for both ("FP16/BF16 tensor"), keeping the first one's key.
void merge_equal_tensor_roofs(std::vector<roof_spec>& rs) {
    constexpr std::string_view suffix = " tensor";
    const auto type = [&](const std::string& name) {
        return std::string_view(name).substr(0, name.find(suffix));
    };
    for (std::size_t i = 0; i < rs.size(); ++i) {
        if (rs[i].key == roofs::fp32 || !rs[i].name.ends_with(suffix)) continue;
        for (std::size_t j = i + 1; j < rs.size();) {
            const auto& o = rs[j];
            if (o.key != roofs::fp32 && o.name.ends_with(suffix) && o.source == rs[i].source &&
                o.value == rs[i].value) {
                rs[i].name = fmt::format("{}/{}{}", type(rs[i].name), type(o.name), suffix);
                rs.erase(rs.begin() + static_cast<std::ptrdiff_t>(j));
            } else {
                ++j;
            }
        }
    }
}

}  // namespace

std::vector<roof_spec> collect_roofs(const analysis& a,
                                     std::span<const std::string_view> memory_keys) {
    if (!a.source) TGEMM_THROW(internal, "collect_roofs: the analysis has no profile");
    const profile& p = *a.source;
    std::vector<roof_spec> out;
    const auto add = [&](std::string_view key, roof_kind kind) {
        const auto it = p.peaks.find(key);
        if (it == p.peaks.end()) return;
        out.push_back({std::string(key), roof_name(key), kind, roof_source::theoretical,
                       it->second.theoretical});
        if (it->second.measured)
            out.push_back({std::string(key), roof_name(key), kind, roof_source::measured,
                           *it->second.measured});
    };
    if (!p.peaks.contains(roofs::fp32))
        TGEMM_THROW(input, "cannot plot a roofline without an FP32 roof in the profile");
    add(roofs::fp32, roof_kind::compute);
    // Tensor roofs only where some row runs on tensor cores, in a fixed order.
    std::vector<std::string_view> tensor_keys;
    for (const std::string_view dtype : {"tf32", "fp16", "bf16"}) {
        const bool used = std::any_of(a.rows.begin(), a.rows.end(),
                                      [&](const row_analysis& r) { return r.row->dtype == dtype; });
        if (!used) continue;
        auto key = tensor_roof_key(dtype);
        if (!p.peaks.contains(key) && dtype == "bf16") key = roofs::tensor_fp16;
        if (p.peaks.contains(key) &&
            std::find(tensor_keys.begin(), tensor_keys.end(), key) == tensor_keys.end())
            tensor_keys.push_back(key);
    }
    for (const auto key : tensor_keys) add(key, roof_kind::compute);
    merge_equal_tensor_roofs(out);
    for (const auto key : memory_keys) add(key, roof_kind::memory);
    return out;
}

bool any_measured(const std::vector<roof_spec>& rs) {
    return std::any_of(rs.begin(), rs.end(),
                       [](const roof_spec& r) { return r.source == roof_source::measured; });
}

std::vector<double> bandwidths_for(const std::vector<roof_spec>& rs, roof_source source) {
    std::vector<double> out;
    std::vector<std::string> seen;
    for (const auto& r : rs) {
        if (r.kind != roof_kind::memory) continue;
        if (std::find(seen.begin(), seen.end(), r.key) != seen.end()) continue;
        seen.push_back(r.key);
        double bw = 0;
        for (const auto& o : rs) {
            if (o.kind != roof_kind::memory || o.key != r.key) continue;
            if (o.source == source) {
                bw = o.value;
                break;
            }
            if (o.source == roof_source::theoretical) bw = o.value;
        }
        out.push_back(bw);
    }
    return out;
}

double ridge_bandwidth(const std::vector<roof_spec>& rs, roof_source source) {
    const auto bws = bandwidths_for(rs, source);
    return bws.empty() ? 0 : *std::max_element(bws.begin(), bws.end());
}

double top_compute(const std::vector<roof_spec>& rs, roof_source source) {
    double own = 0;
    double theoretical = 0;
    for (const auto& r : rs) {
        if (r.kind != roof_kind::compute) continue;
        if (r.source == source) own = std::max(own, r.value);
        if (r.source == roof_source::theoretical) theoretical = std::max(theoretical, r.value);
    }
    return own > 0 ? own : theoretical;
}

std::string roof_label(const roof_spec& r) {
    const auto unit = r.kind == roof_kind::compute ? "FLOP/s" : "B/s";
    if (r.source == roof_source::measured)
        return fmt::format("{} measured {}", r.name, format_si(r.value, unit));
    if (r.kind == roof_kind::compute)
        return fmt::format("{} peak {} (theoretical)", r.name, format_si(r.value, unit));
    return fmt::format("{} {} (theoretical)", r.name, format_si(r.value, unit));
}

void data_extent::add(point p) {
    x_lo = std::min(x_lo, p.x);
    x_hi = std::max(x_hi, p.x);
    y_lo = std::min(y_lo, p.y);
    // A point above every roof is a finding in itself (clocks above the spec, a wrong
    // counter): it must stay on the canvas.
    y_hi = std::max(y_hi, p.y);
}

void fit_axes(scene& s, const std::vector<roof_spec>& rs, const data_extent& e,
              std::string x_title) {
    double x_lo = e.x_lo, x_hi = e.x_hi, y_lo = e.y_lo, y_top = e.y_hi;
    for (const auto& r : rs) {
        if (r.kind != roof_kind::compute) continue;
        y_top = std::max(y_top, r.value);
        for (const double bw : bandwidths_for(rs, r.source)) {
            if (!(bw > 0)) continue;
            const double ridge = r.value / bw;
            x_lo = std::min(x_lo, ridge);
            x_hi = std::max(x_hi, ridge * 8);
        }
    }
    s.x = make_log_axis(std::move(x_title), x_lo / 1.6, x_hi * 1.6, 0);
    s.y = make_log_axis("Performance (TFLOP/s, log scale)", std::min(y_lo / 1.6, y_top / 300),
                        y_top * 1.4, 12);
}

std::vector<roof_line> make_roof_lines(const scene& s, const std::vector<roof_spec>& rs) {
    std::vector<roof_line> out;
    for (const auto& r : rs) {
        roof_line l;
        l.key = r.key;
        l.kind = r.kind;
        l.source = r.source;
        l.value = r.value;
        l.label = roof_label(r);
        l.dashed = r.source == roof_source::theoretical;
        if (r.kind == roof_kind::compute) {
            l.from = {r.value / ridge_bandwidth(rs, r.source), r.value};
            l.to = {s.x.max, r.value};
        } else {
            const double top = top_compute(rs, r.source);
            const double x0 = std::max(s.x.min, s.y.min / r.value);
            l.from = {x0, x0 * r.value};
            l.to = {top / r.value, top};
        }
        out.push_back(l);
    }
    return out;
}

scene start_scene(const profile& p, std::string_view subject, std::string_view qualifier) {
    scene s;
    start_picture(s, p, subject, qualifier,
                  "Every point comes from the analytic models at the spec's peaks; nothing on "
                  "this plot was measured.");
    return s;
}

void add_legend_item(panel_content& c, swatch_kind kind, marker_shape glyph, bool filled,
                     bool dashed, std::string text) {
    swatch s;
    s.kind = kind;
    s.glyph = glyph;
    s.filled = filled;
    s.dashed = dashed;
    s.size = kind == swatch_kind::marker ? 7 : 12;
    c.legend.push_back({s, std::move(text)});
}

void add_roof_legend(panel_content& c, bool any_measured_roof) {
    add_legend_item(c, swatch_kind::line, marker_shape::circle, false, true,
                    "dashed line: theoretical roof (spec × clocks)");
    if (any_measured_roof)
        add_legend_item(c, swatch_kind::line, marker_shape::circle, false, false,
                        "solid line: measured roof");
}

void frame_scene(scene& s, const panel_content& c, const render_options& opts) {
    const auto& measure = opts.measure;
    // Title block.
    title_style style;
    style.line_gap = 6;
    style.after_title = 0;
    style.bold_warning = true;
    const double y =
        place_title_block(s.labels, s.title_lines, s.predicted, {margin, margin}, style, measure);
    const double top = y + 22;

    // Canvas: the plot takes what the panel leaves, and the canvas grows rather than squeeze.
    auto panel = layout_panel(c, measure, min_panel_w);
    s.table_header = c.table_header;
    double y_tick_w = 0;
    for (const auto& t : s.y.major) y_tick_w = std::max(y_tick_w, measure(t.label, tick_px, false));
    const double axis_title_h = line_box_height(axis_title_px);
    const double plot_left = margin + axis_title_h + 12 + y_tick_w + tick_gap;
    const double bottom_space = tick_gap + line_box_height(tick_px) + 12 + axis_title_h + margin;
    const double decades = std::log10(s.x.max / s.x.min);
    const double plot_w = std::max(min_plot_w, std::round(decades) * min_decade_w);
    // Whole pixels, so the PNG is exactly the scene's size.
    s.width =
        std::ceil(std::max(opts.width, plot_left + plot_w + panel_gap + panel.width + margin));
    s.height = std::ceil(
        std::max({opts.height, top + panel.height + margin, top + min_plot_h + bottom_space}));
    s.plot = {plot_left, top, s.width - margin - panel.width - panel_gap - plot_left,
              s.height - bottom_space - top};
    panel.shift(s.plot.right() + panel_gap, top);
    s.swatches = std::move(panel.swatches);
    for (auto& l : panel.labels) s.labels.push_back(std::move(l));

    // Ticks and axis titles.
    axis_label_style axis_text;
    axis_text.tick_px = tick_px;
    axis_text.title_px = axis_title_px;
    axis_text.x_tick_gap = tick_gap;
    axis_text.y_tick_gap = tick_gap;
    axis_text.x_title_gap = 12;
    axis_text.y_title_left = margin;
    place_axis_labels(s.labels, s.plot, s.x, s.y, axis_text, measure);
}

void add_points(scene& s, const std::vector<roof_spec>& rs, const point_set& pts,
                std::string x_title) {
    data_extent e;
    for (const auto& m : pts.markers) e.add(m.at);
    fit_axes(s, rs, e, std::move(x_title));
    s.roofs = make_roof_lines(s, rs);
    s.markers = pts.markers;
    s.arrows = pts.arrows;
    s.notes = pts.notes;
    s.table = pts.table;
}

marker marker_at(marker base, marker_kind kind, point at) {
    base.kind = kind;
    base.at = at;
    base.filled = kind == marker_kind::measured;
    base.dashed = kind == marker_kind::refined;
    return base;
}

arrow arrow_for(const marker& base, point from, point to, bool dashed) {
    arrow ar;
    ar.rung = base.rung;
    ar.size = base.size;
    ar.level = base.level;
    ar.from = from;
    ar.to = to;
    ar.colour = base.colour;
    ar.dashed = dashed;
    return ar;
}

void add_published(point_set& pts, const published_set& published) {
    pts.markers.insert(pts.markers.end(), published.markers.begin(), published.markers.end());
    pts.notes.insert(pts.notes.end(), published.notes.begin(), published.notes.end());
}

published_set collect_published(const analysis& a, std::optional<shape> focus, double radius_px) {
    published_set out;
    if (!a.source || a.source->source != profile_source::predicted) return out;
    const profile& p = *a.source;
    const auto points = published_points(p.gpu.key);
    if (points.empty()) return out;
    const auto kernels = coloured_rungs(a);
    std::vector<std::string> missing;
    for (const auto& pp : points) {
        if (focus && !(pp.size == *focus)) {
            missing.push_back(fmt::format("Published {} is at {}, not {}.", pp.published_name,
                                          to_string(pp.size), to_string(*focus)));
            continue;
        }
        const auto* r = a.find(pp.kernel, pp.size);
        const double ai = r ? r->ai_refined.value_or(r->ai_textbook) : 0;
        if (!r || !(ai > 0) || !(r->useful_flops > 0)) {
            missing.push_back(fmt::format(
                "Published {} ({}, {}): {}.", pp.published_name, pp.kernel, to_string(pp.size),
                r ? "no DRAM AI in the models" : "no such row in this profile"));
            continue;
        }
        marker mk;
        mk.rung = std::string(pp.kernel);
        mk.size = pp.size;
        mk.level = std::string(roofs::dram);
        mk.kind = marker_kind::published;
        mk.colour = rung_colour(kernels, pp.kernel);
        mk.glyph = marker_shape::diamond;
        mk.filled = true;
        mk.radius_px = radius_px;
        mk.value = pp.tflops;
        // Published TFLOP/s count 2MNK; the plot's axis counts executed FLOPs.
        const double executed = r->executed_flops.value_or(r->useful_flops);
        mk.at = {ai, pp.tflops * 1e12 * executed / r->useful_flops};
        // Published points that coincide (two kernels at one AI and rate) nest: each later one
        // smaller, drawn on top, so every colour shows.
        const auto same = [](double u, double v) { return std::abs(std::log10(u / v)) < 0.004; };
        for (const auto& o : out.markers)
            if (same(o.at.x, mk.at.x) && same(o.at.y, mk.at.y))
                mk.radius_px = std::min(mk.radius_px, o.radius_px * 0.55);
        out.markers.push_back(mk);
    }
    std::vector<std::string_view> sources;
    for (const auto& pp : points)
        if (std::find(sources.begin(), sources.end(), pp.source) == sources.end())
            sources.push_back(pp.source);
    for (const auto src : sources) out.notes.push_back(fmt::format("◆ Published: {}.", src));
    out.notes.insert(out.notes.end(), missing.begin(), missing.end());
    return out;
}

void add_published_legend(panel_content& c) {
    swatch s;
    s.kind = swatch_kind::marker;
    s.glyph = marker_shape::diamond;
    s.filled = true;
    s.outlined = true;
    s.colour_tone = tone::muted;
    s.size = 7;
    c.legend.push_back({s, "published measurement (source below)"});
}

}  // namespace tgemm::render
