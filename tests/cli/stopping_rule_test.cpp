// The timing's stopping rule (collect/stopping_rule.hpp) on synthetic samples and a fake clock:
// it converges on quiet samples, stops at the time limit on noisy ones, never stops before the
// minimum number of runs, and its noise estimate is the documented one. No GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "collect/stopping_rule.hpp"

using namespace tgemm;

namespace {

// Launches that return samples from `next` and advance a fake clock by `step_s` each.
struct fake_launches {
    std::function<double()> next;
    double step_s = 0.001;
    double now = 0;
    int launches = 0;

    timing run(const timing_policy& p) {
        return sample_until_stable(
            [this] {
                ++launches;
                now += step_s;
                return next();
            },
            [this] { return now; }, p);
    }
};

// Normal samples around 1 ms with relative standard deviation `rel`, from a fixed seed.
std::function<double()> normal_ms(double rel, unsigned seed = 7) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    auto dist = std::make_shared<std::normal_distribution<double>>(1.0, rel);
    return [rng, dist] { return std::max(1e-6, (*dist)(*rng)); };
}

timing_policy policy(int min_runs, double target, double max_time_s) {
    timing_policy p;
    p.min_runs = min_runs;
    p.min_total_ms = 0;
    p.noise_target = target;
    p.max_time_s = max_time_s;
    return p;
}

}  // namespace

TEST(StoppingRule, NoiseIsTheRelativeStandardErrorOfTheMedianFromTheIqr) {
    // Quartiles interpolated (type 7): 2 and 4 of 1..5, so IQR = 2, median 3, n = 5.
    const std::vector<double> five = {5, 1, 4, 2, 3};
    EXPECT_NEAR(median_noise(five), 1.2533141373155 / 1.3489795003921 * 2 / (3 * std::sqrt(5.0)),
                1e-12);
    EXPECT_EQ(median_noise(std::vector<double>(50, 2.0)), 0);
    EXPECT_TRUE(std::isinf(median_noise(std::vector<double>{1, 2, 3})));        // too few to say
    EXPECT_TRUE(std::isinf(median_noise(std::vector<double>{0, 0, 0, 0, 1})));  // median 0
}

// A few slow launches (an interrupt, a clock step) move the IQR little; that is why the rule
// uses it rather than the standard deviation.
TEST(StoppingRule, AFewOutliersBarelyMoveTheNoise) {
    auto gen = normal_ms(0.01);
    std::vector<double> quiet;
    for (int i = 0; i < 200; ++i) quiet.push_back(gen());
    auto spiky = quiet;
    for (int i = 0; i < 5; ++i) spiky[static_cast<std::size_t>(i) * 40] = 10.0;
    EXPECT_LT(median_noise(spiky), 1.2 * median_noise(quiet));
    EXPECT_LT(median_noise(spiky), 0.005);
}

TEST(StoppingRule, NeverBeforeMinRunsEvenPastTheTimeLimit) {
    const auto p = policy(20, 0.005, 1.0);
    const std::vector<double> nineteen(19, 1.0);
    EXPECT_EQ(judge_timing(nineteen, 100.0, p), timing_stop::keep_going);
    const std::vector<double> twenty(20, 1.0);
    EXPECT_EQ(judge_timing(twenty, 0.0, p), timing_stop::noise_target);

    fake_launches slow{normal_ms(0.3), 1.0};  // each launch takes a second of the 0.5 s limit
    const auto t = slow.run(policy(20, 0.005, 0.5));
    EXPECT_EQ(t.runs, 20);
    EXPECT_EQ(slow.launches, 20);
    ASSERT_TRUE(t.noise_met);
    EXPECT_FALSE(*t.noise_met);
}

TEST(StoppingRule, QuietSamplesStopAtMinRuns) {
    fake_launches quiet{normal_ms(0.002)};
    const auto t = quiet.run(policy(20, 0.005, 10));
    EXPECT_EQ(t.runs, 20);
    ASSERT_TRUE(t.noise && t.noise_met && t.noise_target);
    EXPECT_LE(*t.noise, 0.005);
    EXPECT_TRUE(*t.noise_met);
    EXPECT_EQ(*t.noise_target, 0.005);
    EXPECT_LE(t.min_ms, t.median_ms);
    EXPECT_LE(t.median_ms, t.max_ms);
}

// 10 % scatter: the noise 0.93 · 0.135 / √n falls below 0.5 % near n = 630; the rule gets
// there, and not much later (checks every 5 % more launches past min_runs + 20).
TEST(StoppingRule, NoisierSamplesConvergeLater) {
    fake_launches noisy{normal_ms(0.10)};
    const auto t = noisy.run(policy(20, 0.005, 1000));
    EXPECT_GT(t.runs, 450);
    EXPECT_LT(t.runs, 900);
    ASSERT_TRUE(t.noise_met);
    EXPECT_TRUE(*t.noise_met);
    EXPECT_LE(*t.noise, 0.005);
}

TEST(StoppingRule, NoisySamplesStopAtTheTimeLimitAndSaySo) {
    fake_launches noisy{normal_ms(0.5), 0.001};  // 1 ms per launch, a 0.2 s limit: 200 launches
    const auto t = noisy.run(policy(20, 0.0001, 0.2));
    EXPECT_GE(t.runs, 200);
    EXPECT_LE(t.runs, 201);
    ASSERT_TRUE(t.noise && t.noise_met);
    EXPECT_FALSE(*t.noise_met);
    EXPECT_GT(*t.noise, 0.0001);
}

TEST(StoppingRule, MinTotalTimeAndTheRunCap) {
    auto p = policy(5, 0.5, 1000);
    p.min_total_ms = 10;
    const std::vector<double> short_total(8, 1.0);  // 8 ms of kernel time: not yet
    EXPECT_EQ(judge_timing(short_total, 0, p), timing_stop::keep_going);
    EXPECT_EQ(judge_timing(std::vector<double>(10, 1.0), 0, p), timing_stop::noise_target);
    p.min_total_ms = 1e9;
    p.max_runs = 50;
    fake_launches f{normal_ms(0.01)};
    EXPECT_EQ(f.run(p).runs, 50);
}
