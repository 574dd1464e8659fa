#include "render/label_placer.hpp"

namespace tgemm::render {

bool label_placer::is_free(const rect& box, const rect& bounds, bool avoid_lines) const {
    if (!bounds.contains(box)) return false;
    for (const auto& l : m_placed)
        if (l.box.intersects(box)) return false;
    for (const auto& o : m_obstacles)
        if (o.intersects(box)) return false;
    if (avoid_lines)
        for (const auto& s : m_segments)
            if (segment_hits_rect(s.a, s.b, box)) return false;
    return true;
}

bool label_placer::place(label l, std::span<const rect> candidates, const rect& bounds,
                         bool may_cross_lines) {
    for (const bool avoid_lines : {true, false}) {
        if (!avoid_lines && !may_cross_lines) break;
        for (const auto& c : candidates) {
            if (!is_free(c, bounds, avoid_lines)) continue;
            l.box = c;
            m_placed.push_back(std::move(l));
            return true;
        }
    }
    return false;
}

std::vector<rect> boxes_around(point p, double w, double h, std::span<const double> gaps) {
    std::vector<rect> out;
    for (const double g : gaps) {
        const double d = g * 0.7071;  // the diagonal positions sit at the same distance
        out.push_back({p.x + g, p.y - h / 2, w, h});
        out.push_back({p.x + d, p.y - d - h, w, h});
        out.push_back({p.x - w / 2, p.y - g - h, w, h});
        out.push_back({p.x - d - w, p.y - d - h, w, h});
        out.push_back({p.x - g - w, p.y - h / 2, w, h});
        out.push_back({p.x - d - w, p.y + d, w, h});
        out.push_back({p.x - w / 2, p.y + g, w, h});
        out.push_back({p.x + d, p.y + d, w, h});
    }
    return out;
}

}  // namespace tgemm::render
