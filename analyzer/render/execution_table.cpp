#include "render/execution_table.hpp"

#include <fmt/format.h>

#include "analysis/execution.hpp"
#include "core/strings.hpp"
#include "render/format.hpp"
#include "render/md_table.hpp"
#include "render/why_words.hpp"

namespace tgemm::render {

namespace {

std::string pct_or_dash(std::optional<double> v) {
    return v ? fmt::format("{:.1f}", *v) : "—";
}

std::string top_stalls(const execution_view& v) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < v.stalls.size() && i < 3; ++i)
        parts.push_back(
            fmt::format("{} {}", v.stalls[i].key.substr(6), format_percent(v.stalls[i].share)));
    return join(parts, ", ");
}

}  // namespace

std::string execution_section(const analysis& a) {
    const auto focus = a.focus_size();
    if (!focus || !a.source) return {};
    md_table t({"kernel", "TFLOP/s", "W: warps / scheduler", "occupancy % (theoretical, limit)",
                "L: cycles / instruction", "issue %", "IPC", "FMA pipe %", "tensor pipe %",
                "largest stall shares", "bound"},
               {align::left, align::right, align::right, align::right, align::right, align::right,
                align::right, align::right, align::right, align::left, align::left});
    for (const auto& r : a.rows) {
        if (r.row->size != *focus) continue;
        const auto v = execution_of(*r.row, a.source->gpu, r.executed_flops);
        if (!v.measured()) continue;
        auto occ = pct_or_dash(v.achieved_occupancy_pct);
        if (v.theoretical)
            occ += fmt::format(" ({:.1f}, {})", v.theoretical->pct(), v.theoretical->limiter);
        t.add_row(
            {r.row->kernel, r.tflops ? format_tflops_value(*r.tflops * 1e12) : "—",
             fmt::format("{:.2f}", *v.warps_per_scheduler), occ,
             v.cycles_per_instruction ? fmt::format("{:.2f}", *v.cycles_per_instruction) : "—",
             pct_or_dash(v.issue_active_pct), v.ipc ? fmt::format("{:.2f}", *v.ipc) : "—",
             pct_or_dash(v.fma_pipe_pct), pct_or_dash(v.tensor_pipe_pct), top_stalls(v),
             execution_bound(v).value_or("—")});
    }
    if (t.row_count() == 0)
        return a.source->source == profile_source::predicted
                   ? std::string{}
                   : fmt::format(
                         "## Why: execution at {}\n\nNot measured: this profile has no "
                         "execution counters (it was measured before the tool collected "
                         "them; measure again to see them).\n\n",
                         to_string(*focus));
    return fmt::format(
        "## Why: execution at {}\n\n"
        "Per kernel, the factors of Little's law on a warp scheduler, cycles = instructions × L "
        "÷ W (docs/why.md): W, the warps a scheduler holds (achieved occupancy × {} warps per "
        "SM ÷ 4 schedulers; the theoretical occupancy and the resource that limits it from the "
        "launch and this GPU's limits); L, the cycles between two instructions of one warp "
        "(warp-cycles ÷ warp instructions); the issue rate W ÷ L as issue % (a scheduler "
        "issues at most one instruction a cycle); the stall reasons as shares of the warps' "
        "resident cycles. Bound: issue when the schedulers issue on {} of their cycles or more, "
        "else latency. All counters are Nsight Compute's metrics of the same names "
        "(docs/validation.md).\n\n{}\n",
        to_string(*focus), a.source->gpu.limits.threads_per_sm / 32,
        format_percent(issue_bound_from), t.str());
}

}  // namespace tgemm::render
