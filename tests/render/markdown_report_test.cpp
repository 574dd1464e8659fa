#include "render/markdown_report.hpp"

#include <gtest/gtest.h>

#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

class markdown_report_test : public ::testing::Test {
  protected:
    std::string report(const profile& p) {
        const auto a = analyze(p);
        report_options o;
        o.profile_label = "profiles/h100.json";
        return markdown_report(a, o);
    }
    profile m_profile = test::synthetic_profile();
};

TEST_F(markdown_report_test, first_lines_say_measured_and_where_from) {
    const auto md = report(m_profile);
    EXPECT_TRUE(md.starts_with("# Roofline report: NVIDIA H100 80GB HBM3\n"));
    EXPECT_TRUE(contains(md,
                         "**Measured** on NVIDIA H100 80GB HBM3 by `tgemm-roofline --gpu "
                         "h100` on 2026-11-22T10:00:00Z. Profile: `profiles/h100.json`."));
    EXPECT_FALSE(contains(md, "PREDICTED"));
}

TEST_F(markdown_report_test, gpu_peaks_and_method) {
    const auto md = report(m_profile);
    EXPECT_TRUE(contains(md, "| roof | theoretical | measured | measured / theoretical | how |"));
    EXPECT_TRUE(contains(md,
                         "| FP32 | 66.9 TFLOP/s | — | — | 132 SMs × 128 lanes × 2 FLOP × "
                         "1980 MHz |"));
    EXPECT_TRUE(contains(md, "| DRAM | 3.35 TB/s | — | — |"));
    EXPECT_TRUE(contains(md, "| ridge point | 20.0 FLOP/B | — | — |"));
    EXPECT_TRUE(contains(md, "- Command: `tgemm-roofline --gpu h100`"));
    EXPECT_TRUE(contains(md, "driver 580.95.05 · CUDA 13.0"));
    EXPECT_TRUE(contains(md,
                         "L2 flushed before each timed launch and before each profiled "
                         "launch."));
    EXPECT_TRUE(contains(md, "- Repeats: 20 timed launches per row"));
    EXPECT_TRUE(contains(md, "SM clock during the profiled launches 1755–1755 MHz"));
}

TEST_F(markdown_report_test, performance_table_per_size_in_ladder_order) {
    const auto md = report(m_profile);
    const std::string header =
        "| kernel | median ms | min ms | spread | TFLOP/s | % of cuBLAS | % of roof | bound |\n"
        "|---|--:|--:|--:|--:|--:|--:|---|\n";
    const auto at_4096 = md.find("## Performance at 4096³\n\n" + header);
    ASSERT_NE(at_4096, std::string::npos);
    ASSERT_NE(md.find("## Performance at 1024³\n\n" + header), std::string::npos);
    // 2·4096³ / 2.66 ms = 51.67 TFLOP/s; naive: 6.30 TFLOP/s = 12.2 % of cuBLAS.
    EXPECT_TRUE(contains(md, "| cublas | 2.66 | 2.61 | 7.0 % | 51.7 | 100.0 % |"));
    EXPECT_TRUE(contains(md, "| naive | 21.80 | 21.36 | 7.0 % | 6.30 | 12.2 % | 11.5 % | DRAM |"));
    const auto cublas = md.find("| cublas | 2.66");
    const auto naive = md.find("| naive | 21.80");
    const auto tiled = md.find("| smem_tiling | 15.00");
    EXPECT_LT(at_4096, cublas);
    EXPECT_LT(cublas, naive);
    EXPECT_LT(naive, tiled);
    // No DRAM counters: the bound comes from the model and says so.
    EXPECT_TRUE(contains(md, "| naive | 0.360 |"));
    EXPECT_TRUE(contains(md, "| FP32 compute (model AI) |"));
    EXPECT_TRUE(
        contains(md, "Skipped: `naive_uncoalesced`: the launcher refuses sizes above 2048"));
}

TEST_F(markdown_report_test, comparison_tables_with_ratios_and_dashes) {
    const auto md = report(m_profile);
    ASSERT_TRUE(contains(md,
                         "### naive at 4096³\n\n| quantity | textbook | refined | measured | "
                         "measured / refined | measured / textbook |\n"));
    // Seed count 2MNK + 2MN against the executed 2MNK + 3MN, measured exactly.
    EXPECT_TRUE(contains(md, "| FLOPs | 137.5 G | 137.5 G | 137.5 G | 1.000× | 1.000× |"));
    EXPECT_TRUE(contains(md, "| DRAM bytes (read + write) | 549.9 GB |"));
    EXPECT_TRUE(contains(md,
                         "| L1 global load bytes | 549.8 GB | 343.6 GB | 343.6 GB | 1.000× | "
                         "0.625× |"));
    EXPECT_TRUE(contains(md, "| AI at DRAM (FLOP/B) | 0.25 |"));
    // naive at 1024³ has no DRAM counters: dashes, never zeros.
    const auto small = md.find("### naive at 1024³");
    ASSERT_NE(small, std::string::npos);
    const auto block = md.substr(small, md.find("###", small + 4) - small);
    EXPECT_TRUE(contains(block, "| DRAM read bytes | — |"));
    EXPECT_TRUE(contains(block, "| — | — | — |"));
    EXPECT_FALSE(contains(block, "| 0 B |"));
    EXPECT_TRUE(contains(md, "— : not measured"));
    EXPECT_TRUE(contains(md, "- Refined: A is a broadcast sector per warp, B a coalesced line"));
}

