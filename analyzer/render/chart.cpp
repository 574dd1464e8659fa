#include "render/chart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/strings.hpp"
#include "render/roofline_layout.hpp"
#include "render/roofline_panel.hpp"

namespace tgemm::render {

point chart_panel::to_px(point data) const {
    return {plot.x + x.fraction(data.x) * plot.w, plot.bottom() - y.fraction(data.y) * plot.h};
}

namespace {

template <class T>
std::size_t count_series(const std::vector<T>& v, std::string_view of) {
    return static_cast<std::size_t>(std::count_if(
        v.begin(), v.end(), [of](const T& x) { return of.empty() || x.series == of; }));
}

}  // namespace

std::size_t chart::count_bars(std::string_view of) const {
    return count_series(bars, of);
}
std::size_t chart::count_lines(std::string_view of) const {
    return count_series(lines, of);
}
std::size_t chart::count_markers(std::string_view of) const {
    return count_series(markers, of);
}
std::size_t chart::count_labels(text_role role) const {
    return static_cast<std::size_t>(std::count_if(
        labels.begin(), labels.end(), [role](const label& l) { return l.role == role; }));
}

namespace detail {

label chart_label(std::string text, double font_px, bool bold, text_role role,
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

std::vector<std::string> chart_title_lines(const profile& p, std::string_view subject,
                                           std::string_view qualifier) {
    const bool predicted = p.source == profile_source::predicted;
    std::vector<std::string> lines;
    if (predicted) {
        lines.push_back(
            fmt::format("{}: {} of {}{}", predicted_tag, subject, p.gpu.name, qualifier));
    } else {
        std::string head(subject);
        if (!head.empty()) head[0] = static_cast<char>(std::toupper(head[0]));
        lines.push_back(fmt::format("{} of {}{}, measured", head, p.gpu.name, qualifier));
    }
    std::vector<std::string> facts;
    facts.push_back(fmt::format("SM clock {:.0f} MHz", p.gpu.sm_clock_mhz));
    facts.push_back(fmt::format("memory clock {:.0f} MHz", p.gpu.mem_clock_mhz));
    if (!p.env.cuda.empty()) facts.push_back("CUDA " + p.env.cuda);
    if (!p.env.driver.empty()) facts.push_back("driver " + p.env.driver);
    if (!p.env.date.empty()) facts.push_back(p.env.date);
    lines.push_back(join(facts, " · "));
    if (predicted)
        lines.emplace_back(
            "Every value comes from the analytic models at the spec's peaks; nothing on this "
            "chart was measured.");
    return lines;
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
            auto l = chart_label(
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
            auto l = chart_label(std::move(line), chart_note_px, false, text_role::note, measure);
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
    auto l = chart_label(std::move(text), chart_text_px, false, text_role::legend, measure);
    l.box.x = x + glyph_w + 8;
    l.box.y = y;
    const double after = l.box.right() + 26;
    c.labels.push_back(std::move(l));
    return after;
}

}  // namespace detail

}  // namespace tgemm::render
