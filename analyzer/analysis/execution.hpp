#pragma once
// Why a row runs where it does, from the execution counters (docs/why.md). A kernel's active
// time follows Little's law on each warp scheduler:
//
//     cycles = instructions per scheduler × L / W
//
// W: warps resident per scheduler (achieved occupancy × the SM's maximum / 4 schedulers);
// L: cycles between two instructions of one warp (warp-cycles / warp instructions), which the
// stall reasons split by cause. A scheduler issues at most one instruction per cycle, so W/L
// is capped at 1: the issue roof. Each rung's time is thus instructions × latency ÷ warps in
// flight, and a ladder step changes one or more of the three factors.
#include <optional>
#include <string_view>
#include <vector>

#include "model/rung_model.hpp"
#include "profile/profile.hpp"

namespace tgemm {

inline constexpr int schedulers_per_sm = 4;  // every SM since Volta (Nsight Compute's SMSPs)

struct stall_share {
    std::string_view key;    // "stall_long_scoreboard"
    std::string_view words;  // what the warp waits for
    double share = 0;        // of the warps' resident cycles
};

struct execution_view {
    std::optional<double> inst_executed;  // warp instructions
    std::optional<double> achieved_occupancy_pct;
    std::optional<occupancy_estimate> theoretical;  // from the launch and the GPU's limits
    std::optional<double> ipc;                      // per SM
    std::optional<double> issue_active_pct;
    std::optional<double> fma_pipe_pct;
    std::optional<double> tensor_pipe_pct;
    std::optional<double> warps_per_scheduler;     // W
    std::optional<double> cycles_per_instruction;  // L, per warp
    // Every stall reason but "selected" (the issuing warp), largest share first.
    std::vector<stall_share> stalls;
    std::optional<double> selected_share;
    // The issue roof: the time for inst_executed at one instruction per scheduler per cycle,
    // at the row's measured clock, and the executed FLOP/s it allows.
    std::optional<double> issue_bound_s;
    std::optional<double> issue_ceiling_flops_per_s;

    [[nodiscard]] bool measured() const { return inst_executed && warps_per_scheduler; }
    // W / L: instructions per scheduler per cycle (≤ 1); the issue roof's share of the time.
    [[nodiscard]] std::optional<double> issue_rate() const;
};

// From the row's counters (empty fields where they were not collected: an older profile) and
// its model's theoretical occupancy.
[[nodiscard]] execution_view execution_of(const measurement& row, const gpu_info& gpu,
                                          std::optional<double> executed_flops);

// One factor of Little's law between two rows: after / before.
struct little_factors {
    double instructions = 1;  // fewer instructions: < 1
    double latency = 1;       // L: cycles per instruction per warp
    double warps = 1;         // W: warps per scheduler (more warps: > 1, which shortens time)
    double cycles = 1;        // instructions × latency / warps
};

// Empty when either row lacks the execution counters.
[[nodiscard]] std::optional<little_factors> little_factors_between(const execution_view& before,
                                                                   const execution_view& after);

}  // namespace tgemm
