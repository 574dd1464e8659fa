// The calibrated performance model (analysis/performance_model.hpp) on made-up rows: exact on
// the calibration GPU, Little's law for occupancy, and the roofs as floors.
#include <gtest/gtest.h>

#include "analysis/performance_model.hpp"
#include "gpu/sm_limits.hpp"
#include "model/levels.hpp"

using namespace tgemm;

namespace {

profile gpu(std::string key, int sms, double clock_mhz, double dram_bw) {
    profile p;
    p.gpu.key = std::move(key);
    p.gpu.sm_count = sms;
    p.gpu.sm_clock_mhz = clock_mhz;
    p.gpu.limits = sm_limits_cc90;
    p.peaks["dram"].theoretical = dram_bw;
    p.peaks["fp32"].theoretical = sms * 256.0 * clock_mhz * 1e6;
    return p;
}

measurement row(double ms, int warps_per_sm, std::optional<double> w, std::optional<double> l) {
    measurement m;
    m.kernel = std::string("k");  // not a literal: GCC 12 -Wrestrict false positive (PR105329)
    m.size = {4096, 4096, 4096};
    m.time = timing{};
    m.time->median_ms = ms;
    // Below the maximum, as the tensor rungs run: the model scales by the maximum clocks.
    m.counters[std::string(keys::sm_clock_hz)] = 1750e6;
    m.counters[std::string(keys::dram_read_bytes)] = 2e8;
    m.counters[std::string(keys::dram_write_bytes)] = 6.7e7;
    m.counters[std::string(keys::flops)] = 2.0 * 4096 * 4096 * 4096;
    if (w && l) {
        const double inst = 1e9;
        m.counters[std::string(keys::inst_executed)] = inst;
        m.counters[std::string(keys::achieved_occupancy_pct)] = 100.0 * *w * 4 / 64;
        m.counters[std::string(keys::warp_cycles)] = inst * *l;
    }
    m.model.occupancy = occupancy_estimate{1, warps_per_sm, 64, "registers"};
    return m;
}

}  // namespace

TEST(PerformanceModel, OnTheCalibrationGpuItIsTheMeasurement) {
    const auto h = gpu("h100", 132, 1980, 3.35e12);
    const auto r = row(5.0, 16, 4.0, 8.0);
    const auto p = predict_time(r, h, r, h);
    ASSERT_TRUE(p);
    EXPECT_NEAR(p->seconds, 5e-3, 1e-12);
    EXPECT_EQ(p->bound, "latency");
    EXPECT_TRUE(p->used_execution_counters);
}

TEST(PerformanceModel, HalfTheSmsAtTheSameClockTakeTwiceAsLong) {
    const auto h = gpu("h100", 132, 1980, 3.35e12);
    const auto t = gpu("half", 66, 1980, 3.35e12);
    const auto r = row(5.0, 16, 4.0, 8.0);
    EXPECT_NEAR(predict_time(r, h, r, t)->seconds, 10e-3, 1e-12);
}

// Latency-bound (W/L = 0.5): half the warps on the target halve the issue rate.
TEST(PerformanceModel, FewerResidentWarpsSlowALatencyBoundKernel) {
    const auto h = gpu("h100", 132, 1980, 3.35e12);
    const auto t = gpu("small", 132, 1980, 3.35e12);
    const auto r = row(5.0, 16, 4.0, 8.0);
    const auto target = row(5.0, 8, std::nullopt, std::nullopt);
    EXPECT_NEAR(predict_time(r, h, target, t)->seconds, 10e-3, 1e-12);
    // Without the execution counters the same rule holds as an assumption.
    const auto old = row(5.0, 16, std::nullopt, std::nullopt);
    const auto p = predict_time(old, h, target, t);
    EXPECT_NEAR(p->seconds, 10e-3, 1e-12);
    EXPECT_FALSE(p->used_execution_counters);
}

// Issue-bound (W/L capped at 1): more warps do not make it faster.
TEST(PerformanceModel, MoreWarpsDoNotHelpAnIssueBoundKernel) {
    const auto h = gpu("h100", 132, 1980, 3.35e12);
    const auto r = row(5.0, 16, 4.0, 4.0);  // W/L = 1
    const auto target = row(5.0, 32, std::nullopt, std::nullopt);
    const auto p = predict_time(r, h, target, h);
    EXPECT_NEAR(p->seconds, 5e-3, 1e-12);
    EXPECT_EQ(p->bound, "issue");
}

// A target with a slow memory is held by its DRAM roof at the calibration's efficiency.
TEST(PerformanceModel, TheTargetsDramRoofIsAFloor) {
    auto h = gpu("h100", 132, 1980, 3.35e12);
    h.peaks["dram"].measured = 0.9 * 3.35e12;
    const auto t = gpu("slow", 132, 1980, 1e10);
    const auto r = row(5.0, 16, 4.0, 8.0);
    const auto p = predict_time(r, h, r, t);
    EXPECT_EQ(p->bound, "DRAM");
    EXPECT_NEAR(p->seconds, 2.67e8 / (1e10 * 0.9), 1e-9);
}
