#pragma once
// The words of "why": a rung's measured cause (warps, latency per instruction and what it is
// spent on, issue rate) and, for a ladder step, which factor of Little's law moved
// (analysis/execution.hpp derives the numbers).
#include <optional>
#include <string>

#include "analysis/execution.hpp"

namespace tgemm::render {

// A scheduler issuing at least this share of its cycles is issue-bound: more warps cannot
// help, only fewer instructions.
inline constexpr double issue_bound_from = 0.8;

// Below this share of its lowest roof a rung's time is not that roof's: the execution counters
// then name the bound (issue or latency) instead of only describing the execution.
inline constexpr double execution_bound_below = 0.5;

// With `pct_of_roof` (achieved ÷ the bounding roof) under execution_bound_below: "Latency-bound
// (Little's law): 1.9 warps per scheduler (occupancy 12.1 % of 12.5 % theoretical, limited by
// registers); a warp issues every 4.3 cycles and of its time spends 40.0 % waiting for a global
// (L1TEX) load, 13.0 % ready while another warp issued; so a scheduler issues 0.45 instructions
// per cycle, 45.3 % of the issue roof (53.1 TFLOP/s at its 301 M instructions); the FMA pipe
// is busy 40.6 % of the cycles."; otherwise the
// same facts as "Execution: ...", without a bound or the issue roof. Empty when the row has no
// execution counters.
[[nodiscard]] std::optional<std::string> why_sentence(const execution_view& v,
                                                      std::optional<double> pct_of_roof);

// The summary page's form: "Latency-bound: 1.9 warps per scheduler (occupancy 12.2 % of 12.5 %,
// limited by registers), 43.0 % of the warps' time waiting for a global (L1TEX) load." only when
// the counters name the bound (pct_of_roof under execution_bound_below); empty otherwise.
[[nodiscard]] std::optional<std::string> short_why(const execution_view& v,
                                                   std::optional<double> pct_of_roof);

// The bound's name: "issue" or "latency"; empty without execution counters.
[[nodiscard]] std::optional<std::string> execution_bound(const execution_view& v);

// One ladder step's line: "Why (Little's law: cycles = instructions × L ÷ W): instructions
// 306 M → 301 M (×0.98); warps per scheduler 3.9 → 1.9 (×0.50; occupancy ...); L 7.1 → 4.5
// cycles (×0.63); so cycles ×1.24. Largest stall shares: long scoreboard 16 % → 40 %, ..."
[[nodiscard]] std::optional<std::string> little_step_line(const execution_view& from,
                                                          const execution_view& to);

}  // namespace tgemm::render
