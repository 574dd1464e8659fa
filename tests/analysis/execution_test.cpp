// Little's law from the execution counters (analysis/execution.hpp), by hand on made-up rows.
#include <gtest/gtest.h>

#include "analysis/execution.hpp"
#include "gpu/sm_limits.hpp"
#include "model/levels.hpp"

using namespace tgemm;

namespace {

gpu_info hopper() {
    gpu_info g;
    g.key = "h100";
    g.sm_count = 132;
    g.sm_clock_mhz = 1980;
    g.limits = sm_limits_cc90;
    return g;
}

// A row with `warps` resident per scheduler, each issuing every `l` cycles, for `inst` warp
// instructions, the stalls split as given (the rest "selected").
measurement row(double inst, double warps, double l, double long_sb, double barrier) {
    measurement m;
    m.kernel = std::string("k");  // not a literal: GCC 12 -Wrestrict false positive (PR105329)
    m.size = {1024, 1024, 1024};
    m.counters[std::string(keys::inst_executed)] = inst;
    m.counters[std::string(keys::achieved_occupancy_pct)] = 100.0 * warps * 4 / 64;
    const double warp_cycles = inst * l;
    m.counters[std::string(keys::warp_cycles)] = warp_cycles;
    m.counters["stall_long_scoreboard"] = long_sb * warp_cycles;
    m.counters["stall_barrier"] = barrier * warp_cycles;
    m.counters["stall_selected"] = inst;
    m.counters[std::string(keys::sm_clock_hz)] = 2e9;
    return m;
}

}  // namespace

TEST(Execution, WarpsLatencyAndIssueRateFollowTheCounters) {
    const auto v = execution_of(row(4e8, 2.0, 4.0, 0.4, 0.1), hopper(), 1e12);
    ASSERT_TRUE(v.measured());
    EXPECT_DOUBLE_EQ(*v.warps_per_scheduler, 2.0);
    EXPECT_DOUBLE_EQ(*v.cycles_per_instruction, 4.0);
    EXPECT_DOUBLE_EQ(*v.issue_rate(), 0.5);
    ASSERT_EQ(v.stalls.size(), 2u);
    EXPECT_EQ(v.stalls[0].key, "stall_long_scoreboard");
    EXPECT_DOUBLE_EQ(v.stalls[0].share, 0.4);
    EXPECT_DOUBLE_EQ(*v.selected_share, 0.25);
    // 4e8 instructions over 132 × 4 schedulers at 2 GHz.
    EXPECT_DOUBLE_EQ(*v.issue_bound_s, 4e8 / (132.0 * 4 * 2e9));
    EXPECT_DOUBLE_EQ(*v.issue_ceiling_flops_per_s, 1e12 / *v.issue_bound_s);
}

TEST(Execution, IssueRateIsCappedAtOnePerCycle) {
    const auto v = execution_of(row(1e8, 8.0, 2.0, 0.0, 0.0), hopper(), std::nullopt);
    EXPECT_DOUBLE_EQ(*v.issue_rate(), 1.0);
}

TEST(Execution, AnOlderRowHasNoExecutionView) {
    measurement m;
    m.counters[std::string(keys::flops)] = 1;
    const auto v = execution_of(m, hopper(), std::nullopt);
    EXPECT_FALSE(v.measured());
    EXPECT_FALSE(v.issue_rate());
    EXPECT_TRUE(v.stalls.empty());
}

// The three factors multiply to the ratio of the cycles: instructions × L ÷ W.
TEST(Execution, LittleFactorsMultiplyToTheCycleRatio) {
    const auto a = execution_of(row(3.06e8, 3.9, 7.1, 0.16, 0.1), hopper(), std::nullopt);
    const auto b = execution_of(row(3.01e8, 1.94, 4.4, 0.40, 0.1), hopper(), std::nullopt);
    const auto f = little_factors_between(a, b);
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->instructions, 3.01 / 3.06, 1e-12);
    EXPECT_NEAR(f->warps, 1.94 / 3.9, 1e-12);
    EXPECT_NEAR(f->latency, 4.4 / 7.1, 1e-12);
    const double cycles_a = 3.06e8 * 7.1 / 3.9;
    const double cycles_b = 3.01e8 * 4.4 / 1.94;
    EXPECT_NEAR(f->cycles, cycles_b / cycles_a, 1e-12);
}
