#include "render/roofline_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/published.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "render/format.hpp"
#include "render/names.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {

namespace {

constexpr double margin = 28;
constexpr double title_px = 26;
constexpr double subtitle_px = 17;
constexpr double tick_px = 15;
constexpr double axis_title_px = 17;
constexpr double min_plot_w = 880;
constexpr double min_plot_h = 520;
constexpr double panel_gap = 48;
constexpr double min_panel_w = 360;
constexpr double tick_gap = 12;  // between the plot's edge and its tick labels
// Room between a roof's label and the roofs of other levels, so it reads as its own line's.
constexpr double roof_label_clearance = 6;

}  // namespace

std::string roof_name(std::string_view key) {
    if (key == roofs::l2) return "L2";
    if (key == roofs::smem) return "shared";
    if (key == roofs::tensor_fp16) return "FP16 tensor";
    if (key == roofs::tensor_bf16) return "BF16 tensor";
    return roof_display_name(key);
}

std::string_view tensor_roof_key(std::string_view dtype) {
    if (dtype == "tf32") return roofs::tensor_tf32;
    if (dtype == "fp16") return roofs::tensor_fp16;
    if (dtype == "bf16") return roofs::tensor_bf16;
    return {};
}

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

std::vector<std::string> title_lines(const profile& p, std::string_view subject,
                                     std::string_view qualifier) {
    return title_block(p, subject, qualifier,
                       "Every point comes from the analytic models at the spec's peaks; nothing "
                       "on this plot was measured.");
}

scene start_scene(const profile& p, std::string_view subject, std::string_view qualifier) {
    const bool predicted = p.source == profile_source::predicted;
    scene s;
    s.predicted = predicted;
    s.watermark = predicted ? "PREDICTED" : "";
    s.title_lines = title_lines(p, subject, qualifier);
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
    double y = margin;
    for (std::size_t i = 0; i < s.title_lines.size(); ++i) {
        const bool first = i == 0;
        const bool warning = s.predicted && (first || i == 2);
        auto l = make_label(
            s.title_lines[i], first ? title_px : subtitle_px, first || warning,
            first ? text_role::title : (warning ? text_role::warning : text_role::subtitle),
            measure);
        l.box.x = margin;
        l.box.y = y;
        l.colour_tone = warning ? tone::warning : (first ? tone::ink : tone::muted);
        y += l.box.h + 6;
        s.labels.push_back(std::move(l));
    }
    const double top = y + 22;

    // Canvas: the plot takes what the panel leaves, and the canvas grows rather than squeeze.
    auto panel = layout_panel(c, measure, min_panel_w);
    s.table_header = c.table_header;
    double y_tick_w = 0;
    for (const auto& t : s.y.major) y_tick_w = std::max(y_tick_w, measure(t.label, tick_px, false));
    const double axis_title_h = line_box_height(axis_title_px);
    const double plot_left = margin + axis_title_h + 12 + y_tick_w + tick_gap;
    const double bottom_space = tick_gap + line_box_height(tick_px) + 12 + axis_title_h + margin;
    // Whole pixels, so the PNG is exactly the scene's size.
    s.width =
        std::ceil(std::max(opts.width, plot_left + min_plot_w + panel_gap + panel.width + margin));
    s.height = std::ceil(
        std::max({opts.height, top + panel.height + margin, top + min_plot_h + bottom_space}));
    s.plot = {plot_left, top, s.width - margin - panel.width - panel_gap - plot_left,
              s.height - bottom_space - top};
    panel.shift(s.plot.right() + panel_gap, top);
    s.swatches = std::move(panel.swatches);
    for (auto& l : panel.labels) s.labels.push_back(std::move(l));

    // Ticks and axis titles.
    for (const auto& t : s.x.major) {
        auto l = make_label(t.label, tick_px, false, text_role::tick, measure);
        const double px = s.to_px({t.value, s.y.min}).x;
        l.box.x = px - l.box.w / 2;
        l.box.y = s.plot.bottom() + tick_gap;
        s.labels.push_back(std::move(l));
    }
    for (const auto& t : s.y.major) {
        auto l = make_label(t.label, tick_px, false, text_role::tick, measure);
        const double py = s.to_px({s.x.min, t.value}).y;
        l.box.x = s.plot.x - tick_gap - l.box.w;
        l.box.y = py - l.box.h / 2;
        s.labels.push_back(std::move(l));
    }
    {
        auto l = make_label(s.x.title, axis_title_px, false, text_role::axis_title, measure);
        l.box.x = s.plot.x + (s.plot.w - l.box.w) / 2;
        l.box.y = s.plot.bottom() + tick_gap + line_box_height(tick_px) + 12;
        s.labels.push_back(std::move(l));
    }
    {
        auto l = make_label(s.y.title, axis_title_px, false, text_role::axis_title, measure);
        const double len = l.box.w;
        l.rotated = true;
        l.box = {margin, s.plot.y + (s.plot.h - len) / 2, l.box.h, len};
        s.labels.push_back(std::move(l));
    }
}

rect plot_label_bounds(const scene& s) {
    return s.plot.inflated(-4);
}

