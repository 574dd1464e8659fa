#pragma once
// When to stop timing a pair: a rule like NVBench's. Launches go on until the noise of the
// median, the figure the profile stores and the report uses, falls below a target, or until a
// time limit passes, and never before a minimum number of runs. The rule is a pure function of
// the samples so that it is tested with synthetic ones (tests/cli/stopping_rule_test.cpp); the
// driver takes the launch and the clock as parameters for the same reason. docs/measurement.md,
// "Timing", explains the choice of estimator.
#include <functional>
#include <span>

#include "profile/profile.hpp"

namespace tgemm {

struct timing_policy {
    int warmup = 2;
    int min_runs = 20;  // --runs: always honoured, even past the time limit
    // At least this much kernel time, as before the noise rule: a 10 µs kernel still gets
    // thousands of launches, so its median does not rest on the event timer's resolution.
    double min_total_ms = 100;
    double noise_target = 0.005;  // --noise-target, as a fraction: 0.5 %
    double max_time_s = 10;       // --max-time-per-pair: wall time of the timed loop
    int max_runs = 100000;        // bounds the memory the samples take
};

enum class timing_stop { keep_going, noise_target, time_limit, run_cap };

// The relative standard error of the median of `samples`, estimated without resampling:
// 1.2533 · σ / √n / median, the large-sample standard error of a median for normal data, with
// σ taken from the interquartile range (σ ≈ IQR / 1.349) so that a few slow launches (an
// interrupt, a clock step) do not inflate it the way they inflate a standard deviation.
// +infinity below 4 samples or for a median that is not positive.
[[nodiscard]] double median_noise(std::span<const double> samples);

// Whether timing may stop after these samples (milliseconds), `elapsed_s` after the first timed
// launch began: not before min_runs; then at the noise target (once min_total_ms of kernel time
// is in), at the time limit, or at the run cap, in that order.
[[nodiscard]] timing_stop judge_timing(std::span<const double> samples_ms, double elapsed_s,
                                       const timing_policy& policy);

// Calls `launch_ms` (one timed launch, its time in ms) until judge_timing says stop, and
// summarises the samples. `now_s` is a clock in seconds. The noise is checked after every
// launch up to min_runs + 20 and then after every 5 % more launches, so that a fast kernel's
// 100 000 samples are not re-sorted after each of them; the time limit after every launch.
[[nodiscard]] timing sample_until_stable(const std::function<double()>& launch_ms,
                                         const std::function<double()>& now_s,
                                         const timing_policy& policy);

}  // namespace tgemm
