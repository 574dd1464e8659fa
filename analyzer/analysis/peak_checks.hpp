#pragma once
// Host-only arithmetic of the measured machine peaks (collect/peaks_bench.hpp measures them):
// clocks from (cycles, ns) pairs, medians, rates, merging measured values into a profile's
// roofs and the 3 % consistency rule. No CUDA here, so the host tests cover all of it.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profile/profile.hpp"

namespace tgemm {

// A measured value may exceed its reference (roof::reference()) by at most 3 % without a note
// saying why: beyond that, the benchmark or the theoretical figure is wrong.
inline constexpr double peak_tolerance = 1.03;

// One benchmark's result, before it is placed in a profile.
struct measured_peak {
    std::string key;   // roofs::fp32, roofs::dram, ...
    double value = 0;  // units per second
    std::string unit;  // "FLOP/s", "B/s"
    std::string measured_by;
    std::optional<double> clock_mhz;  // average SM clock while it ran, where it was read
    std::string note;                 // caveats of the measurement itself
};

// One block's clock reading: SM cycles (clock64) and nanoseconds (%globaltimer) between the
// same two points.
struct clock_sample {
    double cycles = 0;
    double ns = 0;
};

// The mean over samples of cycles / ns, in MHz; samples with no elapsed time or no cycles are
// left out. Empty when none is left.
[[nodiscard]] std::optional<double> average_clock_mhz(std::span<const clock_sample> samples);

// The median (the mean of the middle two for an even count). Throws on an empty input.
[[nodiscard]] double median(std::vector<double> values);

// amount / seconds for an amount moved or computed in `milliseconds`. Throws when
// milliseconds is not positive.
[[nodiscard]] double per_second(double amount, double milliseconds);

// Roofs whose theoretical value scales with the SM clock (FP32, shared memory, L2, tensor);
// DRAM runs on its own clock.
[[nodiscard]] bool scales_with_sm_clock(std::string_view key);

// Places each measured value in the roof of the same key: sets measured, measured_by and,
// for SM-clocked roofs with a clock, clock_mhz and theoretical_at_clock (theoretical ×
// clock / gpu.sm_clock_mhz). A value above peak_tolerance × reference() gets a note saying
// by how much and against which reference. A value whose roof has no theoretical figure is
// not placed: it comes back as a warning, one line each.
[[nodiscard]] std::vector<std::string> merge_measured_peaks(
    profile& p, std::span<const measured_peak> measured);

// Every measured roof above peak_tolerance × reference() without a note, and every roof with
// a clock but no theoretical value at that clock; one line each, empty when consistent.
[[nodiscard]] std::vector<std::string> peak_consistency_problems(const profile& p);

}  // namespace tgemm
