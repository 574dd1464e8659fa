#pragma once
// The fleet report (analysis/fleet.hpp) as markdown: the cards, the flagged values first, then
// every measured roof and every rung's TFLOP/s per card beside the median.
#include <string>

#include "analysis/fleet.hpp"
#include "analysis/fleet_models.hpp"

namespace tgemm::render {

// `level`: the title's heading level (1: "# Fleet report …"), sections one below it.
[[nodiscard]] std::string fleet_markdown(const fleet_analysis& a, const std::string& command,
                                         int level = 1);

// The comparison across models: each model's median roofs and rungs against the first model's,
// and each rung's speed-up against the ratio of the roof that bounds it, judged as following
// that roof or not. Sections at `level`.
[[nodiscard]] std::string models_markdown(const models_analysis& m, int level = 2);

}  // namespace tgemm::render
