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
// The share of a rung's slot its group of bars takes.
constexpr double group_share = 0.8;
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

// One series of bars: where its bytes come from, how its bars are filled, and its legend.
struct series_spec {
    marker_kind kind;
    bar_fill fill;
    std::optional<double> bytes3::*value;
    std::string_view legend;
};

// One rung's bytes at every level.
struct rung_bytes {
    std::string rung;
    int colour = 0;
    std::array<bytes3, level_specs.size()> levels;
};

// Everything the chart shows, declared before any of it is placed.
struct bytes_decl {
    bool predicted = false;
    std::optional<shape> focus;
    std::vector<series_spec> series;  // side by side in each rung's group
    std::vector<rung_bytes> rungs;    // ladder order, left to right
    axis y;                           // one byte scale for every panel
};

std::vector<series_spec> declare_series(bool predicted) {
    std::vector<series_spec> out = {
        {marker_kind::textbook, bar_fill::hatched, &bytes3::textbook, "textbook (seed formula)"},
        {marker_kind::refined, bar_fill::tint, &bytes3::refined,
         predicted ? "refined model (PREDICTED)" : "refined model (this tool)"},
    };
    if (!predicted)
        out.push_back({marker_kind::measured, bar_fill::solid, &bytes3::measured,
                       "measured (CUPTI counters)"});
    return out;
}

// A log axis over every bar of every panel, so the levels compare by height.
axis byte_axis(const bytes_decl& d) {
    double lo = 1e300;
    double hi = 0;
    for (const auto& r : d.rungs)
        for (const auto& b : r.levels)
            for (const auto& s : d.series)
                if (const auto v = b.*(s.value)) {
                    lo = std::min(lo, *v);
                    hi = std::max(hi, *v);
                }
    if (hi <= 0) {
        lo = 1e6;
        hi = 1e9;
    }
    return make_log_axis("bytes (GB, log scale)", lo, hi, 9);
}

// The rungs with a row at the focus size.
bytes_decl declare(const analysis& a, bool predicted) {
    bytes_decl d;
    d.predicted = predicted;
    d.focus = a.focus_size();
    d.series = declare_series(predicted);
    const auto rungs = coloured_rungs(a);
    for (const auto& k : rungs) {
        const auto* r = d.focus ? a.find(k, *d.focus) : nullptr;
        if (!r) continue;
        rung_bytes rb{r->row->kernel, rung_colour(rungs, r->row->kernel), {}};
        for (std::size_t l = 0; l < level_specs.size(); ++l) rb.levels[l] = level_bytes(*r, l);
        d.rungs.push_back(std::move(rb));
    }
    d.y = byte_axis(d);
    return d;
}

std::vector<std::string> declare_notes(const bytes_decl& d, const profile& p) {
    std::vector<std::string> notes = {
        "Textbook: the seeds count elements × 4 B. DRAM: every global access of A, B and C "
        "counted as DRAM traffic (no cache reuse); L1 global loads: loads per output × M·N; "
        "shared: every shared-memory element access; L2: the seeds give no count.",
        d.predicted ? std::string("Refined: this tool's per-rung model (PREDICTED: nothing was "
                                  "measured). Shared bytes = wavefronts × 128 B + cp.async bytes.")
                    : std::string("Refined: this tool's per-rung model. Measured: CUPTI "
                                  "counters. Shared bytes = wavefronts × 128 B + cp.async bytes, "
                                  "so bank conflicts count."),
        fmt::format("{} marks a value the source does not give (no count, no model, or the kernel "
                    "does not use that level).",
                    dash)};
    if (d.focus)
        for (const auto& m : p.measurements)
            if (m.skipped && m.size == *d.focus)
                notes.push_back(fmt::format("{}: skipped at {}: {}", m.kernel, to_string(*d.focus),
                                            *m.skipped));
    if (d.rungs.empty()) notes.emplace_back("The profile has no rows to chart.");
    return notes;
}

