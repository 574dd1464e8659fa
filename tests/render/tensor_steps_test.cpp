// The findings' tensor ladder steps (render/tensor_steps.hpp): exact lines for hand-made pairs
// of rows whose numbers are chosen so each rule either fires or stays silent, and the steps
// the synthetic tensor profile gives at its focus size.
#include "render/tensor_steps.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/levels.hpp"
#include "render/markdown_report.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

using counts = std::map<std::string, double, std::less<>>;

// Every counter a step reads, at zero: a test sets the ones it is about.
counts zero_counts() {
    counts c;
    for (const auto key : test::tensor_count_keys) c[std::string(key)] = 0;
    return c;
}

step_row row(std::string kernel, double tflops, double ms, const counts& set) {
    step_row r{std::move(kernel), tflops, ms, zero_counts(), {}};
    for (const auto& [k, v] : set) r.counters[k] = v;
    return r;
}

// WMMA-like → mma-like: LSU wavefronts fall, the store conflicts go, ldmatrix and cp.async
// arrive; L1, L2 and DRAM stay within their bands and are left out.
TEST(tensor_steps, swizzled_ldmatrix_step_names_the_shared_memory_changes) {
    const auto from = row("wmma", 100, 1.0,
                          {{"smem_load_wavefronts", 1000},
                           {"smem_store_wavefronts", 600},
                           {"smem_store_bank_conflicts", 300},
                           {"smem_load_bank_conflicts", 5},
                           {"l1_global_load_bytes", 5000},
                           {"l2_requested_bytes", 8000},
                           {"dram_read_bytes", 400}});
    const auto to = row("mma", 250, 0.4,
                        {{"smem_load_wavefronts", 500},
                         {"smem_ldsm_wavefronts", 500},
                         {"smem_ldgsts_bytes", 3000},
                         {"smem_load_bank_conflicts", 1},
                         {"l1_global_load_bytes", 5040},
                         {"l2_requested_bytes", 8000},
                         {"dram_read_bytes", 430}});
    const std::vector<std::string> expected = {
        "Rate: 100 → 250 TFLOP/s (2.50×); median time 1.00 → 0.400 ms.",
        // 1600 → 500; the 5 → 1 load conflicts are 0.5 % and 0.2 % of their wavefronts: left out.
        "Shared memory: load + store wavefronts through the LSU 1.60 k → 500 (−68.8 %); store "
        "bank conflicts 300 (50.0 % of the store wavefronts) → 0; ldmatrix wavefronts 0 → 500, "
        "none of them a bank conflict; cp.async writes 0 B → 3.00 kB.",
        // L1 +0.8 % and DRAM +7.5 % are within 1 % and 10 %: no line for them; the LSU fell
        // 3.2×, more than the rate rose: no gain line.
    };
    EXPECT_EQ(ladder_step_lines(from, to), expected);
}

// Warp-specialized → clusters: multicast share, L2 requests saved, what the coalescer merged
// before and after, the TMA-store epilogue replacing L1 stores.
TEST(tensor_steps, cluster_step_gives_multicast_share_and_l2_requests) {
    const auto from = row("ws", 400, 0.05,
                          {{"tma_load_bytes", 1000},
                           {"l2_requested_bytes", 1000},
                           {"l2_coalesced_bytes", 300},
                           {"l1_global_store_bytes", 200}});
    const auto to = row("cluster", 500, 0.04,
                        {{"tma_load_bytes", 1005},
                         {"tma_multicast_bytes", 600},
                         {"tma_store_bytes", 50},
                         {"l2_requested_bytes", 700},
                         {"l2_coalesced_bytes", 100}});
    const std::vector<std::string> expected = {
        "Rate: 400 → 500 TFLOP/s (1.25×); median time 0.050 → 0.040 ms.",
        // Loads moved 0.5 %: only the multicast part and the stores are new.
        "TMA: multicast 0 B → 600 B (59.7 % of the TMA loads); stores 0 B → 50 B.",
        "L1: global stores 200 B → 0 B.",
        // 700 − 100 = 600 against 1000 − 300 = 700 left after merging.
        "L2: read requests 1.00 kB → 700 B (−30.0 %); merged by the request coalescer 300 B → "
        "100 B (−66.7 %); left after merging 700 B → 600 B (−14.3 %).",
    };
    EXPECT_EQ(ladder_step_lines(from, to), expected);
}

