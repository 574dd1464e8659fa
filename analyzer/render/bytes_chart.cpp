#include "render/bytes_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "model/levels.hpp"
#include "render/axis_labels.hpp"
#include "render/chart_legend.hpp"
#include "render/layout_text.hpp"
#include "render/roofline_layout.hpp"
#include "render/rung_colours.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {

namespace {

using namespace detail;

constexpr double panel_title_px = 17;
constexpr double rung_px = 13;
constexpr double mark_px = 13;
constexpr double col_gap = 56;
constexpr double row_gap = 30;
constexpr double min_plot_h = 250;
constexpr double min_bar_w = 5;
constexpr std::string_view dash = "–";

struct level_spec {
    std::string_view name;      // the panel's title
    std::string_view textbook;  // what the seeds' count means at this level
};

// The panels in hierarchy order, outermost first.
constexpr std::array<level_spec, 4> level_specs = {{
    {"DRAM", "textbook: every global access of A, B, C"},
    {"L2", "textbook: none (the seeds count no L2 traffic)"},
    {"L1 global loads", "textbook: loads per output × M·N"},
    {"shared memory", "textbook: shared element accesses"},
}};

struct bytes3 {
    std::optional<double> textbook;
    std::optional<double> refined;
    std::optional<double> measured;
};

std::optional<double> positive(std::optional<double> v) {
    return v && *v > 0 ? v : std::nullopt;
}

bytes3 from_point(const level_point* p) {
    if (!p) return {};
    return {positive(p->bytes_textbook), positive(p->bytes_refined), positive(p->bytes_measured)};
}

bytes3 level_bytes(const row_analysis& r, std::size_t level) {
    switch (level) {
        case 0:
            return from_point(r.level(roofs::dram));
        case 1:
            return from_point(r.level(roofs::l2));
        case 2:
            for (const auto& lc : r.levels)
                if (lc.key == keys::l1_global_load_bytes)
                    return {positive(lc.textbook), positive(lc.refined), positive(lc.measured)};
            return {};
        default:
            return from_point(r.level(roofs::smem));
    }
}

struct series_spec {
    marker_kind kind;
    bar_fill fill;
    std::optional<double> bytes3::*value;
};

}  // namespace

