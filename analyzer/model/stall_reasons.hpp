#pragma once
// The warp states Hopper's schedulers count every cycle (smsp__warps_issue_stalled_<reason>),
// with the plain words a finding uses for each. Meanings from Nsight Compute's Kernel Profiling
// Guide, "Warp Stall Reasons" (docs/why.md quotes the table it was copied from).
#include <array>
#include <string_view>

namespace tgemm {

struct stall_reason {
    std::string_view key;     // counter key: "stall_" + the metric's reason
    std::string_view metric;  // CUPTI / Nsight Compute name
    std::string_view words;   // what a warp in this state waits for
};

inline constexpr std::array stall_reasons{
    stall_reason{"stall_long_scoreboard", "smsp__warps_issue_stalled_long_scoreboard.sum",
                 "waiting for a global (L1TEX) load's result"},
    stall_reason{"stall_barrier", "smsp__warps_issue_stalled_barrier.sum",
                 "waiting at a CTA barrier (__syncthreads) for the other warps"},
    stall_reason{"stall_mio_throttle", "smsp__warps_issue_stalled_mio_throttle.sum",
                 "the shared-memory/special-function instruction queue is full"},
    stall_reason{"stall_short_scoreboard", "smsp__warps_issue_stalled_short_scoreboard.sum",
                 "waiting for a shared-memory load's (MIO) result"},
    stall_reason{"stall_math_pipe_throttle", "smsp__warps_issue_stalled_math_pipe_throttle.sum",
                 "the math pipe it needs is busy (compute bound)"},
    stall_reason{"stall_not_selected", "smsp__warps_issue_stalled_not_selected.sum",
                 "ready, but the scheduler issued another warp (issue bound)"},
    stall_reason{"stall_selected", "smsp__warps_issue_stalled_selected.sum",
                 "issuing (the one warp selected this cycle)"},
    stall_reason{"stall_wait", "smsp__warps_issue_stalled_wait.sum",
                 "a fixed-latency dependency (an arithmetic result a few cycles away)"},
    stall_reason{"stall_lg_throttle", "smsp__warps_issue_stalled_lg_throttle.sum",
                 "the global/local memory instruction queue is full"},
    stall_reason{"stall_gmma", "smsp__warps_issue_stalled_gmma.sum",
                 "waiting for a warpgroup MMA (wgmma) to finish"},
    stall_reason{"stall_dispatch_stall", "smsp__warps_issue_stalled_dispatch_stall.sum",
                 "the dispatcher could not take the instruction"},
    stall_reason{"stall_branch_resolving", "smsp__warps_issue_stalled_branch_resolving.sum",
                 "waiting for a branch target"},
    stall_reason{"stall_no_instruction", "smsp__warps_issue_stalled_no_instruction.sum",
                 "no instruction fetched (instruction cache miss or after a branch)"},
    stall_reason{"stall_imc_miss", "smsp__warps_issue_stalled_imc_miss.sum",
                 "an immediate-constant cache miss"},
    stall_reason{"stall_membar", "smsp__warps_issue_stalled_membar.sum",
                 "waiting at a memory barrier"},
    stall_reason{"stall_drain", "smsp__warps_issue_stalled_drain.sum",
                 "draining its stores before exiting"},
    stall_reason{"stall_sleeping", "smsp__warps_issue_stalled_sleeping.sum",
                 "sleeping (nanosleep or a cluster barrier)"},
    stall_reason{"stall_tex_throttle", "smsp__warps_issue_stalled_tex_throttle.sum",
                 "the texture queue is full"},
    stall_reason{"stall_misc", "smsp__warps_issue_stalled_misc.sum", "a miscellaneous reason"},
};

}  // namespace tgemm
