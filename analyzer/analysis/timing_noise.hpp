#pragma once
// How well each row's median time is known: the noise the timing stopped at against its target
// (collect/stopping_rule.hpp; profile.hpp, timing::noise). For `report --summary`, below the
// benchmark table.
#include "analysis/text_table.hpp"
#include "profile/profile.hpp"

namespace tgemm {

// The caption counts the timed rows that met their noise target and gives the largest noise;
// the rows are those that stopped at the time limit first (kernel, size, noise, target, runs).
// A profile before 1.4 records no noise: an empty caption and no rows, so that its summary is
// the table alone, as before.
[[nodiscard]] text_table timing_noise_table(const profile& p);

}  // namespace tgemm
