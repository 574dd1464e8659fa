#include "analysis/timing_noise.hpp"

#include <fmt/format.h>

namespace tgemm {

namespace {

std::string percent(double fraction) {
    return fmt::format("{:.2f} %", fraction * 100);
}

}  // namespace

text_table timing_noise_table(const profile& p) {
    text_table t;
    t.header = {"kernel", "size", "noise", "target", "runs"};
    int timed = 0, met = 0;
    const measurement* worst = nullptr;
    for (const auto& m : p.measurements) {
        if (!m.time || !m.time->noise_met) continue;
        ++timed;
        if (*m.time->noise_met) ++met;
        if (m.time->noise && (!worst || *m.time->noise > *worst->time->noise)) worst = &m;
        if (!*m.time->noise_met)
            t.rows.push_back({m.kernel, to_string(m.size),
                              m.time->noise ? percent(*m.time->noise) : "unknown",
                              m.time->noise_target ? percent(*m.time->noise_target) : "?",
                              std::to_string(m.time->runs)});
    }
    if (timed == 0) return t;
    t.caption = fmt::format(
        "Timing noise (the relative standard error of the median, docs/measurement.md): {} of {} "
        "timed row(s) met their target",
        met, timed);
    if (worst)
        t.caption += fmt::format("; the largest, {} at {}: {}", worst->kernel,
                                 to_string(worst->size), percent(*worst->time->noise));
    t.caption += t.rows.empty() ? "." : "; these stopped at the time limit first:";
    return t;
}

}  // namespace tgemm