// The Findings section alone.
std::string findings_of(const std::string& md) {
    const auto from = md.find("## Findings\n");
    return md.substr(from, md.find("## Roofline\n") - from);
}

TEST_F(markdown_report_test, findings_for_the_crafted_case) {
    const auto f = findings_of(report(m_profile));
    // Per rung at its largest size, in ladder order.
    const auto cublas = f.find("- **cublas at 4096³**\n");
    const auto naive = f.find("- **naive at 4096³**\n");
    const auto tiled = f.find("- **smem_tiling at 4096³**\n");
    ASSERT_NE(cublas, std::string::npos);
    EXPECT_LT(cublas, naive);
    EXPECT_LT(naive, tiled);
    EXPECT_FALSE(contains(f, "at 1024³**"));
    EXPECT_TRUE(contains(f,
                         "  - L2 absorbs the re-reads: DRAM traffic is 1/65 of the textbook count "
                         "(8.43 GB measured, 549.9 GB on paper); it moves 0.25 FLOP/B on paper "
                         "but 16.3 FLOP/B reach DRAM.\n"));
    // 11.5 % of its roof: DRAM is not what holds naive back, whatever side of the ridge.
    EXPECT_TRUE(contains(f,
                         "  - DRAM is not its limit although its AI 16.3 FLOP/B is left of the "
                         "20.0 FLOP/B ridge; at 11.5 % of the DRAM roof it is held back inside "
                         "the SM: 343.6 GB of L1 global load traffic, 5.00 B per FMA.\n"));
    EXPECT_TRUE(contains(f,
                         "  - Compute-bound (FP32): AI 501 FLOP/B is right of the 20.0 FLOP/B "
                         "ridge; it reaches 77.3 % of the FP32 roof.\n"));
    EXPECT_TRUE(contains(f,
                         "  - L1 serves 343.6 GB of global loads where the textbook counts "
                         "549.8 GB (0.625×): the threads of a warp share 32-byte sectors "
                         "(broadcast and coalescing).\n"));
    // Another size only where the behaviour changes.
    EXPECT_TRUE(contains(f,
                         "The operands fit in L2 up to 1024³ (DRAM reads 1.03× the compulsory "
                         "A + B + C); at 4096³ DRAM reads jump 656× to 8.50 GB, 42× "
                         "compulsory."));
    EXPECT_TRUE(contains(f,
                         "2-way bank conflicts double the shared load wavefronts (4.03 G of "
                         "8.05 G wavefronts are replays)."));
    // Across rungs.
    EXPECT_TRUE(contains(f, "- At 4096³ the fastest rung is smem_tiling at 17.7 % of cuBLAS"));
    EXPECT_TRUE(contains(f, "No measured DRAM intensity for naive at 1024³"));
    // Model against measurement: shared load + store together.
    EXPECT_TRUE(contains(f, "### Refined model against measurement, in short"));
    EXPECT_TRUE(contains(f, "load + store wavefronts together"));
    EXPECT_TRUE(contains(f,
                         "- **smem_tiling at 4096³**: largest gap: shared wavefronts (load + "
                         "store), measured 2.00× the refined model (8.05 G wavefronts against "
                         "4.03 G wavefronts).\n"));
    EXPECT_TRUE(contains(f,
                         "- **naive at 4096³**: largest gap: DRAM bytes (read + write), "
                         "measured 1.02× the refined model (8.43 GB against 8.27 GB); every "
                         "level is within 0.8–1.25×.\n"));
}

TEST_F(markdown_report_test, findings_are_at_most_three_lines_per_rung) {
    const auto f = findings_of(report(m_profile));
    const auto rungs = f.substr(0, f.find("Across rungs:"));
    std::size_t lines = 0, groups = 0;
    for (std::size_t at = rungs.find('\n'); at != std::string::npos;
         at = rungs.find('\n', at + 1)) {
        if (rungs.compare(at + 1, 4, "  - ") == 0) ++lines;
        if (rungs.compare(at + 1, 4, "- **") == 0) ++groups;
    }
    EXPECT_EQ(groups, 3u);
    EXPECT_LE(lines, 3 * groups);
}

