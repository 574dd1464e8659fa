#pragma once
// The details' "Why: execution at <size>" table: per row of the focus size, the warps a
// scheduler holds, a warp's cycles per instruction and what they are spent on, the issue rate,
// the pipes, and the bound they name (analysis/execution.hpp, docs/why.md).
#include <string>

#include "analysis/analysis.hpp"

namespace tgemm::render {

// The section with its heading; empty when no row of the focus size has execution counters.
[[nodiscard]] std::string execution_section(const analysis& a);

}  // namespace tgemm::render
