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

// docs/validation/h100-l2-dirty-capacity.log: 4.2 MB stored, then a set every SM reads; x is the
// set over half the L2 plus, at their mean, the stored lines a partition holds as their home;
// made non-decreasing (0.147 at 0.74 and 0.084 at 0.79 are one noisy level). Dirty lines leave
// from 0.64 on, earlier than clean ones (from 0.9).
constexpr std::array<retention_point, 9> h100_dirty{{{0.54, 0.0},
                                                     {0.64, 0.002},
                                                     {0.74, 0.147},
                                                     {0.79, 0.147},
                                                     {0.84, 0.306},
                                                     {0.89, 0.463},
                                                     {0.94, 0.706},
                                                     {0.99, 0.782},
                                                     {1.04, 1.0}}};

}  // namespace

std::span<const retention_point> l2_dirty_eviction() {
    return h100_dirty;
}

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
