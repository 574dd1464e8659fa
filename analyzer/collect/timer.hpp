#pragma once
#include "collect/stopping_rule.hpp"
#include "collect/workspace.hpp"
#include "profile/profile.hpp"
#include "rung.hpp"

namespace tgemm {

// Times a rung's bound launch with CUDA events around each launch alone. Before every launch C
// is restored and L2 flushed, outside the events, so each run starts cold like the counter pass.
// Launches go on until the policy's stopping rule says stop (collect/stopping_rule.hpp).
[[nodiscard]] timing time_rung(const bound_launch& launch, const workspace& ws,
                               const timing_policy& policy);

}  // namespace tgemm
