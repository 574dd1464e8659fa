#pragma once
// --repeat N: a run measures its work list N times; each row of the profile keeps the first
// run's values and a summary of how every value moved over the N runs (profile.hpp,
// repeat_summary). This builds that summary, and the table of what moved more than a threshold
// (`tgemm-roofline report --repeatability PROFILE`).
#include <span>

#include "analysis/text_table.hpp"
#include "profile/profile.hpp"

namespace tgemm {

// The spread of `values` (not empty): min, median (the mean of the middle two for an even
// count), max.
[[nodiscard]] value_spread spread_of(std::span<const double> values);

// The row of one (kernel, size) from its N runs, in run order: the first run's row, with
// `repeats` over the runs that measured it (a row with a time or counters) when N >= 2 and the
// first run measured it. Every counter key of any run gets a spread over the runs that have it.
[[nodiscard]] measurement with_repeats(std::span<const measurement> runs);

// A value moves when its spread (max − min) / median exceeds this: 1 %.
inline constexpr double repeatability_threshold = 0.01;

// Why a value moves between runs, from what it counts: timing (durations, cycles, warp states,
// bank conflicts, the request coalescer), L2 contents (L2 and DRAM bytes), or "not explained"
// for a count that should not move (FLOPs, instructions, L1 and shared wavefronts).
[[nodiscard]] std::string_view movement_cause(std::string_view key);
// The same, with the row's other values: an instruction count that moves while every FLOP count
// of the row stays put is the spin-waits' (mbarrier try_wait loops of the warp-specialized and
// persistent kernels run as many times as the wait lasts), a timing effect.
[[nodiscard]] std::string_view movement_cause(std::string_view key, const repeat_summary& row);

// One row per value of a row that moved more than `threshold` over the runs, in the profile's
// row order, the median time first: kernel, size, value ("time (median)" or the counter key),
// min, median, max, spread, cause (movement_cause). The caption says how many runs and what the
// table holds, or, with no rows, that nothing moved or that the profile holds no repeated runs.
[[nodiscard]] text_table repeatability_table(const profile& p,
                                             double threshold = repeatability_threshold);

}  // namespace tgemm
