#include "collect/stopping_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/throw.hpp"

namespace tgemm {

namespace {

// The q-quantile of sorted data, interpolated between neighbours (Hyndman and Fan's type 7,
// numpy's default), so that the quartiles of a few samples are not just two of them.
double quantile(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// 1.2533 = √(π/2), the standard error of the median in units of σ/√n for normal data;
// 1.349 = the interquartile range of a normal distribution in units of σ.
constexpr double se_median_per_iqr = 1.2533141373155 / 1.3489795003921;

}  // namespace

double median_noise(std::span<const double> samples) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (samples.size() < 4) return inf;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    const double median = quantile(sorted, 0.5);
    if (!(median > 0)) return inf;
    const double iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
    return se_median_per_iqr * iqr / (median * std::sqrt(static_cast<double>(sorted.size())));
}

timing_stop judge_timing(std::span<const double> samples_ms, double elapsed_s,
                         const timing_policy& policy) {
    const auto n = static_cast<std::int64_t>(samples_ms.size());
    if (n < policy.min_runs) return timing_stop::keep_going;
    const double total = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0);
    if (total >= policy.min_total_ms && median_noise(samples_ms) <= policy.noise_target)
        return timing_stop::noise_target;
    if (elapsed_s >= policy.max_time_s) return timing_stop::time_limit;
    if (n >= policy.max_runs) return timing_stop::run_cap;
    return timing_stop::keep_going;
}

timing sample_until_stable(const std::function<double()>& launch_ms,
                           const std::function<double()>& now_s, const timing_policy& policy) {
    if (policy.min_runs < 1 || policy.max_runs < policy.min_runs || !(policy.noise_target > 0))
        TGEMM_THROW(internal, "bad timing policy: {} to {} runs, noise target {}", policy.min_runs,
                    policy.max_runs, policy.noise_target);
    std::vector<double> ms;
    const double start = now_s();
    const auto dense = static_cast<std::size_t>(policy.min_runs) + 20;
    std::size_t next_check = 0;
    for (;;) {
        ms.push_back(launch_ms());
        const double elapsed = now_s() - start;
        const bool due = ms.size() <= dense || ms.size() >= next_check ||
                         elapsed >= policy.max_time_s ||
                         ms.size() >= static_cast<std::size_t>(policy.max_runs);
        if (!due) continue;
        if (judge_timing(ms, elapsed, policy) != timing_stop::keep_going) break;
        next_check = ms.size() + ms.size() / 20;
    }
    timing out;
    out.runs = static_cast<int>(ms.size());
    out.noise = median_noise(ms);
    out.noise_target = policy.noise_target;
    out.noise_met = *out.noise <= policy.noise_target;
    if (!std::isfinite(*out.noise)) out.noise.reset();  // too few samples to say: not stored
    std::sort(ms.begin(), ms.end());
    out.min_ms = ms.front();
    out.max_ms = ms.back();
    const auto n = ms.size();
    out.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return out;
}

}  // namespace tgemm
