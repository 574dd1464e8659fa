#include "gpu/l2_retention.hpp"

#include <array>

namespace tgemm {
namespace {

// docs/validation/h100-l2-capacity.log (2026-11-25T10:41Z) and h200-l2-capacity.log
// (2026-11-25T12:25Z): the share of the set re-read from DRAM; 0.2 % and less below 0.9 read as 0.
constexpr std::array<retention_point, 5> h100{
    {{0.8, 0.0}, {0.9, 0.005}, {1.0, 0.188}, {1.1, 0.675}, {1.25, 1.0}}};
constexpr std::array<retention_point, 5> h200{
    {{0.8, 0.0}, {0.9, 0.007}, {1.0, 0.391}, {1.1, 0.853}, {1.25, 1.0}}};

}  // namespace

std::span<const retention_point> l2_retention_of(std::string_view key) {
    if (key == "h100") return h100;
    if (key == "h200") return h200;
    return {};
}

double evicted_at(std::span<const retention_point> curve, double x) {
    if (curve.empty()) return x > 1 ? 1 : 0;
    if (x <= curve.front().x) return curve.front().evicted;
    for (std::size_t i = 1; i < curve.size(); ++i)
        if (x <= curve[i].x) {
            const auto& p = curve[i - 1];
            const auto& q = curve[i];
            return p.evicted + (q.evicted - p.evicted) * (x - p.x) / (q.x - p.x);
        }
    return curve.back().evicted;
}

}  // namespace tgemm
