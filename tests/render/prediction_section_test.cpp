// The predicted-TFLOP/s section and table (render/prediction_section.hpp) from a made-up
// calibration: the numbers follow docs/prediction.md by hand.
#include <gtest/gtest.h>

#include "analysis/analysis.hpp"
#include "render/prediction_section.hpp"
#include "synthetic_profile.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

// The calibration as a predicted RTX 5070 Ti: 70 SMs at 2452 MHz, nothing timed.
profile predicted_5070ti(const profile& cal) {
    auto p = cal;
    p.source = profile_source::predicted;
    p.gpu.key = "rtx5070ti";
    p.gpu.name = "NVIDIA GeForce RTX 5070 Ti";
    p.gpu.sm_count = 70;
    p.gpu.sm_clock_mhz = 2452;
    for (auto& m : p.measurements) {
        m.time.reset();
        m.counters.clear();
    }
    return p;
}

}  // namespace

// No execution counters and no occupancy in the rows: a latency-bound row scales by SMs × clock
// alone, 132 × 1980 ÷ (70 × 2452) of the time, unless a roof of the target holds it.
TEST(PredictionSection, ScalesTheCalibrationBySmsAndClock) {
    const auto cal = test::synthetic_profile();
    const auto target = predicted_5070ti(cal);
    const auto a = analyze(target);
    const auto s = check_predictions(a, &cal);
    ASSERT_TRUE(s);
    const auto* naive = cal.find("naive", shape{4096, 4096, 4096});
    ASSERT_TRUE(naive && naive->time);
    const double cal_tflops = 2.0 * 4096.0 * 4096 * 4096 / (naive->time->median_ms * 1e-3) / 1e12;
    bool seen = false;
    for (const auto& c : s->rows)
        if (c.kernel == "naive" && c.size == shape{4096, 4096, 4096}) {
            seen = true;
            EXPECT_NEAR(c.predicted_tflops, cal_tflops * (70 * 2452.0) / (132 * 1980.0), 1e-9);
            ASSERT_TRUE(c.observed_tflops);  // seed 003 published naive at 4096³
            EXPECT_DOUBLE_EQ(*c.observed_tflops, 2.05);
        }
    EXPECT_TRUE(seen);
    EXPECT_GE(s->compared, 1);
    const auto table = predicted_tflops_table(a, &cal);
    EXPECT_NE(table.find("(published 2.05)"), std::string::npos) << table;
}

// The calibration GPU's own report has no prediction section, nor a measured one without a
// calibration.
TEST(PredictionSection, NoneForTheCalibrationItselfOrWithoutOne) {
    const auto cal = test::synthetic_profile();
    const auto a = analyze(cal);
    EXPECT_FALSE(check_predictions(a, &cal));
    EXPECT_TRUE(prediction_section(a, nullptr, "").empty());
    EXPECT_TRUE(predicted_tflops_table(a, &cal).empty());
}
