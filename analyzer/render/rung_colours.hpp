#pragma once
// The ladder's order and colours, shared by every plot and table: a rung is the same colour
// on the roofline, the bytes-per-level panels, the AI-vs-size lines and the TFLOP/s bars, and
// every table lists the rungs in the same order.
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"

namespace tgemm::render {

// The kernels that take a colour, in ladder (profile) order: a rung skipped at every size
// takes none, so the colours of the rest do not depend on which rungs ran.
[[nodiscard]] std::vector<std::string> coloured_rungs(const analysis& a);

// The palette index of `rung` among `rungs` (from coloured_rungs); 0 for one not listed.
[[nodiscard]] int rung_colour(const std::vector<std::string>& rungs, std::string_view rung);

// Every row at size `s`, in ladder (the profile's first-seen kernel) order.
[[nodiscard]] std::vector<const row_analysis*> rows_at(const analysis& a, const shape& s);

}  // namespace tgemm::render
