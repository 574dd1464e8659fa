#include "render/why_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/strings.hpp"
#include "render/format.hpp"

namespace tgemm::render {

namespace {

// "long scoreboard" from "stall_long_scoreboard".
std::string reason_name(std::string_view key) {
    std::string s(key.substr(std::string_view("stall_").size()));
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

std::string occupancy_clause(const execution_view& v) {
    auto s = fmt::format("occupancy {:.1f} %", *v.achieved_occupancy_pct);
    if (v.theoretical)
        s += fmt::format(" of {:.1f} % theoretical, limited by {}", v.theoretical->pct(),
                         v.theoretical->limiter);
    return s;
}

// The stall reasons worth naming: the largest two, and any other above 15 % of the time.
std::vector<std::string> stall_clauses(const execution_view& v) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.stalls.size(); ++i) {
        const auto& s = v.stalls[i];
        if (i >= 2 && s.share < 0.15) break;
        if (s.share < 0.05) break;
        out.push_back(fmt::format("{} {}", format_percent(s.share), s.words));
    }
    return out;
}

}  // namespace

std::optional<std::string> execution_bound(const execution_view& v) {
    const auto rate = v.issue_rate();
    if (!rate) return std::nullopt;
    return *rate >= issue_bound_from ? "issue" : "latency";
}

std::optional<std::string> why_sentence(const execution_view& v,
                                        std::optional<double> pct_of_roof) {
    const auto rate = v.issue_rate();
    const auto bound = execution_bound(v);
    if (!rate || !bound || !v.achieved_occupancy_pct) return std::nullopt;
    const bool names_bound = !pct_of_roof || *pct_of_roof < execution_bound_below;
    const auto head = !names_bound        ? std::string("Execution")
                      : *bound == "issue" ? std::string("Issue-bound (Little's law)")
                                          : std::string("Latency-bound (Little's law)");
    auto s =
        fmt::format("{}: {:.1f} warps per scheduler ({}); a warp issues every {:.1f} cycles", head,
                    *v.warps_per_scheduler, occupancy_clause(v), *v.cycles_per_instruction);
    if (const auto st = stall_clauses(v); !st.empty())
        s += fmt::format(" and of its time spends {}", join(st, ", "));
    s += fmt::format("; so a scheduler issues {:.2f} instructions per cycle", *rate);
    if (names_bound) {
        s += fmt::format(", {} of the issue roof", format_percent(*rate));
        if (v.issue_ceiling_flops_per_s && v.inst_executed)
            s += fmt::format(" ({} TFLOP/s at its {} instructions)",
                             format_tflops_value(*v.issue_ceiling_flops_per_s),
                             format_count(*v.inst_executed, ""));
    }
    // The pipe that does the row's math: the tensor pipe where it ran, else the FMA pipe.
    if (v.tensor_pipe_pct && *v.tensor_pipe_pct > 0)
        s += fmt::format("; the tensor pipe is busy {:.1f} % of the cycles", *v.tensor_pipe_pct);
    else if (v.fma_pipe_pct)
        s += fmt::format("; the FMA pipe is busy {:.1f} % of the cycles", *v.fma_pipe_pct);
    return s + ".";
}

std::optional<std::string> short_why(const execution_view& v, std::optional<double> pct_of_roof) {
    const auto bound = execution_bound(v);
    if (!bound || !v.achieved_occupancy_pct ||
        (pct_of_roof && *pct_of_roof >= execution_bound_below))
        return std::nullopt;
    auto s = fmt::format("{}-bound: {:.1f} warps per scheduler ({})",
                         *bound == "issue" ? "Issue" : "Latency", *v.warps_per_scheduler,
                         occupancy_clause(v));
    if (!v.stalls.empty())
        s += fmt::format(", {} of the warps' time {}", format_percent(v.stalls.front().share),
                         v.stalls.front().words);
    return s + ".";
}

std::optional<std::string> little_step_line(const execution_view& from, const execution_view& to) {
    const auto f = little_factors_between(from, to);
    if (!f) return std::nullopt;
    auto s = fmt::format(
        "Why (Little's law, cycles = instructions × L ÷ W): instructions {} → {} (×{:.2f}); W, "
        "warps per scheduler, {:.1f} → {:.1f} (×{:.2f}; {} → {})",
        format_count(*from.inst_executed, ""), format_count(*to.inst_executed, ""), f->instructions,
        *from.warps_per_scheduler, *to.warps_per_scheduler, f->warps, occupancy_clause(from),
        occupancy_clause(to));
    s += fmt::format(
        "; L, a warp's cycles per instruction, {:.1f} → {:.1f} (×{:.2f}); so cycles "
        "×{:.2f}",
        *from.cycles_per_instruction, *to.cycles_per_instruction, f->latency, f->cycles);
    // The reasons whose share moved most, in either direction.
    std::vector<std::pair<double, std::string>> moved;
    for (const auto& b : to.stalls) {
        double before = 0;
        for (const auto& a : from.stalls)
            if (a.key == b.key) before = a.share;
        moved.push_back(
            {b.share - before, fmt::format("{} {} → {}", reason_name(b.key), format_percent(before),
                                           format_percent(b.share))});
    }
    std::stable_sort(moved.begin(), moved.end(), [](const auto& x, const auto& y) {
        return std::fabs(x.first) > std::fabs(y.first);
    });
    std::vector<std::string> top;
    for (std::size_t i = 0; i < moved.size() && i < 3; ++i)
        if (std::fabs(moved[i].first) >= 0.03) top.push_back(moved[i].second);
    if (!top.empty()) s += "; stall shares that moved most: " + join(top, ", ");
    return s + ".";
}

}  // namespace tgemm::render
