#include "render/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace tgemm::render {

double distance(const rect& b, point p) {
    const double dx = std::max({b.x - p.x, 0.0, p.x - b.right()});
    const double dy = std::max({b.y - p.y, 0.0, p.y - b.bottom()});
    return std::hypot(dx, dy);
}

bool segment_hits_rect(point a, point b, const rect& r) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    double t0 = 0;
    double t1 = 1;
    // Each edge of the box either cuts the parameter range [t0, t1] or rejects the segment.
    const auto clip = [&](double p, double q) {
        if (p == 0) return q >= 0;
        const double t = q / p;
        if (p < 0) {
            if (t > t1) return false;
            t0 = std::max(t0, t);
        } else {
            if (t < t0) return false;
            t1 = std::min(t1, t);
        }
        return true;
    };
    return clip(-dx, a.x - r.x) && clip(dx, r.right() - a.x) && clip(-dy, a.y - r.y) &&
           clip(dy, r.bottom() - a.y) && t0 <= t1;
}

}  // namespace tgemm::render
