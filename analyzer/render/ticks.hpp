#pragma once
// Scales as pure data: the axes every plot draws, from the data range they must cover. Log axes
// of whole decades (the rooflines, AI and bytes), a linear axis in round steps (TFLOP/s) and a
// log axis through given values (the problem sizes).
#include <cstdint>
#include <string>
#include <vector>

#include "render/scene.hpp"

namespace tgemm::render {

// "0.01", "0.1", "1", "10", "1000"; beyond 10⁴ or below 10⁻³, "1e5" / "1e-4".
[[nodiscard]] std::string decade_label(int exponent);

// An axis from the decade at or below `lo` to the decade at or above `hi` (at least one
// decade). Tick labels are in units of 10^label_exponent: 12 labels FLOP/s in TFLOP/s.
[[nodiscard]] axis make_log_axis(std::string title, double lo, double hi, int label_exponent);

// A linear axis from 0 to at least `hi`, labelled about eight times in steps of 1, 2, 2.5 or
// 5 × 10^k.
[[nodiscard]] axis make_linear_axis(std::string title, double hi);

// A log axis with a labelled tick at each of `values` (ascending, at least one) and a little
// room beyond the first and the last.
[[nodiscard]] axis make_value_axis(std::string title, const std::vector<std::int64_t>& values);

}  // namespace tgemm::render
