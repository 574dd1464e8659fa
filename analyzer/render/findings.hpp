#pragma once
// The report's "Findings": plain sentences drawn from the analysis, one fact each, so a reader
// sees which gap matters without reading every table.
#include <string>
#include <vector>

#include "model/analysis.hpp"

namespace tgemm::render {

[[nodiscard]] std::vector<std::string> findings(const analysis& a);

}  // namespace tgemm::render
