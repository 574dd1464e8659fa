#include "analysis/repeatability.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/throw.hpp"
#include "model/levels.hpp"

namespace tgemm {

namespace {

bool measured(const measurement& m) {
    return !m.skipped && (m.time || !m.counters.empty());
}

std::string percent(double fraction) {
    return fmt::format("{:.2f} %", fraction * 100);
}

std::string value_text(double v, std::string_view unit) {
    return fmt::format("{:.6g}{}", v, unit);
}

}  // namespace

value_spread spread_of(std::span<const double> values) {
    if (values.empty()) TGEMM_THROW(internal, "the spread of no values");
    std::vector<double> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return {v.front(), n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v.back()};
}

measurement with_repeats(std::span<const measurement> runs) {
    if (runs.empty()) TGEMM_THROW(internal, "a row with no runs");
    measurement row = runs.front();
    if (runs.size() < 2 || !measured(row)) return row;
    repeat_summary r;
    std::vector<double> times;
    std::map<std::string, std::vector<double>, std::less<>> counters;
    for (const auto& run : runs) {
        if (!measured(run)) continue;
        ++r.n;
        if (run.time) times.push_back(run.time->median_ms);
        for (const auto& [k, v] : run.counters) counters[k].push_back(v);
    }
    if (!times.empty()) r.median_ms = spread_of(times);
    for (const auto& [k, values] : counters) r.counters[k] = spread_of(values);
    row.repeats = std::move(r);
    return row;
}

std::string_view movement_cause(std::string_view key) {
    if (key == "time (median)" || key == keys::duration_ns || key == keys::sm_clock_hz)
        return "timing: launch-to-launch spread of one kernel (clock, the GPU's other work)";
    if (key.starts_with(keys::stall_prefix) || key == keys::ipc || key == keys::issue_active_pct ||
        key == keys::fma_pipe_pct || key == keys::tensor_pipe_pct ||
        key == keys::achieved_occupancy_pct || key == keys::sm_cycles_active ||
        key == keys::warp_cycles)
        return "timing: how the warps happen to interleave (cycles and warp states)";
    if (key.ends_with("bank_conflicts"))
        return "timing: which warps' shared-memory accesses meet in one cycle";
    if (key == keys::l2_coalesced_bytes)
        return "timing: which identical L2 requests are in flight together";
    if (key.starts_with("l2_") || key.starts_with("dram_"))
        return "L2 contents: how far apart CTAs sharing a tile run, what stays in L2 "
               "(docs/validation-method.md)";
    return "not explained: a count that should not move";
}

std::string_view movement_cause(std::string_view key, const repeat_summary& row) {
    if (key == keys::inst_executed) {
        bool work_counted = false;
        bool work_moved = false;
        for (const auto work : {keys::flops, keys::tensor_flops}) {
            const auto it = row.counters.find(work);
            if (it == row.counters.end()) continue;
            work_counted = true;
            work_moved = work_moved || it->second.max != it->second.min;
        }
        if (work_counted && !work_moved)
            return "timing: spin-wait instructions (barrier try_wait loops run as long as the "
                   "wait); the FLOPs did not move";
    }
    return movement_cause(key);
}

text_table repeatability_table(const profile& p, double threshold) {
    text_table t;
    t.header = {"kernel", "size", "value", "min", "median", "max", "spread", "cause"};
    int most = 0;
    for (const auto& m : p.measurements) {
        if (!m.repeats) continue;
        most = std::max(most, m.repeats->n);
        const auto add = [&](const std::string& what, const value_spread& s,
                             std::string_view unit) {
            if (!(s.relative() > threshold)) return;
            t.rows.push_back({m.kernel, to_string(m.size), what, value_text(s.min, unit),
                              value_text(s.median, unit), value_text(s.max, unit),
                              std::isfinite(s.relative()) ? percent(s.relative()) : "∞",
                              std::string(movement_cause(what, *m.repeats))});
        };
        if (m.repeats->median_ms) add("time (median)", *m.repeats->median_ms, " ms");
        for (const auto& [k, s] : m.repeats->counters) add(k, s, "");
    }
    if (most == 0) {
        t.caption =
            "This profile holds no repeated runs: measure with --repeat N (N >= 2) to see how its "
            "counters and times move between runs.";
    } else if (t.rows.empty()) {
        t.caption = fmt::format(
            "Every counter and every median time stayed within {} over the {} runs of the work "
            "list (--repeat).",
            percent(threshold), most);
    } else {
        t.caption = fmt::format(
            "The counters and median times that moved more than {} over the {} runs of the work "
            "list (--repeat), {} value(s); spread = (max − min) / median. Each row of the profile "
            "holds its first run's values.",
            percent(threshold), most, t.rows.size());
    }
    return t;
}

}  // namespace tgemm
