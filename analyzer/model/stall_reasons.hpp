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
    std::string_view words;   // what a warp in this state is doing: "waiting for a wgmma"
};

inline constexpr std::array stall_reasons{
    stall_reason{"stall_long_scoreboard", "smsp__warps_issue_stalled_long_scoreboard.sum",
                 "waiting for a global (L1TEX) load"},
    stall_reason{"stall_barrier", "smsp__warps_issue_stalled_barrier.sum",
                 "waiting at a CTA barrier"},
    stall_reason{"stall_mio_throttle", "smsp__warps_issue_stalled_mio_throttle.sum",
                 "held by a full shared-memory (MIO) queue"},
    stall_reason{"stall_short_scoreboard", "smsp__warps_issue_stalled_short_scoreboard.sum",
                 "waiting for a shared-memory (MIO) result"},
    stall_reason{"stall_math_pipe_throttle", "smsp__warps_issue_stalled_math_pipe_throttle.sum",
                 "held by a busy math pipe"},
    stall_reason{"stall_not_selected", "smsp__warps_issue_stalled_not_selected.sum",
                 "ready while another warp issued"},
    stall_reason{"stall_selected", "smsp__warps_issue_stalled_selected.sum", "issuing"},
    stall_reason{"stall_wait", "smsp__warps_issue_stalled_wait.sum", "waiting out a fixed latency"},
    stall_reason{"stall_lg_throttle", "smsp__warps_issue_stalled_lg_throttle.sum",
                 "held by a full global-memory (LSU) queue"},
    stall_reason{"stall_gmma", "smsp__warps_issue_stalled_gmma.sum", "waiting for a wgmma"},
    stall_reason{"stall_dispatch_stall", "smsp__warps_issue_stalled_dispatch_stall.sum",
                 "held at dispatch"},
    stall_reason{"stall_branch_resolving", "smsp__warps_issue_stalled_branch_resolving.sum",
                 "resolving a branch"},
    stall_reason{"stall_no_instruction", "smsp__warps_issue_stalled_no_instruction.sum",
                 "waiting for an instruction fetch"},
    stall_reason{"stall_imc_miss", "smsp__warps_issue_stalled_imc_miss.sum",
                 "missing the immediate-constant cache"},
    stall_reason{"stall_membar", "smsp__warps_issue_stalled_membar.sum",
                 "waiting at a memory barrier"},
    stall_reason{"stall_drain", "smsp__warps_issue_stalled_drain.sum",
                 "draining its stores at exit"},
    stall_reason{"stall_sleeping", "smsp__warps_issue_stalled_sleeping.sum", "sleeping"},
    stall_reason{"stall_tex_throttle", "smsp__warps_issue_stalled_tex_throttle.sum",
                 "held by a full texture queue"},
    stall_reason{"stall_misc", "smsp__warps_issue_stalled_misc.sum", "stalled for another reason"},
};

}  // namespace tgemm
