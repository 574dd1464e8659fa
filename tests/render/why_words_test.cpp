// The words of "why" (render/why_words.hpp) and the "fewer bytes, yet slower" finder
// (render/tensor_steps.hpp), on made-up rows.
#include <gtest/gtest.h>

#include "model/levels.hpp"
#include "render/tensor_steps.hpp"
#include "render/why_words.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

execution_view view(double warps, double l, double long_sb) {
    execution_view v;
    v.inst_executed = 3e8;
    v.achieved_occupancy_pct = 100.0 * warps * 4 / 64;
    v.theoretical = occupancy_estimate{2, 8, 64, "registers"};
    v.warps_per_scheduler = warps;
    v.cycles_per_instruction = l;
    v.stalls = {{"stall_long_scoreboard", "waiting for a global (L1TEX) load", long_sb},
                {"stall_not_selected", "ready while another warp issued", 0.13}};
    v.issue_ceiling_flops_per_s = 60e12;
    return v;
}

step_row side(std::string kernel, double tflops, double l1, double dram, execution_view v) {
    step_row r;
    r.kernel = std::move(kernel);
    r.tflops = tflops;
    r.counters[std::string(keys::l1_global_load_bytes)] = l1;
    r.counters[std::string(keys::dram_read_bytes)] = dram;
    r.counters[std::string(keys::l2_bytes)] = 4e8;
    r.exec = std::move(v);
    return r;
}

}  // namespace

TEST(WhyWords, ALatencyBoundRowNamesWarpsLatencyAndTheLargestStall) {
    const auto s = why_sentence(view(1.94, 4.3, 0.40), 0.3);
    ASSERT_TRUE(s);
    EXPECT_NE(s->find("Latency-bound (Little's law): 1.9 warps per scheduler"), std::string::npos)
        << *s;
    EXPECT_NE(s->find("limited by registers"), std::string::npos) << *s;
    EXPECT_NE(s->find("a warp issues every 4.3 cycles"), std::string::npos) << *s;
    EXPECT_NE(s->find("of its time spends 40.0 % waiting for a global (L1TEX) load"),
              std::string::npos)
        << *s;
    EXPECT_NE(s->find("0.45 instructions per cycle"), std::string::npos) << *s;
    EXPECT_EQ(*execution_bound(view(1.94, 4.3, 0.4)), "latency");
    EXPECT_EQ(*execution_bound(view(4.0, 4.4, 0.1)), "issue");
}

// Near its roof, the roof is the bound: the counters describe, they do not name another bound.
TEST(WhyWords, NearItsRoofARowGetsTheFactsWithoutABound) {
    const auto s = why_sentence(view(1.94, 4.3, 0.40), 0.8);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->starts_with("Execution: 1.9 warps per scheduler")) << *s;
    EXPECT_EQ(s->find("issue roof"), std::string::npos) << *s;
}

// The summary page's form names the bound, the warps and the largest stall, and only where the
// counters name the bound.
TEST(WhyWords, TheShortFormIsForRowsBelowHalfTheirRoof) {
    const auto s = short_why(view(1.94, 4.3, 0.40), 0.3);
    ASSERT_TRUE(s);
    EXPECT_EQ(*s,
              "Latency-bound: 1.9 warps per scheduler (occupancy 12.1 % of 12.5 % theoretical, "
              "limited by registers), 40.0 % of the warps' time waiting for a global (L1TEX) "
              "load.");
    EXPECT_FALSE(short_why(view(1.94, 4.3, 0.40), 0.8));
    EXPECT_FALSE(short_why(execution_view{}, 0.3));
}

TEST(WhyWords, NoCountersNoSentence) {
    EXPECT_FALSE(why_sentence(execution_view{}, 0.3));
    EXPECT_FALSE(little_step_line(execution_view{}, view(2, 4, 0.4)));
}

// vectorized → warptiling as measured on the H100 at 2048³ (rounded): fewer bytes, half the
// warps, slower. The step names the warps.
TEST(WhyWords, FewerBytesYetSlowerNamesTheFactorThatMoved) {
    const auto from = side("vectorized", 34.6, 5.7e8, 5.0e7, view(3.9, 6.3, 0.16));
    const auto to = side("warptiling", 26.7, 5.7e8, 5.0e7, view(1.94, 4.3, 0.40));
    const auto lines = ladder_step_lines(from, to);
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    EXPECT_NE(all.find("Why (Little's law"), std::string::npos) << all;
    EXPECT_NE(all.find("W, warps per scheduler, 3.9 → 1.9 (×0.50"), std::string::npos) << all;
    EXPECT_NE(all.find("warptiling moves no more bytes than vectorized at any level and still "
                       "runs 1.30× slower: the time is not the traffic's but fewer warps in "
                       "flight (W ×0.50)"),
              std::string::npos)
        << all;
}
