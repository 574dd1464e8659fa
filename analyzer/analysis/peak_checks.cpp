#include "analysis/peak_checks.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/throw.hpp"

namespace tgemm {

namespace {

// "exceeds the theoretical at the measured clock (1.23e+13 FLOP/s at 1755 MHz) by 4.2 %".
std::string excess_note(const roof& r) {
    const double excess = (*r.measured / r.reference() - 1) * 100;
    if (r.theoretical_at_clock)
        return fmt::format(
            "measured exceeds the theoretical at the measured clock ({:.4g} {} at {:.0f} MHz) "
            "by {:.1f} %",
            *r.theoretical_at_clock, r.unit, r.clock_mhz.value_or(0), excess);
    return fmt::format(
        "measured exceeds the theoretical at the maximum SM clock ({:.4g} {}; no clock was read "
        "while it ran) by {:.1f} %",
        r.theoretical, r.unit, excess);
}

bool exceeds(const roof& r) {
    return r.measured && r.reference() > 0 && *r.measured > peak_tolerance * r.reference();
}

}  // namespace

std::optional<double> average_clock_mhz(std::span<const clock_sample> samples) {
    double sum = 0;
    int n = 0;
    for (const auto& s : samples) {
        if (!(s.ns > 0) || !(s.cycles > 0)) continue;
        sum += s.cycles / s.ns * 1e3;  // cycles per ns = GHz
        ++n;
    }
    if (n == 0) return std::nullopt;
    return sum / n;
}

double median(std::vector<double> values) {
    if (values.empty()) TGEMM_THROW(internal, "median of no values");
    std::sort(values.begin(), values.end());
    const auto n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double per_second(double amount, double milliseconds) {
    if (!(milliseconds > 0))
        TGEMM_THROW(internal, "a rate over {} ms: the time must be positive", milliseconds);
    return amount / (milliseconds * 1e-3);
}

// L2 runs on its own clock (the spec's l2_clock_mhz), so its roof does not follow the SM clock.
bool scales_with_sm_clock(std::string_view key) {
    return key == roofs::fp32 || key == roofs::smem || key.starts_with("tensor_");
}

std::vector<std::string> merge_measured_peaks(profile& p, std::span<const measured_peak> measured) {
    std::vector<std::string> warnings;
    for (const auto& m : measured) {
        const auto it = p.peaks.find(m.key);
        if (it == p.peaks.end() || !(it->second.theoretical > 0)) {
            warnings.push_back(fmt::format(
                "measured {} = {:.4g} {} ({}) not stored: the profile has no theoretical '{}' "
                "roof for {} to compare it with",
                m.key, m.value, m.unit, m.measured_by, m.key,
                p.gpu.name.empty() ? p.gpu.key : p.gpu.name));
            continue;
        }
        auto& r = it->second;
        r.measured = m.value;
        r.measured_by = m.measured_by;
        r.clock_mhz.reset();
        r.theoretical_at_clock.reset();
        if (m.clock_mhz && scales_with_sm_clock(m.key) && p.gpu.sm_clock_mhz > 0) {
            r.clock_mhz = *m.clock_mhz;
            r.theoretical_at_clock = r.theoretical * *m.clock_mhz / p.gpu.sm_clock_mhz;
        }
        r.note = m.note;
        if (exceeds(r)) r.note = r.note.empty() ? excess_note(r) : r.note + "; " + excess_note(r);
    }
    return warnings;
}

std::vector<std::string> peak_consistency_problems(const profile& p) {
    std::vector<std::string> problems;
    for (const auto& [key, r] : p.peaks) {
        if (exceeds(r) && r.note.empty())
            problems.push_back(fmt::format(
                "roof '{}': measured {:.4g} {} is {:.1f} % above its reference {:.4g} {} ({}) "
                "and no note says why",
                key, *r.measured, r.unit, (*r.measured / r.reference() - 1) * 100, r.reference(),
                r.unit,
                r.theoretical_at_clock ? "theoretical at the measured clock"
                                       : "theoretical at the maximum SM clock"));
        if (r.clock_mhz && !r.theoretical_at_clock)
            problems.push_back(fmt::format(
                "roof '{}': a clock of {:.0f} MHz is recorded but no theoretical value at that "
                "clock",
                key, *r.clock_mhz));
    }
    return problems;
}

}  // namespace tgemm
