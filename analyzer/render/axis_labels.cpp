#include "render/axis_labels.hpp"

#include <utility>

#include "render/layout_text.hpp"

namespace tgemm::render {

void place_axis_labels(std::vector<label>& out, const rect& plot, const axis& x, const axis& y,
                       const axis_label_style& style, const text_width_fn& measure) {
    for (const auto& t : x.major) {
        auto l = make_label(t.label, style.tick_px, false, text_role::tick, measure);
        l.box.x = plot_to_px(plot, x, y, {t.value, y.min}).x - l.box.w / 2;
        l.box.y = plot.bottom() + style.x_tick_gap;
        out.push_back(std::move(l));
    }
    for (const auto& t : y.major) {
        auto l = make_label(t.label, style.tick_px, false, text_role::tick, measure);
        l.box.x = plot.x - style.y_tick_gap - l.box.w;
        l.box.y = plot_to_px(plot, x, y, {x.min, t.value}).y - l.box.h / 2;
        out.push_back(std::move(l));
    }
    if (style.x_title && !x.title.empty()) {
        auto l = make_label(x.title, style.title_px, false, text_role::axis_title, measure);
        l.box.x = plot.x + (plot.w - l.box.w) / 2;
        l.box.y =
            plot.bottom() + style.x_tick_gap + line_box_height(style.tick_px) + style.x_title_gap;
        out.push_back(std::move(l));
    }
    if (style.y_title_left && !y.title.empty()) {
        auto l = make_label(y.title, style.title_px, false, text_role::axis_title, measure);
        l.rotated = true;
        std::swap(l.box.w, l.box.h);
        l.box.x = *style.y_title_left;
        l.box.y = plot.y + (plot.h - l.box.h) / 2;
        if (l.box.h <= plot.h) out.push_back(std::move(l));
    }
}

}  // namespace tgemm::render
