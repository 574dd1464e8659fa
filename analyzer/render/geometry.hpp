#pragma once
// Pixel-space geometry the layout needs to keep labels apart: boxes and line segments.
#include <algorithm>

namespace tgemm::render {

struct point {
    double x = 0;
    double y = 0;
};

// Top-left corner plus size; y grows downwards as on the page.
struct rect {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;

    [[nodiscard]] double right() const { return x + w; }
    [[nodiscard]] double bottom() const { return y + h; }
    [[nodiscard]] point centre() const { return {x + w / 2, y + h / 2}; }
    // Boxes that only touch along an edge do not intersect: abutting table cells are fine.
    [[nodiscard]] bool intersects(const rect& o) const {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
    [[nodiscard]] bool contains(const rect& o) const {
        return o.x >= x && o.y >= y && o.right() <= right() && o.bottom() <= bottom();
    }
    [[nodiscard]] bool contains(point p) const {
        return p.x >= x && p.x <= right() && p.y >= y && p.y <= bottom();
    }
    [[nodiscard]] rect inflated(double d) const { return {x - d, y - d, w + 2 * d, h + 2 * d}; }
};

[[nodiscard]] inline rect box_around(point c, double half) {
    return {c.x - half, c.y - half, 2 * half, 2 * half};
}

// How far point `p` lies from box `b`; 0 inside it.
[[nodiscard]] double distance(const rect& b, point p);

// Whether the segment a–b passes through the box (Liang–Barsky clipping).
[[nodiscard]] bool segment_hits_rect(point a, point b, const rect& r);

}  // namespace tgemm::render
