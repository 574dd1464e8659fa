// --repeat's summary and table (analysis/repeatability.hpp) and the timing-noise table of
// `report --summary` (analysis/timing_noise.hpp), on hand-made rows.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../render/synthetic_profile.hpp"
#include "analysis/repeatability.hpp"
#include "analysis/timing_noise.hpp"

using namespace tgemm;

namespace {

measurement run_of(double ms, double dram, double l2) {
    measurement m;
    m.kernel = "naive";
    m.size = {4096, 4096, 4096};
    m.verified = true;
    m.time = test::synthetic_timing(ms);
    m.counters["dram_read_bytes"] = dram;
    m.counters["l2_read_bytes"] = l2;
    return m;
}

}  // namespace

TEST(Repeatability, SpreadOfValues) {
    const std::vector<double> odd = {3, 1, 2};
    EXPECT_EQ(spread_of(odd), (value_spread{1, 2, 3}));
    const std::vector<double> even = {4, 1, 2, 3};
    EXPECT_EQ(spread_of(even), (value_spread{1, 2.5, 4}));
    EXPECT_EQ((value_spread{2, 2, 2}).relative(), 0);
    EXPECT_TRUE(std::isinf((value_spread{0, 0, 1}).relative()));
}

TEST(Repeatability, TheRowKeepsTheFirstRunAndTheSpreadOfAll) {
    const std::vector<measurement> runs = {run_of(2.0, 100, 50), run_of(2.1, 100, 55),
                                           run_of(1.9, 100, 52)};
    const auto row = with_repeats(runs);
    EXPECT_EQ(row.time->median_ms, 2.0);
    EXPECT_EQ(row.counters.at("l2_read_bytes"), 50);
    ASSERT_TRUE(row.repeats);
    EXPECT_EQ(row.repeats->n, 3);
    EXPECT_EQ(*row.repeats->median_ms, (value_spread{1.9, 2.0, 2.1}));
    EXPECT_EQ(row.repeats->counters.at("l2_read_bytes"), (value_spread{50, 52, 55}));
    EXPECT_NEAR(row.repeats->counters.at("l2_read_bytes").relative(), 5.0 / 52, 1e-12);
    // One run: nothing to summarise. A skipped first run: the row stays skipped, no summary.
    EXPECT_FALSE(with_repeats(std::vector<measurement>{runs[0]}).repeats);
    auto skipped = runs;
    skipped[0].skipped = "verification failed: ...";
    EXPECT_FALSE(with_repeats(skipped).repeats);
    // A run that did not measure the row is not counted.
    skipped = runs;
    skipped[2].skipped = "verification failed: ...";
    EXPECT_EQ(with_repeats(skipped).repeats->n, 2);
}

TEST(Repeatability, TheTableNamesEveryValueThatMovedMoreThanOnePercent) {
    auto p = test::synthetic_profile();
    const std::vector<measurement> runs = {run_of(2.0, 100, 50), run_of(2.01, 100.5, 55),
                                           run_of(2.005, 100, 52)};
    p.measurements[0] = with_repeats(runs);
    const auto t = repeatability_table(p);
    // The time moved 0.5 %, DRAM 0.5 %: below 1 %. L2 moved 9.6 %.
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0][0], "naive");
    EXPECT_EQ(t.rows[0][1], "4096³");
    EXPECT_EQ(t.rows[0][2], "l2_read_bytes");
    EXPECT_EQ(t.rows[0][3], "50");
    EXPECT_EQ(t.rows[0][4], "52");
    EXPECT_EQ(t.rows[0][5], "55");
    EXPECT_EQ(t.rows[0][6], "9.62 %");
    EXPECT_TRUE(t.rows[0][7].starts_with("L2 contents")) << t.rows[0][7];
    EXPECT_EQ(t.rows[0].size(), t.header.size());
    EXPECT_NE(t.caption.find("more than 1.00 % over the 3 runs"), std::string::npos) << t.caption;
    // A lower threshold names the time and DRAM too, the time first.
    const auto all = repeatability_table(p, 0.001);
    ASSERT_EQ(all.rows.size(), 3u);
    EXPECT_EQ(all.rows[0][2], "time (median)");
    EXPECT_EQ(all.rows[0][4], "2.005 ms");

    const auto quiet = repeatability_table(p, 0.5);
    EXPECT_TRUE(quiet.rows.empty());
    EXPECT_NE(quiet.caption.find("stayed within 50.00 %"), std::string::npos) << quiet.caption;
    const auto none = repeatability_table(test::synthetic_profile());
    EXPECT_TRUE(none.rows.empty());
    EXPECT_NE(none.caption.find("no repeated runs"), std::string::npos);
}

// A count that should not move is named as such; timing-bound values get their cause.
TEST(Repeatability, EveryMovingValueGetsACause) {
    EXPECT_EQ(movement_cause("flops"), "not explained: a count that should not move");
    EXPECT_EQ(movement_cause("smem_load_wavefronts"),
              "not explained: a count that should not move");
    EXPECT_TRUE(movement_cause("stall_long_scoreboard").starts_with("timing"));
    EXPECT_TRUE(movement_cause("time (median)").starts_with("timing"));
    EXPECT_TRUE(movement_cause("smem_store_bank_conflicts").starts_with("timing"));
    EXPECT_TRUE(movement_cause("dram_read_bytes").starts_with("L2 contents"));

    // Instructions that move while the FLOPs stay put are spin-waits; with the FLOPs moving too
    // (or not counted) they stay unexplained.
    repeat_summary row;
    row.n = 5;
    row.counters["inst_executed"] = {720744, 730200, 730612};
    row.counters["tensor_flops"] = {2147483648.0, 2147483648.0, 2147483648.0};
    EXPECT_TRUE(movement_cause("inst_executed", row).starts_with("timing: spin-wait"));
    row.counters["tensor_flops"].max += 4096;
    EXPECT_EQ(movement_cause("inst_executed", row), "not explained: a count that should not move");
    row.counters.erase("tensor_flops");
    EXPECT_EQ(movement_cause("inst_executed", row), "not explained: a count that should not move");
}

TEST(TimingNoise, RowsThatMissedTheTargetAreListed) {
    auto p = test::synthetic_profile();
    EXPECT_TRUE(timing_noise_table(p).caption.empty());  // before 1.4: nothing to say
    int timed = 0;
    for (auto& m : p.measurements) {
        if (!m.time) continue;
        m.time->noise = 0.002;
        m.time->noise_target = 0.005;
        m.time->noise_met = true;
        ++timed;
    }
    auto& slow = *p.measurements[1].time;
    slow.noise = 0.012;
    slow.noise_met = false;
    const auto t = timing_noise_table(p);
    EXPECT_NE(
        t.caption.find(fmt::format("{} of {} timed row(s) met their target", timed - 1, timed)),
        std::string::npos)
        << t.caption;
    EXPECT_NE(t.caption.find("1.20 %"), std::string::npos) << t.caption;
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0][0], p.measurements[1].kernel);
    EXPECT_EQ(t.rows[0][2], "1.20 %");
    EXPECT_EQ(t.rows[0][3], "0.50 %");
}
