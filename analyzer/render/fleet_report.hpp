#pragma once
// The fleet report (analysis/fleet.hpp) as markdown: the cards, the flagged values first, then
// every measured roof and every rung's TFLOP/s per card beside the median.
#include <string>

#include "analysis/fleet.hpp"

namespace tgemm::render {

[[nodiscard]] std::string fleet_markdown(const fleet_analysis& a, const std::string& command);

}  // namespace tgemm::render