chart layout_bytes_per_level(const analysis& a, const chart_options& opts) {
    const auto focus = a.focus_size();
    chart c = start_chart(a, chart_kind::bytes_per_level, "layout_bytes_per_level",
                          "bytes moved per memory level",
                          focus ? " at " + to_string(*focus) : std::string());
    const profile& p = *a.source;
    const auto& measure = opts.measure;

    std::vector<series_spec> series_list = {
        {marker_kind::textbook, bar_fill::hatched, &bytes3::textbook},
        {marker_kind::refined, bar_fill::tint, &bytes3::refined},
    };
    if (!c.predicted)
        series_list.push_back({marker_kind::measured, bar_fill::solid, &bytes3::measured});

    // The rungs with a row at the focus size, in ladder order.
    const auto rungs = coloured_rungs(a);
    std::vector<const row_analysis*> rows;
    for (const auto& k : rungs)
        if (const auto* r = focus ? a.find(k, *focus) : nullptr) rows.push_back(r);
    if (focus)
        for (const auto& m : p.measurements)
            if (m.skipped && m.size == *focus)
                c.notes.push_back(
                    fmt::format("{}: skipped at {}: {}", m.kernel, to_string(*focus), *m.skipped));

    // One byte scale for every panel, so the levels compare by height.
    double lo = 1e300;
    double hi = 0;
    for (const auto* r : rows)
        for (std::size_t l = 0; l < level_specs.size(); ++l) {
            const auto b = level_bytes(*r, l);
            for (const auto& s : series_list)
                if (const auto v = b.*(s.value)) {
                    lo = std::min(lo, *v);
                    hi = std::max(hi, *v);
                }
        }
    if (hi <= 0) {
        lo = 1e6;
        hi = 1e9;
    }
    const auto y_axis = make_log_axis("bytes (GB, log scale)", lo, hi, 9);

    // Notes first: their height decides how tall the panels may be.
    c.notes.insert(
        c.notes.begin(),
        {"Textbook: the seeds count elements × 4 B. DRAM: every global access of A, B and C "
         "counted as DRAM traffic (no cache reuse); L1 global loads: loads per output × M·N; "
         "shared: every shared-memory element access; L2: the seeds give no count.",
         c.predicted ? std::string("Refined: this tool's per-rung model (PREDICTED: nothing was "
                                   "measured). Shared bytes = wavefronts × 128 B + cp.async bytes.")
                     : std::string("Refined: this tool's per-rung model. Measured: CUPTI "
                                   "counters. Shared bytes = wavefronts × 128 B + cp.async bytes, "
                                   "so bank conflicts count."),
         fmt::format("{} marks a value the source does not give (no count, no model, or the kernel "
                     "does not use that level).",
                     dash)});

    // Horizontal geometry: two columns of panels.
    double tick_w = 0;
    for (const auto& t : y_axis.major)
        tick_w = std::max(tick_w, measure(t.label, chart_tick_px, false));
    const double axis_title_w = line_box_height(chart_axis_title_px) + 8;
    const double gutter = axis_title_w + tick_w + 12;
    const double group_share = 0.8;
    const double min_plot_w = static_cast<double>(std::max<std::size_t>(rows.size(), 1)) *
                              static_cast<double>(series_list.size()) * min_bar_w / group_share;
    c.width = std::max(opts.width, 2 * chart_margin + 2 * (gutter + min_plot_w) + col_gap);
    const double plot_w = (c.width - 2 * chart_margin - 2 * gutter - col_gap) / 2;

    double name_h = 0;  // rotated rung names: their length is the band's height
    for (const auto* r : rows) name_h = std::max(name_h, measure(r->row->kernel, rung_px, false));

    double y = place_titles(c, measure) + 8;
    // The legend: one row under the title.
    {
        std::vector<legend_entry> entries;
        const auto entry = [&](bar_fill fill, std::string text) {
            legend_glyph g;
            g.kind = legend_glyph_kind::bar;
            g.fill = fill;
            entries.push_back({g, std::move(text)});
        };
        entry(bar_fill::hatched, "textbook (seed formula)");
        entry(bar_fill::tint,
              c.predicted ? "refined model (PREDICTED)" : "refined model (this tool)");
        if (!c.predicted) entry(bar_fill::solid, "measured (CUPTI counters)");
        entries.push_back({std::nullopt, fmt::format("{}  no value", dash)});
        y = place_legend_row(c, entries, y, 14, measure);
    }

    const double notes_h = notes_height(c.notes, c.width - 2 * chart_margin, {}, measure);
    const double title_band = line_box_height(panel_title_px) + 6;
    const double name_band = name_h + 10;
    const double fixed = y + 2 * (title_band + name_band) + row_gap + 12 + notes_h + chart_margin;
    const double plot_h = std::max(min_plot_h, (opts.height - fixed) / 2);
    c.height = std::max(opts.height, fixed + 2 * plot_h);

    for (std::size_t l = 0; l < level_specs.size(); ++l) {
        const auto col = static_cast<double>(l % 2);
        const auto row = static_cast<double>(l / 2);
        chart_panel pn;
        pn.name = std::string(level_specs[l].name);
        pn.plot = {chart_margin + gutter + col * (plot_w + gutter + col_gap),
                   y + title_band + row * (title_band + plot_h + name_band + row_gap), plot_w,
                   plot_h};
        pn.x.title = "kernel";
        pn.x.scale = scale_kind::linear;
        pn.x.min = 0;
        pn.x.max = 1;
        pn.y = y_axis;
        const auto panel = c.panels.size();

        // Panel title and what the textbook means here.
        auto t = make_label(pn.name, panel_title_px, true, text_role::axis_title, measure);
        t.box.x = pn.plot.x;
        t.box.y = pn.plot.y - title_band;
        auto d = make_label(std::string(level_specs[l].textbook), chart_text_px, false,
                            text_role::subtitle, measure);
        d.colour_tone = tone::muted;
        d.box.x = t.box.right() + 12;
        d.box.y = t.box.bottom() - d.box.h - 1;
        c.labels.push_back(std::move(t));
        if (d.box.right() <= pn.plot.right()) c.labels.push_back(std::move(d));

        // Tick labels and the axis title (left column only: the scale is shared).
        axis_label_style axis_text;
        axis_text.y_tick_gap = 8;
        axis_text.x_title = false;
        if (col == 0) axis_text.y_title_left = pn.plot.x - gutter;
        place_axis_labels(c.labels, pn.plot, pn.x, pn.y, axis_text, measure);

        // The bars, and a dash where a value is missing.
        const double slot = pn.plot.w / static_cast<double>(std::max<std::size_t>(rows.size(), 1));
        const double bar_w = slot * group_share / static_cast<double>(series_list.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& r = *rows[i];
            const int colour = rung_colour(rungs, r.row->kernel);
            const double x0 =
                pn.plot.x + static_cast<double>(i) * slot + slot * (1 - group_share) / 2;
            const auto b = level_bytes(r, l);
            for (std::size_t s = 0; s < series_list.size(); ++s) {
                const double bx = x0 + static_cast<double>(s) * bar_w;
                const auto v = b.*(series_list[s].value);
                if (!v) {
                    auto m =
                        make_label(std::string(dash), mark_px, false, text_role::point, measure);
                    m.colour_tone = tone::muted;
                    m.box.x = bx + (bar_w - m.box.w) / 2;
                    m.box.y = pn.plot.bottom() - m.box.h - 2;
                    c.labels.push_back(std::move(m));
                    continue;
                }
                chart_bar bar;
                bar.rung = r.row->kernel;
                bar.kind = series_list[s].kind;
                bar.panel = panel;
                bar.colour = colour;
                bar.fill = series_list[s].fill;
                bar.dashed = c.predicted;
                bar.value = *v;
                const double top = pn.to_px({0, *v}).y;
                bar.box = {bx + 0.5, top, bar_w - 1, pn.plot.bottom() - top};
                c.bars.push_back(std::move(bar));
            }
            // The rung's name under its group, reading upwards, ending at the axis.
            auto n = make_label(r.row->kernel, rung_px, false, text_role::tick, measure);
            n.rotated = true;
            n.colour_tone = tone::rung;
            n.colour = colour;
            std::swap(n.box.w, n.box.h);
            n.box.x = pn.plot.x + (static_cast<double>(i) + 0.5) * slot - n.box.w / 2;
            n.box.y = pn.plot.bottom() + 6;
            c.labels.push_back(std::move(n));
        }
        c.panels.push_back(std::move(pn));
    }
    if (rows.empty()) c.notes.push_back("The profile has no rows to chart.");

    const double notes_y = c.panels.empty() ? y : c.panels.back().plot.bottom() + name_band + 12;
    place_notes(c.labels, c.notes, {chart_margin, notes_y}, c.width - 2 * chart_margin, {},
                measure);
    return c;
}

}  // namespace tgemm::render
