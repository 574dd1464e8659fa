#include "render/chart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "render/layout_text.hpp"
#include "render/roofline_layout.hpp"

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

chart start_chart(const analysis& a, chart_kind kind, std::string_view layout,
                  std::string_view subject, std::string_view qualifier) {
    if (!a.source) TGEMM_THROW(internal, "{}: the analysis has no profile", layout);
    chart c;
    c.kind = kind;
    start_picture(c, *a.source, subject, qualifier,
                  "Every value comes from the analytic models at the spec's peaks; nothing on "
                  "this chart was measured.");
    return c;
}

double add_reference_line(chart& c, std::size_t panel, const reference_line& r, bool vertical) {
    const auto& pn = c.panels.at(panel);
    chart_line l;
    l.name = r.name;
    l.role = line_role::reference;
    l.panel = panel;
    l.colour_tone = r.colour_tone;
    l.dashed = r.dashed;
    l.width_px = r.width_px;
    const auto at = vertical ? pn.to_px({r.value, pn.y.min}) : pn.to_px({pn.x.min, r.value});
    if (vertical)
        l.points = {{at.x, pn.plot.y}, {at.x, pn.plot.bottom()}};
    else
        l.points = {{pn.plot.x, at.y}, {pn.plot.right(), at.y}};
    c.lines.push_back(std::move(l));
    return vertical ? at.x : at.y;
}

label reference_label(const reference_line& r, const text_width_fn& measure) {
    auto l = make_label(r.text, chart_text_px, r.bold, r.role, measure);
    l.colour_tone = r.colour_tone;
    return l;
}

double place_titles(chart& c, const text_width_fn& measure) {
    title_style style;
    style.wrap_width = c.width - 2 * chart_margin;
    return place_title_block(c.labels, c.title_lines, c.predicted, {chart_margin, chart_margin},
                             style, measure);
}

}  // namespace detail

}  // namespace tgemm::render