std::vector<legend_entry> declare_legend(const bytes_decl& d) {
    std::vector<legend_entry> entries;
    for (const auto& s : d.series) {
        legend_glyph g;
        g.kind = legend_glyph_kind::bar;
        g.fill = s.fill;
        entries.push_back({g, std::string(s.legend)});
    }
    entries.push_back({std::nullopt, fmt::format("{}  no value", dash)});
    return entries;
}

// Two columns of panels, each row of panels a title band above and a band of rung names below.
struct panel_grid {
    double top = 0;  // the first title band's top
    double gutter = 0;
    double plot_w = 0;
    double plot_h = 0;
    double title_band = 0;
    double name_band = 0;

    [[nodiscard]] rect plot(std::size_t level) const {
        const auto col = static_cast<double>(level % 2);
        const auto row = static_cast<double>(level / 2);
        return {chart_margin + gutter + col * (plot_w + gutter + col_gap),
                top + title_band + row * (title_band + plot_h + name_band + row_gap), plot_w,
                plot_h};
    }
};

// The panel's title, and what the textbook counts at its level where that fits beside it.
void place_panel_title(chart& c, const chart_panel& pn, const level_spec& spec, double band,
                       const text_width_fn& measure) {
    auto t = make_label(pn.name, panel_title_px, true, text_role::axis_title, measure);
    t.box.x = pn.plot.x;
    t.box.y = pn.plot.y - band;
    auto d =
        make_label(std::string(spec.textbook), chart_text_px, false, text_role::subtitle, measure);
    d.colour_tone = tone::muted;
    d.box.x = t.box.right() + 12;
    d.box.y = t.box.bottom() - d.box.h - 1;
    c.labels.push_back(std::move(t));
    if (d.box.right() <= pn.plot.right()) c.labels.push_back(std::move(d));
}

// A bar from the axis up to `v`; a dash at the foot of its slot where there is no value.
void place_bar(chart& c, std::size_t panel, const rung_bytes& r, const series_spec& s,
               std::optional<double> v, double bx, double bar_w, const text_width_fn& measure) {
    const auto& pn = c.panels[panel];
    if (!v) {
        auto m = make_label(std::string(dash), mark_px, false, text_role::point, measure);
        m.colour_tone = tone::muted;
        m.box.x = bx + (bar_w - m.box.w) / 2;
        m.box.y = pn.plot.bottom() - m.box.h - 2;
        c.labels.push_back(std::move(m));
        return;
    }
    chart_bar bar;
    bar.rung = r.rung;
    bar.kind = s.kind;
    bar.panel = panel;
    bar.colour = r.colour;
    bar.fill = s.fill;
    bar.dashed = c.predicted;
    bar.value = *v;
    const double top = pn.to_px({0, *v}).y;
    bar.box = {bx + 0.5, top, bar_w - 1, pn.plot.bottom() - top};
    c.bars.push_back(std::move(bar));
}

// Each rung's group of bars at level `level`, its name under the group reading upwards.
void place_groups(chart& c, const bytes_decl& d, std::size_t panel, std::size_t level,
                  const text_width_fn& measure) {
    const rect plot = c.panels[panel].plot;
    const double slot = plot.w / static_cast<double>(std::max<std::size_t>(d.rungs.size(), 1));
    const double bar_w = slot * group_share / static_cast<double>(d.series.size());
    for (std::size_t i = 0; i < d.rungs.size(); ++i) {
        const auto& r = d.rungs[i];
        const double x0 = plot.x + static_cast<double>(i) * slot + slot * (1 - group_share) / 2;
        for (std::size_t s = 0; s < d.series.size(); ++s)
            place_bar(c, panel, r, d.series[s], r.levels[level].*(d.series[s].value),
                      x0 + static_cast<double>(s) * bar_w, bar_w, measure);
        auto n = make_label(r.rung, rung_px, false, text_role::tick, measure);
        n.rotated = true;
        n.colour_tone = tone::rung;
        n.colour = r.colour;
        std::swap(n.box.w, n.box.h);
        n.box.x = plot.x + (static_cast<double>(i) + 0.5) * slot - n.box.w / 2;
        n.box.y = plot.bottom() + 6;
        c.labels.push_back(std::move(n));
    }
}

