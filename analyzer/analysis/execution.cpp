#include "analysis/execution.hpp"

#include <algorithm>

#include "model/levels.hpp"
#include "model/stall_reasons.hpp"

namespace tgemm {

std::optional<double> execution_view::issue_rate() const {
    if (!warps_per_scheduler || !cycles_per_instruction || *cycles_per_instruction <= 0)
        return std::nullopt;
    return std::min(1.0, *warps_per_scheduler / *cycles_per_instruction);
}

execution_view execution_of(const measurement& row, const gpu_info& gpu,
                            std::optional<double> executed_flops) {
    execution_view v;
    v.inst_executed = row.counter(keys::inst_executed);
    v.achieved_occupancy_pct = row.counter(keys::achieved_occupancy_pct);
    v.theoretical = row.model.occupancy;
    v.ipc = row.counter(keys::ipc);
    v.issue_active_pct = row.counter(keys::issue_active_pct);
    v.fma_pipe_pct = row.counter(keys::fma_pipe_pct);
    v.tensor_pipe_pct = row.counter(keys::tensor_pipe_pct);
    const int max_warps = gpu.limits.threads_per_sm / 32;
    if (v.achieved_occupancy_pct && max_warps > 0)
        v.warps_per_scheduler = *v.achieved_occupancy_pct / 100.0 * max_warps / schedulers_per_sm;
    const auto warp_cycles = row.counter(keys::warp_cycles);
    if (warp_cycles && v.inst_executed && *v.inst_executed > 0)
        v.cycles_per_instruction = *warp_cycles / *v.inst_executed;
    if (warp_cycles && *warp_cycles > 0)
        for (const auto& r : stall_reasons) {
            const auto c = row.counter(r.key);
            if (!c) continue;
            if (r.key == "stall_selected")
                v.selected_share = *c / *warp_cycles;
            else
                v.stalls.push_back({r.key, r.words, *c / *warp_cycles});
        }
    std::stable_sort(v.stalls.begin(), v.stalls.end(),
                     [](const stall_share& a, const stall_share& b) { return a.share > b.share; });
    const auto clock = row.counter(keys::sm_clock_hz);
    if (v.inst_executed && clock && *clock > 0 && gpu.sm_count > 0) {
        v.issue_bound_s = *v.inst_executed / (double(gpu.sm_count) * schedulers_per_sm * *clock);
        if (executed_flops && *v.issue_bound_s > 0)
            v.issue_ceiling_flops_per_s = *executed_flops / *v.issue_bound_s;
    }
    return v;
}

std::optional<little_factors> little_factors_between(const execution_view& before,
                                                     const execution_view& after) {
    if (!before.measured() || !after.measured() || !before.cycles_per_instruction ||
        !after.cycles_per_instruction)
        return std::nullopt;
    little_factors f;
    f.instructions = *after.inst_executed / *before.inst_executed;
    f.latency = *after.cycles_per_instruction / *before.cycles_per_instruction;
    f.warps = *after.warps_per_scheduler / *before.warps_per_scheduler;
    f.cycles = f.instructions * f.latency / f.warps;
    return f;
}

}  // namespace tgemm