TEST_F(markdown_report_test, uncoalesced_only_from_twice_the_textbook_bytes) {
    auto& tiled = m_profile.measurements[5];
    const double book = *tiled.model.textbook.loads_per_output * 4096.0 * 4096 * 4;
    tiled.counters["l1_global_load_bytes"] = 1.125 * book;
    auto f = findings_of(report(m_profile));
    EXPECT_FALSE(contains(f, "ncoalesced loads"));
    EXPECT_TRUE(contains(f,
                         "L1 global loads are 1.125× the textbook's 17.2 GB (19.3 GB): the "
                         "loads are coalesced; the textbook leaves out the read of C and "
                         "counts words where L1 moves whole 32-byte sectors."));
    tiled.counters["l1_global_load_bytes"] = 4.1 * book;
    f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "Uncoalesced loads: L1 moves 70.4 GB of global loads, 4.100× the "
                         "textbook's 17.2 GB: a warp's 4-byte words fall in separate 32-byte "
                         "sectors."));
}

TEST_F(markdown_report_test, right_of_the_ridge_but_far_below_the_roof_names_the_sm_traffic) {
    auto& naive = m_profile.measurements[4];
    naive.counters["dram_read_bytes"] = 500e6;
    const auto f = findings_of(report(m_profile));
    EXPECT_FALSE(contains(f, "naive at 4096³ is compute-bound"));
    EXPECT_TRUE(contains(f,
                         "  - DRAM is not its limit (AI 241 FLOP/B, right of the 20.0 FLOP/B "
                         "ridge); at 9.4 % of the FP32 roof it is held back inside the SM: "
                         "343.6 GB of L1 global load traffic, 5.00 B per FMA.\n"));
}

TEST_F(markdown_report_test, dram_deviation_notes_follow_the_model_gap) {
    m_profile.measurements[4].model.refined.notes.push_back(
        "DRAM deviation: B is re-read once per wave");
    const auto f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "every level is within 0.8–1.25×.\n  - DRAM deviation: B is re-read "
                         "once per wave\n"));
}

TEST_F(markdown_report_test, findings_follow_the_data) {
    // Without bank conflicts the conflict finding disappears.
    auto& tiled = m_profile.measurements[5];
    tiled.counters["smem_load_bank_conflicts"] = 0;
    const auto md = report(m_profile);
    EXPECT_FALSE(contains(md, "bank conflicts double"));
}

TEST_F(markdown_report_test, benchmark_table_is_compact_and_in_ladder_order) {
    const auto a = analyze(m_profile);
    EXPECT_EQ(benchmark_table(a),
              "Measured on NVIDIA H100 80GB HBM3 on 2026-11-22T10:00:00Z by `tgemm-roofline "
              "--gpu h100`.\n"
              "\n"
              "TFLOP/s (2MNK / median time) and, in brackets, % of cuBLAS at the same size; — "
              "where a row was skipped or not timed.\n"
              "\n"
              "| kernel | 1024³ | 4096³ |\n"
              "|---|--:|--:|\n"
              "| cublas | 20.5 (100.0 %) | 51.7 (100.0 %) |\n"
              "| naive | 5.97 (29.2 %) | 6.30 (12.2 %) |\n"
              "| smem_tiling | 8.26 (40.4 %) | 9.16 (17.7 %) |\n"
              "| naive_uncoalesced | — | — |\n");
}

TEST_F(markdown_report_test, benchmark_table_without_cublas_leaves_the_bracket_out) {
    std::erase_if(m_profile.measurements,
                  [](const measurement& m) { return m.kernel == "cublas"; });
    const auto t = benchmark_table(analyze(m_profile));
    EXPECT_TRUE(contains(t, "| naive | 5.97 | 6.30 |\n"));
}

TEST_F(markdown_report_test, embeds_the_plot_by_relative_path) {
    const auto md = report(m_profile);
    EXPECT_TRUE(contains(md, "![Roofline of NVIDIA H100 80GB HBM3](roofline.png)"));
    EXPECT_TRUE(contains(md, "[roofline.svg](roofline.svg)"));
}

TEST_F(markdown_report_test, predicted_profile_says_so_first_and_everywhere) {
    const auto md = report(test::synthetic_predicted_profile());
    EXPECT_TRUE(md.starts_with("# PREDICTED (no measurement): roofline report for NVIDIA H100"));
    EXPECT_TRUE(contains(md, "**PREDICTED (no measurement).** Nothing in this report ran on"));
    EXPECT_TRUE(contains(md, "![Roofline of NVIDIA H100 80GB HBM3, PREDICTED (no measurement)]"));
    EXPECT_TRUE(contains(md,
                         "| kernel | AI textbook | AI refined | roof TFLOP/s (predicted) | "
                         "bound (predicted) |"));
    EXPECT_FALSE(contains(md, "## How it was measured"));
    EXPECT_FALSE(contains(md, "measured |"));
    EXPECT_TRUE(contains(md, "| roof | theoretical | how |"));
    EXPECT_TRUE(contains(md, "nothing was measured on this GPU"));
}

}  // namespace
}  // namespace tgemm::render
