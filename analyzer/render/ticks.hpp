#pragma once
// Log axes for the roofline: whole decades that cover the data, one labelled tick per decade
// and unlabelled 2..9 grid lines between them.
#include <string>

#include "render/scene.hpp"

namespace tgemm::render {

// "0.01", "0.1", "1", "10", "1000"; beyond 10⁴ or below 10⁻³, "1e5" / "1e-4".
[[nodiscard]] std::string decade_label(int exponent);

// An axis from the decade at or below `lo` to the decade at or above `hi` (at least one
// decade). Tick labels are in units of 10^label_exponent: 12 labels FLOP/s in TFLOP/s.
[[nodiscard]] axis make_log_axis(std::string title, double lo, double hi, int label_exponent);

}  // namespace tgemm::render