// A faster rung whose counters fell less than its rate rose: the gain line says so, naming the
// counter that fell most.
TEST(tensor_steps, rate_rising_more_than_any_traffic_falls_is_said) {
    const auto from =
        row("wgmma", 240, 0.07, {{"smem_gmma_wavefronts", 3000}, {"tma_load_bytes", 2700}});
    const auto to =
        row("ws", 400, 0.042, {{"smem_gmma_wavefronts", 2500}, {"tma_load_bytes", 2000}});
    const auto lines = ladder_step_lines(from, to);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1],
              "Shared memory: wgmma operand wavefronts 3.00 k → 2.50 k (−16.7 %), 320.0 kB read "
              "by the tensor cores.");
    EXPECT_EQ(lines[2], "TMA: loads 2.70 kB → 2.00 kB (−25.9 %).");
    // 400 / 240 = 1.67 against 2700 / 2000 = 1.35 (TMA) and 3000 / 2500 = 1.20 (wgmma).
    EXPECT_EQ(lines[3],
              "TFLOP/s rose 1.67×, more than the traffic of any counter fell (at most 1.35×: TMA "
              "load bytes).");
}

TEST(tensor_steps, absent_counters_are_not_measured_and_untimed_rows_have_no_rate) {
    auto from = row("a", 100, 1.0, {});
    auto to = row("b", 100, 1.0, {});
    to.tflops.reset();
    to.counters.erase(std::string(keys::tma_multicast_bytes));
    from.counters.erase(std::string(keys::l2_coalesced_bytes));
    to.counters.erase(std::string(keys::l2_coalesced_bytes));
    const std::vector<std::string> expected = {
        "Rate: not measured (b was not timed).",
        "Not measured: TMA multicast bytes of b, L2 coalesced bytes.",
    };
    EXPECT_EQ(ladder_step_lines(from, to), expected);
}

// The synthetic tensor profile at its focus (4096³): one step per consecutive pair of BF16
// rungs; the cuBLAS rows (BF16 and FP16) are references, not steps.
TEST(tensor_steps, one_step_per_consecutive_pair_of_tensor_rungs_at_the_focus) {
    const auto p = test::synthetic_tensor_profile();
    const auto a = analyze(p);
    ASSERT_EQ(a.focus_size(), (shape{4096, 4096, 4096}));
    const auto steps = tensor_ladder_steps(a);
    std::vector<std::string> headings;
    for (const auto& s : steps) headings.push_back(s.heading);
    EXPECT_EQ(headings, (std::vector<std::string>{
                            "bf16_wmma → bf16_mma at 4096³", "bf16_mma → bf16_wgmma at 4096³",
                            "bf16_wgmma → bf16_ws at 4096³", "bf16_ws → bf16_cluster at 4096³"}));
    // mma → wgmma: L1 global loads from 285.2 MB × 8 to 16.8 MB × 8 (C only).
    EXPECT_EQ(steps[1].lines.at(0),
              "Rate: 274 → 245 TFLOP/s (0.89×); median time 0.502 → 0.561 ms.");
    const auto& l1 = steps[1].lines;
    EXPECT_NE(std::find(l1.begin(), l1.end(), "L1: global loads 2.28 GB → 134.2 MB (−94.1 %)."),
              l1.end());
    // The report prints them under their own heading.
    const auto md = markdown_report(a, report_options{});
    EXPECT_NE(md.find("### Tensor ladder, step by step"), std::string::npos);
    EXPECT_NE(md.find("- **bf16_ws → bf16_cluster at 4096³**"), std::string::npos);
}

// An FP32-only profile has no tensor steps and no such heading.
TEST(tensor_steps, none_without_tensor_rungs) {
    const auto p = test::synthetic_profile();
    const auto a = analyze(p);
    EXPECT_TRUE(tensor_ladder_steps(a).empty());
    EXPECT_EQ(markdown_report(a, report_options{}).find("Tensor ladder"), std::string::npos);
}

}  // namespace
}  // namespace tgemm::render
