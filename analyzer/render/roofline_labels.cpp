#include "render/roofline_labels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "render/layout_text.hpp"

namespace tgemm::render {

namespace {

// Room between a roof's label and the roofs of other levels, so it reads as its own line's.
constexpr double roof_label_clearance = 6;

// A roof label's candidate boxes by where they sit against its line.
struct roof_candidates {
    std::vector<rect> above;
    std::vector<rect> below;
    std::vector<rect> across;  // centred on the line, its backdrop breaking it
};

// Close to the right end of a flat roof first; further off where markers sit on it (a
// predicted profile puts every compute-bound rung on its roof).
roof_candidates compute_roof_candidates(point a_px, point b_px, double w, double h) {
    roof_candidates c;
    for (const double gap : {6.0, 14.0, 24.0})
        for (double shift = 0; b_px.x - 12 - shift - w >= a_px.x - w; shift += 40) {
            const double right = b_px.x - 12 - shift;
            c.above.push_back({right - w, b_px.y - gap - h, w, h});
            c.below.push_back({right - w, b_px.y + gap, w, h});
        }
    return c;
}

// The middle of the slope first, then outwards; finer steps last, for crowded plots with
// several memory roofs side by side. Across the line where parallel roofs leave no room
// beside it: fine steps from the middle outwards, to slip between markers.
roof_candidates memory_roof_candidates(point a_px, point b_px, double w, double h) {
    roof_candidates c;
    const auto along = [&](double t) {
        return point{a_px.x + t * (b_px.x - a_px.x), a_px.y + t * (b_px.y - a_px.y)};
    };
    for (const double t : {0.55, 0.45, 0.65, 0.35, 0.75, 0.25, 0.85, 0.15, 0.5, 0.6, 0.4, 0.7, 0.3,
                           0.8, 0.2, 0.9, 0.1, 0.95, 0.05}) {
        const point at = along(t);
        c.above.push_back({at.x - 6 - w, at.y - 6 - h, w, h});
        c.below.push_back({at.x + 6, at.y + 6, w, h});
    }
    for (int i = 0; i <= 46; ++i) {
        const point at = along(0.5 + (i % 2 == 0 ? 1 : -1) * 0.02 * ((i + 1) / 2));
        c.across.push_back({at.x - w / 2, at.y - h / 2, w, h});
    }
    return c;
}

// A label must read as its own line's: it keeps clear of the roofs of other levels (its own
// level's other roof may be close: the text says which of the two it is) and, with
// `arrows_too`, stays outside the arrows by its backdrop.
bool clear_of_others(const scene& s, const roof_line& r, const rect& box, bool arrows_too) {
    const auto wide = box.inflated(roof_label_clearance);
    const auto narrow = box.inflated(3);
    for (const auto& o : s.roofs)
        if (o.key != r.key && segment_hits_rect(s.to_px(o.from), s.to_px(o.to), wide)) return false;
    if (arrows_too)
        for (const auto& ar : s.arrows)
            if (segment_hits_rect(s.to_px(ar.from), s.to_px(ar.to), narrow)) return false;
    return true;
}

// Beside the line (on its preferred side first), then across it, clear of other levels and of
// arrows; then the same crossing arrows; then anywhere.
std::vector<rect> ordered_candidates(const scene& s, const roof_line& r, roof_candidates c) {
    const bool prefer_above = r.source == roof_source::theoretical;
    auto beside = prefer_above ? c.above : c.below;
    const auto& rest = prefer_above ? c.below : c.above;
    beside.insert(beside.end(), rest.begin(), rest.end());
    std::vector<rect> out;
    const auto take = [&](const std::vector<rect>& from, bool roofs_clear, bool arrows_clear) {
        for (const auto& box : from)
            if (clear_of_others(s, r, box, false) == roofs_clear &&
                (!roofs_clear || clear_of_others(s, r, box, true) == arrows_clear))
                out.push_back(box);
    };
    take(beside, true, true);
    take(c.across, true, true);
    take(beside, true, false);
    take(c.across, true, false);
    take(beside, false, false);
    return out;
}

// A published value's label and its candidate boxes.
struct pending_value {
    label l;
    std::vector<rect> near;  // beside the diamond
    std::vector<rect> far;   // around it
    bool placed = false;
};

// Diamonds nested in one spot (coinciding points) share their surroundings.
bool nested(const scene& s, const marker& a, const marker& b) {
    const auto pa = s.to_px(a.at), pb = s.to_px(b.at);
    return std::hypot(pa.x - pb.x, pa.y - pb.y) < std::max(a.radius_px, b.radius_px) * 0.5;
}

// Beside the diamond first, level with it, then a little higher or lower (published points of
// one size often share the AI); then around it at increasing distance, above and below also
// flush with either side of the diamond, for one near the plot's edge. `r` is how far the
// diamond's spot reaches.
void value_candidates(pending_value& p, point at, double r) {
    const double w = p.l.box.w, h = p.l.box.h;
    // A whole step leaves 2 px, so values of nested diamonds stack without touching.
    for (const double dy : {0.0, -h / 2, h / 2, -h - 2, h + 2}) {
        p.near.push_back({at.x + r + 3, at.y - h / 2 + dy, w, h});
        p.near.push_back({at.x - r - 3 - w, at.y - h / 2 + dy, w, h});
    }
    for (const double gap : {r + 12, r + 26, r + 42, r + 62}) {
        const std::array<double, 1> g = {gap};
        const auto around = boxes_around(at, w, h, g);
        p.far.insert(p.far.end(), around.begin(), around.end());
        for (const double y : {at.y - gap - h, at.y + gap}) {
            p.far.push_back({at.x + r - w, y, w, h});
            p.far.push_back({at.x - r, y, w, h});
        }
    }
}

pending_value pending_for(const scene& s, const std::vector<const marker*>& published,
                          const marker& m, const text_width_fn& measure, double font_px) {
    auto l = make_label(fmt::format("{:g} published", m.value), font_px, false, text_role::point,
                        measure);
    l.colour_tone = tone::rung;
    l.colour = m.colour;
    l.backdrop = true;
    // How far the spot reaches: a diamond 1.2 × its radius, its obstacle box radius + 3.
    double r = 0;
    for (const auto* o : published)
        if (o == &m || nested(s, *o, m)) r = std::max({r, o->radius_px * 1.2, o->radius_px + 3});
    pending_value p{std::move(l), {}, {}};
    const auto at = s.to_px(m.at);
    value_candidates(p, at, r);
    // A box nearer another published diamond than its own would be read as that one's.
    const auto foreign = [&](const rect& b) {
        const double d = distance(b, at);
        return std::any_of(published.begin(), published.end(), [&](const marker* o) {
            return o != &m && !nested(s, *o, m) && distance(b, s.to_px(o->at)) < d;
        });
    };
    std::erase_if(p.near, foreign);
    std::erase_if(p.far, foreign);
    return p;
}

// The most constrained value next: the fewest usable boxes beside its diamond (one at the
// plot's edge, or in a cluster) before one with room all around; a value with none beside it
// last, as it goes further out anyway.
template <class Usable>
pending_value* most_constrained(std::vector<pending_value>& todo, const Usable& usable) {
    pending_value* next = nullptr;
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
    return next;
}

// Clear of every line first, then usable; near before far.
template <class Usable>
std::optional<rect> choose_box(const pending_value& p, const label_placer& placer,
                               const rect& inside, const Usable& usable) {
    for (const auto* set : {&p.near, &p.far}) {
        for (const auto& c : *set)
            if (placer.is_free(c, inside, true)) return c;
        for (const auto& c : *set)
            if (usable(c)) return c;
    }
    return std::nullopt;
}

}  // namespace

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
        auto c = r.kind == roof_kind::compute
                     ? compute_roof_candidates(a_px, b_px, l.box.w, l.box.h)
                     : memory_roof_candidates(a_px, b_px, l.box.w, l.box.h);
        placer.place(std::move(l), ordered_candidates(s, r, std::move(c)), inside, true);
    }
}

