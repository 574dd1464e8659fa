// The peak micro-benchmarks on a real GPU: every value is positive and within 3 % of its
// reference (or says why not), DRAM and FP32 come close to their theoretical values, and the
// clocks the kernels read are plausible. Without a GPU each test skips and says why.
#include <gtest/gtest.h>

#include "analysis/peak_checks.hpp"
#include "collect/device.hpp"
#include "collect/peaks_bench.hpp"
#include "gpu/peaks.hpp"

using namespace tgemm;

namespace {

// One run of the benchmarks for the whole suite: a profile holding the theoretical roofs with
// the measured values merged in, and the merge's warnings.
struct peak_run {
    profile p;
    std::vector<std::string> warnings;
};

class Peaks : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        const auto probe = probe_local_device();
        if (!probe.device) {
            s_why = "no GPU: " + probe.why_none;
            return;
        }
        s_run = std::make_unique<peak_run>();
        s_run->p.gpu = probe.device->info;
        s_run->p.peaks = theoretical_roofs(probe.device->info);
        const auto measured = measure_peaks(*probe.device, probe.device->info);
        s_run->warnings = merge_measured_peaks(s_run->p, measured);
    }
    static void TearDownTestSuite() { s_run.reset(); }

    void SetUp() override {
        if (!s_run) GTEST_SKIP() << s_why;
    }

    static const roof& measured_roof(std::string_view key) {
        const auto& r = s_run->p.peaks.at(std::string(key));
        EXPECT_TRUE(r.measured) << key;
        return r;
    }

    static inline std::unique_ptr<peak_run> s_run;
    static inline std::string s_why;
};

}  // namespace

TEST_F(Peaks, EveryMeasuredRoofIsPositiveAndWithinItsReferenceOrNoted) {
    for (const auto& w : s_run->warnings) std::cout << "[ note ] " << w << "\n";
    for (const auto key : {roofs::fp32, roofs::dram, roofs::dram_copy, roofs::smem})
        EXPECT_TRUE(s_run->p.peaks.at(std::string(key)).measured) << key;
    int measured = 0;
    for (const auto& [key, r] : s_run->p.peaks) {
        if (!r.measured) continue;
        ++measured;
        EXPECT_GT(*r.measured, 0) << key;
        EXPECT_FALSE(r.measured_by.empty()) << key;
        if (*r.measured > peak_tolerance * r.reference()) {
            EXPECT_FALSE(r.note.empty())
                << key << ": " << *r.measured << " > 1.03 x " << r.reference() << " without a note";
        }
    }
    EXPECT_GE(measured, 4);
    const auto problems = peak_consistency_problems(s_run->p);
    EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST_F(Peaks, DramReadReachesEightyPercentOfTheoretical) {
    const auto& r = measured_roof(roofs::dram);
    ASSERT_TRUE(r.measured);
    EXPECT_GE(*r.measured, 0.80 * r.theoretical)
        << *r.measured / 1e9 << " GB/s of " << r.theoretical / 1e9 << " GB/s (" << r.measured_by
        << ")";
}

TEST_F(Peaks, Fp32ReachesNinetyPercentOfTheoreticalAtItsClock) {
    const auto& r = measured_roof(roofs::fp32);
    ASSERT_TRUE(r.measured);
    ASSERT_TRUE(r.theoretical_at_clock) << "the FMA kernel read no clock";
    EXPECT_GE(*r.measured, 0.90 * *r.theoretical_at_clock)
        << *r.measured / 1e12 << " TFLOP/s of " << *r.theoretical_at_clock / 1e12 << " TFLOP/s at "
        << r.clock_mhz.value_or(0) << " MHz";
}

TEST_F(Peaks, ClocksArePlausible) {
    const double max_mhz = s_run->p.gpu.sm_clock_mhz;
    int clocked = 0;
    for (const auto& [key, r] : s_run->p.peaks) {
        if (!r.clock_mhz) continue;
        ++clocked;
        EXPECT_GE(*r.clock_mhz, 500.0) << key;
        EXPECT_LE(*r.clock_mhz, 1.05 * max_mhz) << key;
        ASSERT_TRUE(r.theoretical_at_clock) << key;
        EXPECT_NEAR(*r.theoretical_at_clock, r.theoretical * *r.clock_mhz / max_mhz,
                    1e-9 * r.theoretical)
            << key;
    }
    EXPECT_GE(clocked, 2);  // FP32 and shared memory at least (L2 only with a theoretical)
}
