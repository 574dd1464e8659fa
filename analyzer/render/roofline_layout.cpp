#include "render/roofline_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "model/levels.hpp"
#include "render/format.hpp"
#include "render/label_placer.hpp"
#include "render/names.hpp"
#include "render/roofline_panel.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {

namespace {

constexpr double margin = 28;
constexpr double title_px = 26;
constexpr double subtitle_px = 17;
constexpr double tick_px = 15;
constexpr double axis_title_px = 17;
constexpr double plot_label_px = 15;
constexpr double marker_radius = 9;
constexpr double min_plot_w = 880;
constexpr double min_plot_h = 520;
constexpr double panel_gap = 48;
constexpr double min_panel_w = 360;
constexpr double tick_gap = 12;  // between the plot's edge and its tick labels

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

struct roof_spec {
    std::string key;
    std::string name;
    roof_kind kind = roof_kind::compute;
    roof_source source = roof_source::theoretical;
    double value = 0;
};

// FP32 and DRAM always; a tensor roof only where some row runs on tensor cores.
std::vector<roof_spec> collect_roofs(const analysis& a) {
    const profile& p = *a.source;
    std::vector<roof_spec> out;
    const auto add = [&](std::string_view key, roof_kind kind, double theoretical) {
        out.push_back({std::string(key), roof_display_name(key), kind, roof_source::theoretical,
                       theoretical});
        const auto it = p.peaks.find(key);
        if (it != p.peaks.end() && it->second.measured)
            out.push_back({std::string(key), roof_display_name(key), kind, roof_source::measured,
                           *it->second.measured});
    };
    add(roofs::fp32, roof_kind::compute, a.fp32_peak);
    const auto uses = [&](std::initializer_list<std::string_view> dtypes) {
        return std::any_of(a.rows.begin(), a.rows.end(), [&](const row_analysis& r) {
            return std::find(dtypes.begin(), dtypes.end(), r.row->dtype) != dtypes.end();
        });
    };
    for (const auto& [key, dtypes] :
         {std::pair{roofs::tensor_tf32, std::initializer_list<std::string_view>{"tf32"}},
          std::pair{roofs::tensor_fp16, std::initializer_list<std::string_view>{"fp16", "bf16"}}}) {
        const auto it = p.peaks.find(key);
        if (it != p.peaks.end() && uses(dtypes))
            add(key, roof_kind::compute, it->second.theoretical);
    }
    add(roofs::dram, roof_kind::memory, a.dram_peak);
    return out;
}

// The bandwidth a compute roof of `source` meets: the measured DRAM roof where there is one.
double bandwidth_for(const std::vector<roof_spec>& rs, roof_source source) {
    double theoretical = 0;
    for (const auto& r : rs) {
        if (r.kind != roof_kind::memory) continue;
        if (r.source == source) return r.value;
        if (r.source == roof_source::theoretical) theoretical = r.value;
    }
    return theoretical;
}

// The highest compute roof a memory roof of `source` climbs to.
double top_compute_for(const std::vector<roof_spec>& rs, roof_source source) {
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

// Markers, arrows, the kernel table and the notes: everything that comes from the rows.
struct point_set {
    std::vector<marker> markers;
    std::vector<arrow> arrows;
    std::vector<kernel_entry> table;
    std::vector<std::string> notes;
};

point_set collect_points(const analysis& a, bool predicted) {
    const profile& p = *a.source;
    // Colours go to kernels that have rows: a rung skipped at every size takes none.
    const auto kernels = coloured_rungs(a);
    const auto shapes = p.shapes();

    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows) rows.push_back(&r);
    // Ladder order, then size: the table reads like the plot's colours.
    std::stable_sort(rows.begin(), rows.end(), [&](const auto* l, const auto* r) {
        const auto kl = index_in(kernels, l->row->kernel);
        const auto kr = index_in(kernels, r->row->kernel);
        if (kl != kr) return kl < kr;
        return index_in(shapes, l->row->size) < index_in(shapes, r->row->size);
    });

    point_set out;
    for (const auto* r : rows) {
        const auto& m = *r->row;
        marker base;
        base.rung = m.kernel;
        base.size = m.size;
        base.colour = rung_colour(kernels, m.kernel);
        base.glyph =
            size_glyphs[static_cast<std::size_t>(index_in(shapes, m.size)) % size_glyphs.size()];
        base.radius_px = marker_radius;

        std::optional<point> book;
        if (r->ai_textbook > 0 && r->attainable_textbook > 0) {
            book = point{r->ai_textbook, r->attainable_textbook};
            auto mk = base;
            mk.kind = marker_kind::textbook;
            mk.at = *book;
            out.markers.push_back(mk);
        }
        std::optional<point> end;
        if (predicted) {
            if (r->ai_refined && r->attainable) {
                end = point{*r->ai_refined, *r->attainable};
                auto mk = base;
                mk.kind = marker_kind::refined;
                mk.dashed = true;
                mk.at = *end;
                out.markers.push_back(mk);
            } else {
                out.notes.push_back(fmt::format(
                    "{}: the refined model gives no {}; textbook point only", row_name(m),
                    m.model.refined.get(keys::flops) ? "DRAM traffic" : "FLOP count"));
            }
        } else if (r->ai_measured && r->achieved_flops_per_s) {
            end = point{*r->ai_measured, *r->achieved_flops_per_s};
            auto mk = base;
            mk.kind = marker_kind::measured;
            mk.filled = true;
            mk.at = *end;
            out.markers.push_back(mk);
        } else {
            out.notes.push_back(
                fmt::format("{}: no measured point ({})", row_name(m), missing_point_reason(*r)));
        }
        if (book && end)
            out.arrows.push_back({m.kernel, m.size, *book, *end, base.colour, predicted});

        kernel_entry e;
        e.rung = m.kernel;
        e.size = m.size;
        e.colour = base.colour;
        e.glyph = base.glyph;
        e.has_measured_point = !predicted && end.has_value();
        if (predicted)
            e.cells = {m.kernel, to_string(m.size), format_ai_value(r->ai_textbook),
                       r->ai_refined ? format_ai_value(*r->ai_refined) : std::string(missing_mark),
                       format_tflops_value(r->attainable)};
        else
            e.cells = {
                m.kernel, to_string(m.size),
                r->tflops ? format_tflops_value(*r->tflops * 1e12) : std::string(missing_mark),
                r->ai_measured ? format_ai_value(*r->ai_measured) : std::string(missing_mark),
                format_percent(r->pct_roof)};
        out.table.push_back(std::move(e));
    }
    for (const auto& m : p.measurements)
        if (m.skipped) out.notes.push_back(fmt::format("{}: skipped: {}", row_name(m), *m.skipped));
    return out;
}

std::vector<std::string> title_lines(const profile& p) {
    const bool predicted = p.source == profile_source::predicted;
    std::vector<std::string> lines;
    lines.push_back(predicted ? fmt::format("{}: roofline of {}", predicted_tag, p.gpu.name)
                              : fmt::format("Roofline of {}, measured", p.gpu.name));
    std::vector<std::string> facts;
    facts.push_back(fmt::format("SM clock {:.0f} MHz", p.gpu.sm_clock_mhz));
    facts.push_back(fmt::format("memory clock {:.0f} MHz", p.gpu.mem_clock_mhz));
    if (!p.env.cuda.empty()) facts.push_back("CUDA " + p.env.cuda);
    if (!p.env.driver.empty()) facts.push_back("driver " + p.env.driver);
    if (!p.env.date.empty()) facts.push_back(p.env.date);
    lines.push_back(join(facts, " · "));
    if (predicted)
        lines.emplace_back(
            "Every point comes from the analytic models at the spec's peaks; nothing on this "
            "plot was measured.");
    return lines;
}

panel_content panel_for(const point_set& pts, const profile& p, bool predicted,
                        bool any_measured_roof) {
    panel_content c;
    const auto add = [&](swatch_kind kind, marker_shape glyph, bool filled, bool dashed,
                         std::string text) {
        swatch s;
        s.kind = kind;
        s.glyph = glyph;
        s.filled = filled;
        s.dashed = dashed;
        s.size = kind == swatch_kind::marker ? 7 : 12;
        c.legend.push_back({s, std::move(text)});
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
    } else {
        add(swatch_kind::marker, marker_shape::circle, true, false,
            "filled: measured (DRAM counters, timed)");
        add(swatch_kind::marker, marker_shape::circle, false, false,
            "hollow: textbook AI, placed on the roof");
        add(swatch_kind::arrow, marker_shape::circle, false, false, "textbook → measured");
    }
    add(swatch_kind::line, marker_shape::circle, false, true,
        "dashed line: theoretical roof (spec × clocks)");
    if (any_measured_roof)
        add(swatch_kind::line, marker_shape::circle, false, false, "solid line: measured roof");
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

label make_label(std::string text, double font_px, bool bold, text_role role,
                 const text_width_fn& measure) {
    label l;
    l.box.w = measure(text, font_px, bold);
    l.box.h = line_box_height(font_px);
    l.text = std::move(text);
    l.font_px = font_px;
    l.bold = bold;
    l.role = role;
    return l;
}

}  // namespace

scene layout_roofline(const analysis& a, const render_options& opts) {
    if (!a.source) TGEMM_THROW(internal, "layout_roofline: the analysis has no profile");
    if (!(a.fp32_peak > 0) || !(a.dram_peak > 0))
        TGEMM_THROW(input, "cannot plot a roofline without positive FP32 and DRAM peaks");
    const profile& p = *a.source;
    const bool predicted = p.source == profile_source::predicted;
    const auto& measure = opts.measure;

    scene s;
    s.predicted = predicted;
    s.watermark = predicted ? "PREDICTED" : "";
    s.title_lines = title_lines(p);

    auto pts = collect_points(a, predicted);
    const auto rs = collect_roofs(a);
    const bool any_measured_roof = std::any_of(
        rs.begin(), rs.end(), [](const roof_spec& r) { return r.source == roof_source::measured; });

    // Ridges: where each compute roof meets the memory roof of its kind.
    for (const auto& r : rs) {
        if (r.kind != roof_kind::compute || r.key != roofs::fp32) continue;
        const double bw = bandwidth_for(rs, r.source);
        const double ai = r.value / bw;
        s.ridges.push_back(
            {r.source, ai, r.value,
             fmt::format("{}ridge {}", r.source == roof_source::measured ? "measured " : "",
                         format_ai(ai))});
    }
    if (any_measured_roof && std::none_of(s.ridges.begin(), s.ridges.end(), [](const auto& rg) {
            return rg.source == roof_source::measured;
        })) {
        // Only the DRAM roof was measured: its ridge is with the theoretical FP32 roof.
        const double bw = bandwidth_for(rs, roof_source::measured);
        s.ridges.push_back({roof_source::measured, a.fp32_peak / bw, a.fp32_peak,
                            fmt::format("measured ridge {}", format_ai(a.fp32_peak / bw))});
    }

    // Axis ranges cover every point and ridge, with room right of the ridge for the flat roof.
    double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_top = 0;
    for (const auto& m : pts.markers) {
        x_lo = std::min(x_lo, m.at.x);
        x_hi = std::max(x_hi, m.at.x);
        y_lo = std::min(y_lo, m.at.y);
        // A point above every roof is a finding in itself (clocks above the spec, a wrong
        // counter): it must stay on the canvas.
        y_top = std::max(y_top, m.at.y);
    }
    for (const auto& r : rs) {
        if (r.kind != roof_kind::compute) continue;
        y_top = std::max(y_top, r.value);
        const double ridge = r.value / bandwidth_for(rs, r.source);
        x_lo = std::min(x_lo, ridge);
        x_hi = std::max(x_hi, ridge * 8);
    }
    s.x = make_log_axis("Arithmetic intensity (FLOP/byte at DRAM, log scale)", x_lo / 1.6,
                        x_hi * 1.6, 0);
    s.y = make_log_axis("Performance (TFLOP/s, log scale)", std::min(y_lo / 1.6, y_top / 300),
                        y_top * 1.4, 12);

    for (const auto& r : rs) {
        roof_line l;
        l.key = r.key;
        l.kind = r.kind;
        l.source = r.source;
        l.value = r.value;
        l.label = roof_label(r);
        l.dashed = r.source == roof_source::theoretical;
        if (r.kind == roof_kind::compute) {
            l.from = {r.value / bandwidth_for(rs, r.source), r.value};
            l.to = {s.x.max, r.value};
        } else {
            const double top = top_compute_for(rs, r.source);
            const double x0 = std::max(s.x.min, s.y.min / r.value);
            l.from = {x0, x0 * r.value};
            l.to = {top / r.value, top};
        }
        s.roofs.push_back(l);
    }
    s.markers = std::move(pts.markers);
    s.arrows = std::move(pts.arrows);
    s.notes = pts.notes;
    s.table = pts.table;

    // Title block.
    double y = margin;
    for (std::size_t i = 0; i < s.title_lines.size(); ++i) {
        const bool first = i == 0;
        const bool warning = predicted && (first || i == 2);
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
    const auto content = panel_for(pts, p, predicted, any_measured_roof);
    auto panel = layout_panel(content, measure, min_panel_w);
    s.table_header = content.table_header;
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

    // Labels inside the plot go where nothing else is: markers and lines are obstacles.
    label_placer placer(s.labels);
    const rect inside = s.plot.inflated(-4);
    for (const auto& m : s.markers) placer.add_obstacle(box_around(s.to_px(m.at), m.radius_px + 3));
    for (const auto& r : s.roofs) placer.add_segment(s.to_px(r.from), s.to_px(r.to));
    for (const auto& ar : s.arrows) placer.add_segment(s.to_px(ar.from), s.to_px(ar.to));
    for (const auto& rg : s.ridges) {
        const auto at = s.to_px({rg.ai, rg.flops});
        placer.add_obstacle(box_around(at, 6));
        placer.add_segment(at, {at.x, s.plot.bottom()});
    }

    for (const auto& r : s.roofs) {
        auto l = make_label(r.label, plot_label_px, false, text_role::roof, measure);
        l.backdrop = true;
        const auto a_px = s.to_px(r.from);
        const auto b_px = s.to_px(r.to);
        const bool prefer_above = r.source == roof_source::theoretical;
        std::vector<rect> above, below;
        const double w = l.box.w, h = l.box.h;
        if (r.kind == roof_kind::compute) {
            for (double shift = 0; b_px.x - 12 - shift - w >= a_px.x - w; shift += 40) {
                const double right = b_px.x - 12 - shift;
                above.push_back({right - w, b_px.y - 6 - h, w, h});
                below.push_back({right - w, b_px.y + 6, w, h});
            }
        } else {
            for (const double t : {0.55, 0.45, 0.65, 0.35, 0.75, 0.25, 0.85, 0.15}) {
                const point at{a_px.x + t * (b_px.x - a_px.x), a_px.y + t * (b_px.y - a_px.y)};
                above.push_back({at.x - 6 - w, at.y - 6 - h, w, h});
                below.push_back({at.x + 6, at.y + 6, w, h});
            }
        }
        auto candidates = prefer_above ? above : below;
        const auto& rest = prefer_above ? below : above;
        candidates.insert(candidates.end(), rest.begin(), rest.end());
        placer.place(std::move(l), candidates, inside, true);
    }
    for (const auto& rg : s.ridges) {
        auto l = make_label(rg.text, plot_label_px, true, text_role::ridge, measure);
        l.backdrop = true;
        const auto at = s.to_px({rg.ai, rg.flops});
        std::vector<rect> candidates;
        for (const double dy : {14.0, 40.0, 70.0, 100.0}) {
            candidates.push_back({at.x + 10, at.y + dy, l.box.w, l.box.h});
            candidates.push_back({at.x - 10 - l.box.w, at.y + dy, l.box.w, l.box.h});
        }
        const std::array<double, 3> gaps = {16, 34, 56};
        const auto around = boxes_around(at, l.box.w, l.box.h, gaps);
        candidates.insert(candidates.end(), around.begin(), around.end());
        placer.place(std::move(l), candidates, inside, true);
    }
    // One name per rung, beside its markers at the largest size (most FLOPs) only: with many
    // sizes a name beside a small size's marker would be read as that point. Markers of every
    // size stay drawn; the table names the rest. A name that fits nowhere is left out.
    std::vector<std::string> named;
    for (const auto& m : s.markers) {
        if (std::find(named.begin(), named.end(), m.rung) != named.end()) continue;
        named.push_back(m.rung);
        auto l = make_label(m.rung, plot_label_px, true, text_role::point, measure);
        l.colour_tone = tone::rung;
        l.colour = m.colour;
        l.backdrop = true;
        const auto volume = [](const shape& sz) {
            return double(sz.m) * double(sz.n) * double(sz.k);
        };
        double largest = 0;
        for (const auto& mk : s.markers)
            if (mk.rung == m.rung) largest = std::max(largest, volume(mk.size));
        std::vector<const marker*> order;
        for (const auto kind : {marker_kind::measured, marker_kind::refined, marker_kind::textbook})
            for (const auto& mk : s.markers)
                if (mk.rung == m.rung && mk.kind == kind && volume(mk.size) == largest)
                    order.push_back(&mk);
        std::vector<rect> candidates;
        const std::array<double, 5> gaps = {marker_radius + 5, marker_radius + 18,
                                            marker_radius + 34, marker_radius + 52,
                                            marker_radius + 72};
        // A box nearer one of the rung's smaller sizes than to the marker it names would
        // name the wrong point: such boxes are not candidates.
        const auto distance = [](const rect& b, point p) {
            const double dx = std::max({b.x - p.x, 0.0, p.x - b.right()});
            const double dy = std::max({b.y - p.y, 0.0, p.y - b.bottom()});
            return std::hypot(dx, dy);
        };
        for (const auto* mk : order) {
            const auto at = s.to_px(mk->at);
            for (const auto& box : boxes_around(at, l.box.w, l.box.h, gaps)) {
                const double own = distance(box, at);
                const bool nearer_other =
                    std::any_of(s.markers.begin(), s.markers.end(), [&](const marker& o) {
                        return o.rung == m.rung && volume(o.size) != largest &&
                               distance(box, s.to_px(o.at)) < own;
                    });
                if (!nearer_other) candidates.push_back(box);
            }
        }
        placer.place(std::move(l), candidates, inside, true);
    }
    return s;
}

}  // namespace tgemm::render