void place_ridge_labels(label_placer& placer, const scene& s, const text_width_fn& measure,
                        double font_px) {
    const rect inside = plot_label_bounds(s);
    for (const auto& rg : s.ridges) {
        auto l = make_label(rg.text, font_px, true, text_role::ridge, measure);
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
    // Clear of every label and marker and of the roofs and ridge lines.
    const auto usable = [&](const rect& c) {
        return placer.is_free(c, inside, false) &&
               std::none_of(hard.begin(), hard.end(), [&](const auto& seg) {
                   return segment_hits_rect(seg.first, seg.second, c);
               });
    };
    std::vector<const marker*> published;
    for (const auto& m : s.markers)
        if (m.kind == marker_kind::published) published.push_back(&m);
    std::vector<pending_value> todo;
    for (const auto* m : published) todo.push_back(pending_for(s, published, *m, measure, font_px));
    for (std::size_t round = 0; round < todo.size(); ++round) {
        auto* next = most_constrained(todo, usable);
        next->placed = true;
        if (const auto chosen = choose_box(*next, placer, inside, usable)) {
            placer.place(std::move(next->l), std::span<const rect>(&*chosen, 1), inside, true);
        } else {
            auto all = next->near;
            all.insert(all.end(), next->far.begin(), next->far.end());
            placer.place(std::move(next->l), all, inside, true);
        }
    }
}

void place_rung_names(label_placer& placer, const scene& s, const text_width_fn& measure,
                      double font_px, const name_candidates_fn& candidates) {
    const rect inside = plot_label_bounds(s);
    std::vector<std::string> named;
    for (const auto& m : s.markers) {
        if (m.kind == marker_kind::published) continue;
        if (std::find(named.begin(), named.end(), m.rung) != named.end()) continue;
        named.push_back(m.rung);
        auto l = make_label(m.rung, font_px, true, text_role::point, measure);
        l.colour_tone = tone::rung;
        l.colour = m.colour;
        l.backdrop = true;
        const auto boxes = candidates(m.rung, l.box.w, l.box.h);
        placer.place(std::move(l), boxes, inside, true);
    }
}

}  // namespace tgemm::render
