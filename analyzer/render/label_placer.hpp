#pragma once
// Greedy label placement: each label takes the first of its candidate boxes that stays inside
// the bounds and clear of every label placed before it, every marker and (when asked) every
// line. Labels that fit nowhere are dropped rather than drawn on top of something.
#include <span>
#include <vector>

#include "render/geometry.hpp"
#include "render/scene.hpp"

namespace tgemm::render {

class label_placer {
  public:
    explicit label_placer(std::vector<label>& placed) : m_placed(placed) {}

    void add_obstacle(const rect& r) { m_obstacles.push_back(r); }
    void add_segment(point a, point b) { m_segments.push_back({a, b}); }

    // Places `l` at the first free candidate (its box is replaced by the candidate's). Lines
    // are avoided first; only if that fails and `may_cross_lines`, they are ignored. Returns
    // whether the label was placed.
    bool place(label l, std::span<const rect> candidates, const rect& bounds,
               bool may_cross_lines = false);

    [[nodiscard]] bool is_free(const rect& box, const rect& bounds, bool avoid_lines) const;

  private:
    struct segment {
        point a;
        point b;
    };
    std::vector<label>& m_placed;
    std::vector<rect> m_obstacles;
    std::vector<segment> m_segments;
};

// Boxes of size w×h around a point at increasing distance: right, above-right, above, above-left,
// left, below-left, below, below-right.
[[nodiscard]] std::vector<rect> boxes_around(point p, double w, double h,
                                             std::span<const double> gaps);

}  // namespace tgemm::render
