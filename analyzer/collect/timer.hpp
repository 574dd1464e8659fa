#pragma once
#include "collect/workspace.hpp"
#include "profile/profile.hpp"
#include "rung.hpp"

namespace tgemm {

struct timing_policy {
    int warmup = 2;
    int min_runs = 20;
    double min_total_ms = 100;
    int max_runs = 1000;
    double max_total_ms = 30000;
};

// Times a rung's bound launch with CUDA events around each launch alone. Before every launch C
// is restored and L2 flushed, outside the events, so each run starts cold like the counter pass.
[[nodiscard]] timing time_rung(const bound_launch& launch, const workspace& ws,
                               const timing_policy& policy);

}  // namespace tgemm