// One level's panel: title, tick labels (the axis title in the left column only: the scale is
// shared), bars and rung names.
void place_panel(chart& c, const bytes_decl& d, const panel_grid& g, std::size_t level,
                 const text_width_fn& measure) {
    chart_panel pn;
    pn.name = std::string(level_specs[level].name);
    pn.plot = g.plot(level);
    pn.x.title = "kernel";
    pn.x.scale = scale_kind::linear;
    pn.x.min = 0;
    pn.x.max = 1;
    pn.y = d.y;
    place_panel_title(c, pn, level_specs[level], g.title_band, measure);
    axis_label_style axis_text;
    axis_text.y_tick_gap = 8;
    axis_text.x_title = false;
    if (level % 2 == 0) axis_text.y_title_left = pn.plot.x - g.gutter;
    place_axis_labels(c.labels, pn.plot, pn.x, pn.y, axis_text, measure);
    c.panels.push_back(std::move(pn));
    place_groups(c, d, c.panels.size() - 1, level, measure);
}

}  // namespace

chart layout_bytes_per_level(const analysis& a, const chart_options& opts) {
    const auto focus = a.focus_size();
    chart c = start_chart(a, chart_kind::bytes_per_level, "layout_bytes_per_level",
                          "bytes moved per memory level",
                          focus ? " at " + to_string(*focus) : std::string());
    const auto& measure = opts.measure;
    const auto d = declare(a, c.predicted);
    // Notes first: their height decides how tall the panels may be.
    c.notes = declare_notes(d, *a.source);

    // Across: two columns of panels, wide enough for every bar.
    panel_grid g;
    double tick_w = 0;
    for (const auto& t : d.y.major)
        tick_w = std::max(tick_w, measure(t.label, chart_tick_px, false));
    g.gutter = line_box_height(chart_axis_title_px) + 8 + tick_w + 12;
    const double min_plot_w = static_cast<double>(std::max<std::size_t>(d.rungs.size(), 1)) *
                              static_cast<double>(d.series.size()) * min_bar_w / group_share;
    c.width = std::max(opts.width, 2 * chart_margin + 2 * (g.gutter + min_plot_w) + col_gap);
    g.plot_w = (c.width - 2 * chart_margin - 2 * g.gutter - col_gap) / 2;

    // Down: titles, the legend row, two rows of panels, the notes.
    double name_h = 0;  // rotated rung names: their length is the band's height
    for (const auto& r : d.rungs) name_h = std::max(name_h, measure(r.rung, rung_px, false));
    g.top = place_legend_row(c, declare_legend(d), place_titles(c, measure) + 8, 14, measure);
    const double notes_h = notes_height(c.notes, c.width - 2 * chart_margin, {}, measure);
    g.title_band = line_box_height(panel_title_px) + 6;
    g.name_band = name_h + 10;
    const double fixed =
        g.top + 2 * (g.title_band + g.name_band) + row_gap + 12 + notes_h + chart_margin;
    g.plot_h = std::max(min_plot_h, (opts.height - fixed) / 2);
    c.height = std::max(opts.height, fixed + 2 * g.plot_h);

    for (std::size_t l = 0; l < level_specs.size(); ++l) place_panel(c, d, g, l, measure);
    place_notes(c.labels, c.notes, {chart_margin, c.panels.back().plot.bottom() + g.name_band + 12},
                c.width - 2 * chart_margin, {}, measure);
    return c;
}

}  // namespace tgemm::render
