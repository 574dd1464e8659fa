#include "render/chart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "render/layout_text.hpp"
#include "render/roofline_layout.hpp"
#include "render/roofline_panel.hpp"

namespace tgemm::render {

point chart_panel::to_px(point data) const {
    return plot_to_px(plot, x, y, data);
}

namespace {

template <class T, class P>
std::size_t count_where(const std::vector<T>& v, P pred) {
    return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), pred));
}

}  // namespace

std::size_t chart::count_bars(marker_kind of) const {
    return count_where(bars, [of](const chart_bar& b) { return b.kind == of; });
}
std::size_t chart::count_lines(marker_kind of) const {
    return count_where(
        lines, [of](const chart_line& l) { return l.role == line_role::series && l.kind == of; });
}
std::size_t chart::count_lines(line_role of) const {
    return count_where(lines, [of](const chart_line& l) { return l.role == of; });
}
std::size_t chart::count_markers(marker_kind of) const {
    return count_where(markers, [of](const chart_marker& m) { return m.kind == of; });
}
std::size_t chart::count_labels(text_role role) const {
    return count_where(labels, [role](const label& l) { return l.role == role; });
}

namespace detail {

std::vector<std::string> chart_title_lines(const profile& p, std::string_view subject,
                                           std::string_view qualifier) {
    return title_block(p, subject, qualifier,
                       "Every value comes from the analytic models at the spec's peaks; nothing "
                       "on this chart was measured.");
}

chart start_chart(const analysis& a, chart_kind kind, std::string_view layout,
                  std::string_view subject, std::string_view qualifier) {
    if (!a.source) TGEMM_THROW(internal, "{}: the analysis has no profile", layout);
    const profile& p = *a.source;
    chart c;
    c.kind = kind;
    c.predicted = p.source == profile_source::predicted;
    if (c.predicted) c.watermark = "PREDICTED";
    c.title_lines = chart_title_lines(p, subject, qualifier);
    return c;
}

double place_titles(chart& c, const text_width_fn& measure) {
    double y = chart_margin;
    for (std::size_t i = 0; i < c.title_lines.size(); ++i) {
        const bool first = i == 0;
        const bool warning = c.predicted && i + 1 == c.title_lines.size() && i > 1;
        const double px = first ? chart_title_px : chart_subtitle_px;
        // Long lines wrap to the canvas rather than run off it.
        for (auto& text :
             wrap_text(c.title_lines[i], c.width - 2 * chart_margin, px, first, measure)) {
            auto l = make_label(
                std::move(text), px, first,
                first ? text_role::title : (warning ? text_role::warning : text_role::subtitle),
                measure);
            l.colour_tone = warning || (first && c.predicted) ? tone::warning
                                                              : (first ? tone::ink : tone::muted);
            l.box.x = chart_margin;
            l.box.y = y;
            y += l.box.h + 2;
            c.labels.push_back(std::move(l));
        }
        if (first) y += 4;
    }
    return y;
}

double place_notes(chart& c, double x, double y, double width, const text_width_fn& measure) {
    for (const auto& note : c.notes) {
        for (auto& line : wrap_text(note, width, chart_note_px, false, measure)) {
            auto l = make_label(std::move(line), chart_note_px, false, text_role::note, measure);
            l.colour_tone = tone::muted;
            l.box.x = x;
            l.box.y = y;
            y += l.box.h;
            c.labels.push_back(std::move(l));
        }
        y += 3;
    }
    return y;
}

double notes_height(const chart& c, double width, const text_width_fn& measure) {
    double h = 0;
    for (const auto& note : c.notes)
        h += static_cast<double>(wrap_text(note, width, chart_note_px, false, measure).size()) *
                 line_box_height(chart_note_px) +
             3;
    return h;
}

double place_legend_entry(chart& c, legend_glyph g, std::string text, double x, double y,
                          const text_width_fn& measure) {
    const double h = line_box_height(chart_text_px);
    const double glyph_w = g.kind == legend_glyph_kind::marker ? 14 : 30;
    const double glyph_h = g.kind == legend_glyph_kind::bar ? 14 : 14;
    g.box = {x, y + (h - glyph_h) / 2, glyph_w, glyph_h};
    c.legend.push_back(g);
    auto l = make_label(std::move(text), chart_text_px, false, text_role::legend, measure);
    l.box.x = x + glyph_w + 8;
    l.box.y = y;
    const double after = l.box.right() + 26;
    c.labels.push_back(std::move(l));
    return after;
}

void place_colour_key(chart& c, double x, double y, const text_width_fn& measure) {
    auto k = make_label("colour: kernel, as on the roofline", chart_text_px, false,
                        text_role::legend, measure);
    k.colour_tone = tone::muted;
    k.box.x = x;
    k.box.y = y;
    c.labels.push_back(std::move(k));
}

}  // namespace detail

}  // namespace tgemm::render