void add_plot_obstacles(label_placer& placer, const scene& s) {
    for (const auto& m : s.markers) placer.add_obstacle(box_around(s.to_px(m.at), m.radius_px + 3));
    for (const auto& r : s.roofs) placer.add_segment(s.to_px(r.from), s.to_px(r.to));
    for (const auto& ar : s.arrows) placer.add_segment(s.to_px(ar.from), s.to_px(ar.to));
    for (const auto& rg : s.ridges) {
        const auto at = s.to_px({rg.ai, rg.flops});
        placer.add_obstacle(box_around(at, 6));
        placer.add_segment(at, {at.x, s.plot.bottom()});
    }
}

void place_roof_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                       double font_px) {
    const rect inside = plot_label_bounds(s);
    for (const auto& r : s.roofs) {
        auto l = make_label(r.label, font_px, false, text_role::roof, measure);
        l.backdrop = true;
        const auto a_px = s.to_px(r.from);
        const auto b_px = s.to_px(r.to);
        const bool prefer_above = r.source == roof_source::theoretical;
        std::vector<rect> above, below, across;
        const double w = l.box.w, h = l.box.h;
        if (r.kind == roof_kind::compute) {
            // Close to the line first; further off where markers sit on it (a predicted
            // profile puts every compute-bound rung on its roof).
            for (const double gap : {6.0, 14.0, 24.0})
                for (double shift = 0; b_px.x - 12 - shift - w >= a_px.x - w; shift += 40) {
                    const double right = b_px.x - 12 - shift;
                    above.push_back({right - w, b_px.y - gap - h, w, h});
                    below.push_back({right - w, b_px.y + gap, w, h});
                }
        } else {
            // The middle of the slope first, then outwards; finer steps last, for crowded
            // plots with several memory roofs side by side.
            for (const double t : {0.55, 0.45, 0.65, 0.35, 0.75, 0.25, 0.85, 0.15, 0.5, 0.6, 0.4,
                                   0.7, 0.3, 0.8, 0.2, 0.9, 0.1, 0.95, 0.05}) {
                const point at{a_px.x + t * (b_px.x - a_px.x), a_px.y + t * (b_px.y - a_px.y)};
                above.push_back({at.x - 6 - w, at.y - 6 - h, w, h});
                below.push_back({at.x + 6, at.y + 6, w, h});
            }
            // Centred on the line, its backdrop breaking the line: where parallel roofs leave
            // no room beside it. Fine steps from the middle outwards, to slip between markers.
            for (int i = 0; i <= 46; ++i) {
                const double t = 0.5 + (i % 2 == 0 ? 1 : -1) * 0.02 * ((i + 1) / 2);
                const point at{a_px.x + t * (b_px.x - a_px.x), a_px.y + t * (b_px.y - a_px.y)};
                across.push_back({at.x - w / 2, at.y - h / 2, w, h});
            }
        }
        auto beside = prefer_above ? above : below;
        const auto& rest = prefer_above ? below : above;
        beside.insert(beside.end(), rest.begin(), rest.end());
        // A label must read as its own line's: it keeps clear of the roofs of other levels
        // (its own level's other roof may be close: the text says which of the two it is).
        const auto clear_of = [&](const rect& box, bool arrows_too) {
            const auto wide = box.inflated(roof_label_clearance);
            // Arrows only need to stay outside the backdrop.
            const auto narrow = box.inflated(3);
            const auto hits = [&](point a, point b) { return segment_hits_rect(a, b, wide); };
            for (const auto& o : s.roofs)
                if (o.key != r.key && hits(s.to_px(o.from), s.to_px(o.to))) return false;
            if (arrows_too)
                for (const auto& ar : s.arrows)
                    if (segment_hits_rect(s.to_px(ar.from), s.to_px(ar.to), narrow)) return false;
            return true;
        };
        // Beside the line, then across it, clear of other levels and of arrows; then the same
        // crossing arrows; then anywhere.
        std::vector<rect> candidates;
        const auto take = [&](const std::vector<rect>& from, bool roofs_clear, bool arrows_clear) {
            for (const auto& c : from)
                if (clear_of(c, false) == roofs_clear &&
                    (!roofs_clear || clear_of(c, true) == arrows_clear))
                    candidates.push_back(c);
        };
        take(beside, true, true);
        take(across, true, true);
        take(beside, true, false);
        take(across, true, false);
        take(beside, false, false);
        placer.place(std::move(l), candidates, inside, true);
    }
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

void place_published_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                            double font_px) {
    const rect inside = plot_label_bounds(s);
    // Roofs and ridge lines a value must not cover; arrows it may, on its backdrop, rather
    // than move away from its diamond.
    std::vector<std::pair<point, point>> hard;
    for (const auto& r : s.roofs) hard.emplace_back(s.to_px(r.from), s.to_px(r.to));
    for (const auto& rg : s.ridges) {
        const auto at = s.to_px({rg.ai, rg.flops});
        hard.emplace_back(at, point{at.x, s.plot.bottom()});
    }
    const auto clear_of_hard = [&](const rect& c) {
        return std::none_of(hard.begin(), hard.end(), [&](const auto& seg) {
            return segment_hits_rect(seg.first, seg.second, c);
        });
    };
    const auto distance = [](const rect& b, point p) {
        const double dx = std::max({b.x - p.x, 0.0, p.x - b.right()});
        const double dy = std::max({b.y - p.y, 0.0, p.y - b.bottom()});
        return std::hypot(dx, dy);
    };
    std::vector<const marker*> published;
    for (const auto& m : s.markers)
        if (m.kind == marker_kind::published) published.push_back(&m);
    // Diamonds nested in one spot (coinciding points) share their surroundings.
    const auto gap_px = [&](const marker& a, const marker& b) {
        const auto pa = s.to_px(a.at), pb = s.to_px(b.at);
        return std::hypot(pa.x - pb.x, pa.y - pb.y);
    };
    const auto nested = [&](const marker& a, const marker& b) {
        return gap_px(a, b) < std::max(a.radius_px, b.radius_px) * 0.5;
    };

    // Each value's label and its candidate boxes.
    struct pending {
        label l;
        std::vector<rect> near;  // beside the diamond
        std::vector<rect> far;   // around it
        bool placed = false;
    };
    std::vector<pending> todo;
    for (const auto* m : published) {
        auto l = make_label(fmt::format("{:g} published", m->value), font_px, false,
                            text_role::point, measure);
        l.colour_tone = tone::rung;
        l.colour = m->colour;
        l.backdrop = true;
        const auto at = s.to_px(m->at);
        // How far the spot reaches: a diamond 1.2 × its radius, its obstacle box radius + 3.
        double r = 0;
        for (const auto* o : published)
            if (o == m || nested(*o, *m)) r = std::max({r, o->radius_px * 1.2, o->radius_px + 3});
        const double w = l.box.w, h = l.box.h;
        pending p{std::move(l), {}, {}};
        // Beside the diamond first, level with it, then a little higher or lower (published
        // points of one size often share the AI).
        // A whole step leaves 2 px, so values of nested diamonds stack without touching.
        for (const double dy : {0.0, -h / 2, h / 2, -h - 2, h + 2}) {
            p.near.push_back({at.x + r + 3, at.y - h / 2 + dy, w, h});
            p.near.push_back({at.x - r - 3 - w, at.y - h / 2 + dy, w, h});
        }
        // Then around it at increasing distance; above and below also flush with either side
        // of the diamond, for one near the plot's edge.
        for (const double gap : {r + 12, r + 26, r + 42, r + 62}) {
            const std::array<double, 1> g = {gap};
            const auto around = boxes_around(at, w, h, g);
            p.far.insert(p.far.end(), around.begin(), around.end());
            for (const double y : {at.y - gap - h, at.y + gap}) {
                p.far.push_back({at.x + r - w, y, w, h});
                p.far.push_back({at.x - r, y, w, h});
            }
        }
        // A box nearer another published diamond than its own would be read as that one's.
        const auto foreign = [&](const rect& b) {
            const double d = distance(b, at);
            return std::any_of(published.begin(), published.end(), [&](const marker* o) {
                return o != m && !nested(*o, *m) && distance(b, s.to_px(o->at)) < d;
            });
        };
        std::erase_if(p.near, foreign);
        std::erase_if(p.far, foreign);
        todo.push_back(std::move(p));
    }

    // A box is usable when clear of every label and marker and of the roofs and ridge lines;
    // it may cross an arrow, on its backdrop, rather than move away from its diamond.
    const auto usable = [&](const rect& c) {
        return placer.is_free(c, inside, false) && clear_of_hard(c);
    };
    // The most constrained first: the value with the fewest usable boxes beside its diamond
    // (one at the plot's edge, or in a cluster) before one with room all around; a value with
    // none beside it last, as it goes further out anyway.
    for (std::size_t round = 0; round < todo.size(); ++round) {
        pending* next = nullptr;
        std::size_t best = 0;
        for (auto& p : todo) {
            if (p.placed) continue;
            const auto n =
                static_cast<std::size_t>(std::count_if(p.near.begin(), p.near.end(), usable));
            const std::size_t key = n == 0 ? p.near.size() + 1 : n;
            if (!next || key < best) {
                next = &p;
                best = key;
            }
        }
        next->placed = true;
        // Clear of every line first, then usable; near before far.
        std::optional<rect> chosen;
        for (const auto* set : {&next->near, &next->far}) {
            for (const auto& c : *set)
                if (placer.is_free(c, inside, true)) {
                    chosen = c;
                    break;
                }
            if (chosen) break;
            for (const auto& c : *set)
                if (usable(c)) {
                    chosen = c;
                    break;
                }
            if (chosen) break;
        }
        if (chosen) {
            placer.place(std::move(next->l), std::span<const rect>(&*chosen, 1), inside, true);
        } else {
            auto all = next->near;
            all.insert(all.end(), next->far.begin(), next->far.end());
            placer.place(std::move(next->l), all, inside, true);
        }
    }
}

}  // namespace tgemm::render
