#include "render/markdown_report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "render/findings.hpp"
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
    // No roof measured: one line says so, and the table has the theoretical columns only.
    EXPECT_TRUE(contains(md,
                         "This profile has no measured peaks (an older profile, or a run with "
                         "`--no-peaks`): the plots and the bound use the theoretical roofs.\n"));
    EXPECT_TRUE(contains(md, "| roof | theoretical | how derived |\n"));
    EXPECT_TRUE(contains(md, "| FP32 | 66.9 TFLOP/s | 132 SMs × 128 lanes × 2 FLOP × 1980 MHz |"));
    EXPECT_TRUE(contains(md, "| DRAM | 3.35 TB/s | 5120/8 B × 2619 MHz × 2 |"));
    EXPECT_TRUE(contains(md, "Ridge point (FP32 roof / DRAM roof): 20.0 FLOP/B theoretical;"));
    EXPECT_FALSE(contains(md, "measured / reference"));
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
        "| kernel | median ms | min ms | spread | TFLOP/s | % of cuBLAS | % of DRAM roofline | "
        "bound | % of bound |\n"
        "|---|--:|--:|--:|--:|--:|--:|---|--:|\n";
    const auto at_4096 = md.find("## Performance at 4096³\n\n" + header);
    ASSERT_NE(at_4096, std::string::npos);
    ASSERT_NE(md.find("## Performance at 1024³\n\n" + header), std::string::npos);
    // 2·4096³ / 2.66 ms = 51.67 TFLOP/s; naive: 6.30 TFLOP/s = 12.2 % of cuBLAS.
    EXPECT_TRUE(contains(md,
                         "| cublas | 2.66 | 2.61 | 7.0 % | 51.7 | 100.0 % | 77.3 % | FP32 | "
                         "77.3 % |"));
    EXPECT_TRUE(
        contains(md, "| naive | 21.80 | 21.36 | 7.0 % | 6.30 | 12.2 % | 11.5 % | DRAM | 11.5 % |"));
    const auto cublas = md.find("| cublas | 2.66");
    const auto naive = md.find("| naive | 21.80");
    const auto tiled = md.find("| smem_tiling | 15.00");
    EXPECT_LT(at_4096, cublas);
    EXPECT_LT(cublas, naive);
    EXPECT_LT(naive, tiled);
    // No DRAM counters: the bound comes from the model and says so.
    EXPECT_TRUE(contains(md, "| naive | 0.360 |"));
    EXPECT_TRUE(contains(md, "| FP32 (model AI) | 8.9 % |"));
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
    // The bound, its distance and the gap in TFLOP/s.
    EXPECT_TRUE(contains(f,
                         "  - Bound by the FP32 roof (66.9 TFLOP/s): at its AI the DRAM roof "
                         "allows more; the kernel reaches 77.3 % of the bound, 15.2 TFLOP/s "
                         "short.\n"));
    // 11.5 % of its roof: DRAM is not what holds naive back.
    EXPECT_TRUE(contains(f,
                         "  - Bound by the DRAM roof: at 16.3 FLOP/B it allows 54.7 TFLOP/s; the "
                         "kernel reaches only 11.5 % of the bound, 48.4 TFLOP/s short, so none of "
                         "the roofs checked (FP32, DRAM) is what holds it back: inside the SM it "
                         "moves 343.6 GB of L1 global load traffic, 5.00 B per FMA.\n"));
    // The largest gaps with their causes, from the numbers.
    EXPECT_TRUE(contains(f,
                         "  - L2 serves the re-reads: DRAM traffic is 1/65 of the textbook count "
                         "(8.43 GB measured, 549.9 GB on paper).\n"));
    EXPECT_TRUE(contains(f,
                         "  - Broadcast: L1 moves 2.50 B per 4-byte element load (343.6 GB "
                         "against the textbook's 549.8 GB): lanes that read the same float share "
                         "one 32-byte sector (1 B per lane), while a coalesced warp load of 32 "
                         "floats is one 128 B request (4 B per lane).\n"));
    // Another size only where the behaviour changes.
    EXPECT_TRUE(contains(f,
                         "  - L2 serves the re-reads: DRAM traffic is 0.49× the textbook count "
                         "(8.57 GB measured, 17.3 GB on paper); at 1024³ DRAM reads are 1.03× "
                         "the compulsory A + B + C (the operands stay in L2), at 4096³ they are "
                         "42×.\n"));
    EXPECT_TRUE(contains(f,
                         "  - 2-way bank conflicts double the shared load wavefronts (4.03 G of "
                         "8.05 G wavefronts are replays).\n"));
    // Across rungs.
    EXPECT_TRUE(contains(f,
                         "- At each rung's largest size the FP32 roof bounds cublas; the DRAM "
                         "roof bounds naive, smem_tiling (the lowest of the FP32 roof and each "
                         "memory level's AI × bandwidth).\n"));
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

TEST_F(markdown_report_test, findings_c_stays_in_l2_and_the_refined_miss) {
    // cuBLAS at 4096³ writing nothing to DRAM: C is still in L2 when it ends.
    m_profile.measurements[3].counters["dram_write_bytes"] = 0;
    const auto f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "  - C stays in L2: DRAM writes are 0 B at 4096³ against the 67.1 MB of "
                         "C (M·N·4 B), so the L2 still holds all of C when the kernel ends.\n"));
    // The refined model expects C written back: a miss it cannot explain.
    EXPECT_TRUE(contains(f,
                         "  - The refined model misses DRAM bytes (read + write): measured 0.77× "
                         "its prediction (207.4 MB against 268.4 MB); the counters do not say "
                         "why.\n"));
}

TEST_F(markdown_report_test, findings_name_the_l2_roof_when_it_bounds) {
    roof l2;
    l2.theoretical = 5.5e12;
    l2.unit = "B/s";
    l2.method = "synthetic L2 roof";
    m_profile.peaks["l2"] = l2;
    const auto md = report(m_profile);
    const auto f = findings_of(md);
    // naive at 4096³: 137.5 G FLOP over 18.46 GB of L2 traffic = 7.45 FLOP/B × 5.5 TB/s.
    EXPECT_TRUE(contains(f,
                         "  - Bound by the L2 roof: at 7.45 FLOP/B it allows 41.0 TFLOP/s; the "
                         "kernel reaches only 15.4 % of the bound, 34.7 TFLOP/s short, so none "
                         "of the roofs checked (FP32, DRAM, L2) is what holds it back"));
    EXPECT_TRUE(contains(f, "the L2 roof bounds naive, smem_tiling"));
    EXPECT_TRUE(contains(md,
                         "| naive | L2 | — | — | 18.5 GB | — | — | 7.45 | 5.50 TB/s | 41.0 | "
                         "**bound** |\n"));
    EXPECT_TRUE(contains(md, "| 6.30 | 12.2 % | 11.5 % | L2 | 15.4 % |"));
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
    // Within the band: no sentence about L1.
    tiled.counters["l1_global_load_bytes"] = 1.125 * book;
    auto f = findings_of(report(m_profile));
    const auto tiled_group = f.substr(f.find("- **smem_tiling at 4096³**"));
    EXPECT_FALSE(contains(f, "ncoalesced loads"));
    EXPECT_FALSE(contains(tiled_group.substr(0, tiled_group.find("\n- ")), "element load"));
    tiled.counters["l1_global_load_bytes"] = 4.1 * book;
    f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "Uncoalesced loads: L1 moves 16.4 B per 4-byte element load (70.4 GB, "
                         "4.10× the textbook's 17.2 GB): the lanes of a warp read floats in "
                         "separate 32-byte sectors"));
}

TEST_F(markdown_report_test, right_of_the_ridge_but_far_below_the_roof_names_the_sm_traffic) {
    auto& naive = m_profile.measurements[4];
    naive.counters["dram_read_bytes"] = 500e6;
    const auto f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "  - Bound by the FP32 roof (66.9 TFLOP/s): at its AI the DRAM roof "
                         "allows more; the kernel reaches only 9.4 % of the bound, 60.6 TFLOP/s "
                         "short, so none of the roofs checked (FP32, DRAM) is what holds it "
                         "back: inside the SM it moves 343.6 GB of L1 global load traffic, 5.00 "
                         "B per FMA.\n"));
}

TEST_F(markdown_report_test, dram_band_notes_follow_the_model_gap) {
    // A note that only looks like a band excuses nothing: it is not printed as one.
    auto& row = m_profile.measurements[4];
    row.model.refined.notes.push_back("DRAM deviation: B is re-read once per wave");
    auto f = findings_of(report(m_profile));
    EXPECT_FALSE(contains(f, "  - DRAM deviation:"));
    // A typed band is, with its note under the rung's line.
    model::set_dram_read_band(row.model.refined, 1e6, 2e6, "B is re-read once per wave");
    f = findings_of(report(m_profile));
    EXPECT_TRUE(contains(f,
                         "every level is within 0.8–1.25×.\n  - DRAM band: reads between 1 and 2 "
                         "MB: B is re-read once per wave\n"));
}

TEST_F(markdown_report_test, a_band_is_printed_as_its_range_and_the_measurement_against_it) {
    auto& row = m_profile.measurements[4];
    row.model.refined.l2_write_bytes = 100e6;
    row.model.refined.l2_write_band =
        refined_model::value_band{50e6, 100e6, "partial-sector stores may merge"};
    row.counters["l2_write_bytes"] = 60e6;
    row.model.refined.l2_fabric_bytes = 40e6;
    row.counters["l2_fabric_bytes"] = 44e6;
    auto md = report(m_profile);
    EXPECT_TRUE(contains(md,
                         "| L2 write bytes | — | 50.0 MB … 100.0 MB (band) | 60.0 MB | in "
                         "band | — |\n"));
    EXPECT_TRUE(contains(md, "| L2 fabric bytes | — | 40.0 MB | 44.0 MB | 1.100× | — |\n"));
    // The L2 write band's ends are all and none of the partial stores merged in L1: 60 MB in
    // 50 … 100 MB is 80 % merged.
    EXPECT_TRUE(contains(md,
                         "- Measured: the L2 writes put L1's merging of the partial-sector "
                         "stores at 80 % (0 %: none merged"));
    // Outside the band: the ratio to its nearer end, and that is the gap the findings weigh.
    row.counters["l2_write_bytes"] = 160e6;
    md = report(m_profile);
    EXPECT_TRUE(contains(md, "| 160.0 MB | 1.600× the high end | — |\n"));
    EXPECT_TRUE(contains(md, "partial-sector stores at 0 % (0 %"));
    EXPECT_TRUE(contains(findings_of(md),
                         "largest gap: L2 write bytes (against its band), "
                         "measured 1.60× the refined model"));
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
                         "| kernel | AI textbook | AI refined | bound (predicted) | roof TFLOP/s "
                         "(predicted) |"));
    EXPECT_FALSE(contains(md, "## How it was measured"));
    EXPECT_FALSE(contains(md, "measured |"));
    EXPECT_TRUE(contains(md, "| roof | theoretical | how derived |"));
    EXPECT_TRUE(contains(md,
                         "Nothing was measured on this GPU: every roof below is theoretical, "
                         "from the GPU specification."));
    EXPECT_TRUE(contains(md, "nothing was measured on this GPU"));
    EXPECT_TRUE(contains(md,
                         "- naive at 4096³: the refined model expects 16.6 FLOP/B at DRAM "
                         "against 0.25 FLOP/B on paper; the lowest roof is the DRAM roof, at "
                         "55.8 TFLOP/s.\n"));
    EXPECT_TRUE(contains(md, "| naive | 0.25 FLOP/B | 16.6 FLOP/B | DRAM | 55.7 |"));
    // No published figures for this GPU: the section says so.
    EXPECT_TRUE(contains(md, "No published measurements of NVIDIA H100 80GB HBM3 are on record."));
}

// --- sections ------------------------------------------------------------------------------

// The headings of a report, in order.
std::vector<std::string> headings(const std::string& md) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < md.size();) {
        const auto end = md.find('\n', at);
        const auto l = md.substr(at, end - at);
        if (l.starts_with("## ")) out.push_back(l);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return out;
}

TEST_F(markdown_report_test, every_section_in_order) {
    const auto md = report(m_profile);
    const std::vector<std::string> want = {"## Findings",
                                           "## Plots",
                                           "## GPU and peaks",
                                           "## How it was measured",
                                           "## Hierarchical roofline at 4096³",
                                           "## Why: execution at 4096³",
                                           "## Performance at 1024³",
                                           "## Performance at 4096³",
                                           "## Model against measurement",
                                           "## Notes"};
    EXPECT_EQ(headings(md), want);
}

// Each rung of the build that the profile has no row of gets one line, after the performance
// sections; rungs the profile has, and a report without the ladder, get none.
TEST_F(markdown_report_test, rungs_the_profile_lacks_are_listed_as_not_measured) {
    const auto a = analyze(m_profile);
    report_options o;
    o.profile_label = "profiles/h100.json";
    const auto without = markdown_report(a, o);
    o.ladder = {{"cublas", "cuBLAS SGEMM (reference)"},
                {"naive", "Naive (coalesced B)"},
                {"bf16_wmma", "BF16 WMMA"},
                {"bf16_mma", "BF16 mma.sync"}};
    const auto md = markdown_report(a, o);
    EXPECT_TRUE(contains(md,
                         "\n## Not measured\n\nRungs of this build that the profile has no row of "
                         "(it was measured before they existed, or without them):\n\n- "
                         "`bf16_wmma` (BF16 WMMA): not measured.\n- `bf16_mma` (BF16 mma.sync): "
                         "not measured.\n\n## Model against measurement"))
        << md;
    EXPECT_FALSE(contains(md, "`naive` (Naive (coalesced B)): not measured"));
    EXPECT_FALSE(contains(without, "## Not measured"));
    o.ladder.resize(2);  // every rung of the ladder measured: no section
    EXPECT_EQ(markdown_report(a, o), without);
}

TEST_F(markdown_report_test, plots_embedded_by_relative_path_with_captions) {
    const auto md = report(m_profile);
    for (const auto* stem :
         {"hierarchical-roofline", "roofline", "bytes-per-level", "ai-vs-size", "tflops"}) {
        EXPECT_TRUE(contains(md, fmt::format("]({}.png)\n\n", stem))) << stem;
        EXPECT_TRUE(contains(md, fmt::format("Vector version: [{0}.svg]({0}.svg).\n", stem)))
            << stem;
    }
    EXPECT_TRUE(contains(md,
                         "![Hierarchical roofline of NVIDIA H100 80GB HBM3 at 4096³]"
                         "(hierarchical-roofline.png)\n\nHierarchical roofline at 4096³: each "
                         "rung has one point per memory level (DRAM, L2 and shared) at that "
                         "level's measured arithmetic intensity"));
    EXPECT_TRUE(contains(md, "\n\nDRAM roofline at every size (1024³, 4096³): filled markers"));
    EXPECT_TRUE(contains(md,
                         "TFLOP/s of each rung at 4096³ (2MNK / median time) against cuBLAS and "
                         "the FP32 roof."));
    // One caption line after each image.
    const auto at = md.find("(bytes-per-level.png)\n\n");
    ASSERT_NE(at, std::string::npos);
    const auto caption = md.substr(at, md.find("\n\n", at + 24) - at);
    EXPECT_EQ(std::count(caption.begin(), caption.end(), '\n'), 2);
}

TEST_F(markdown_report_test, hierarchical_table_marks_the_bounding_level) {
    const auto md = report(m_profile);
    EXPECT_TRUE(contains(md,
                         "| kernel | level | bytes textbook | bytes refined | bytes measured | AI "
                         "textbook | AI refined | AI measured | roof | attainable TFLOP/s | "
                         "bound |\n"));
    EXPECT_TRUE(contains(md,
                         "| naive | DRAM | 549.9 GB | 8.27 GB | 8.43 GB | 0.25 | 16.6 | 16.3 | "
                         "3.35 TB/s | 54.7 | **bound** |\n"));
    EXPECT_TRUE(contains(md,
                         "| cublas | FP32 compute | — | — | — | — | — | — | 66.9 TFLOP/s | 66.9 | "
                         "**bound** |\n"));
    // smem_tiling's shared wavefronts: 2 × 4.03 G × 128 B with the 2-way conflicts.
    EXPECT_TRUE(contains(md, "| smem_tiling | shared | 549.8 GB | 515.4 GB | 1.03 TB | 0.25 |"));
    // The synthetic profile is of this tool's schema.
    EXPECT_TRUE(contains(md, "This profile (schema 1." + std::to_string(profile_schema_minor) +
                                 ") has no L2 or shared roof: those levels show "
                                 "bytes and AI but allow no FLOP/s and bound no rung."));
}

// The synthetic H100 with measured FP32 and DRAM roofs, as a run with the micro-benchmarks
// stores them.
profile with_measured_peaks(profile p) {
    auto& f = p.peaks.at("fp32");
    f.clock_mhz = 1755;
    f.theoretical_at_clock = test::h100_fp32 * 1755 / 1980;
    f.measured = 0.95 * *f.theoretical_at_clock;
    f.measured_by = "FFMA chains, 132 × 1024 threads, 20 runs";
    auto& d = p.peaks.at("dram");
    d.measured = 3.0e12;
    d.measured_by = "stream read, 4 GiB, 20 runs";
    d.note = "ECC on";
    return p;
}

TEST_F(markdown_report_test, peaks_table_prints_every_roof_with_ratio_clock_and_note) {
    const auto md = report(with_measured_peaks(m_profile));
    EXPECT_TRUE(contains(md,
                         "| roof | theoretical | how derived | theoretical at measured clock | "
                         "measured | measured / reference | clock | how measured | note |\n"));
    // 66.9 TFLOP/s at 1980 MHz is 59.3 at 1755 MHz; 95 % of that measured.
    EXPECT_TRUE(contains(md,
                         "| FP32 | 66.9 TFLOP/s | 132 SMs × 128 lanes × 2 FLOP × 1980 MHz | 59.3 "
                         "TFLOP/s | 56.3 TFLOP/s | 0.950× | 1755 MHz | FFMA chains, 132 × 1024 "
                         "threads, 20 runs |  |\n"));
    // DRAM has its own clock: the reference is the theoretical value.
    EXPECT_TRUE(contains(md,
                         "| DRAM | 3.35 TB/s | 5120/8 B × 2619 MHz × 2 | — | 3.00 TB/s | 0.895× | "
                         "— | stream read, 4 GiB, 20 runs | ECC on |\n"));
    EXPECT_FALSE(contains(md, "has no measured peaks"));
    EXPECT_TRUE(contains(md, "20.0 FLOP/B theoretical, 18.8 FLOP/B with the measured roofs"));
    // The bound now uses the measured roofs.
    EXPECT_TRUE(contains(md, "| 8.43 GB | 0.25 | 16.6 | 16.3 | 3.00 TB/s (measured) | 48.9 |"));
    EXPECT_FALSE(contains(md, "**DRAM:"));
    EXPECT_FALSE(contains(md, "**FP32:"));
}

TEST_F(markdown_report_test, a_measured_roof_five_percent_over_without_a_note_is_flagged) {
    auto p = with_measured_peaks(m_profile);
    auto& d = p.peaks.at("dram");
    d.note.clear();
    d.measured = 1.05 * d.theoretical;
    auto md = report(p);
    EXPECT_TRUE(contains(md,
                         "\n**DRAM: the measured 3.52 TB/s is 5.0 % above its reference 3.35 "
                         "TB/s, and the profile has no note saying why. A benchmark cannot beat "
                         "the hardware: this is a measurement bug, or the theoretical figure is "
                         "wrong.**\n"));
    // With a note saying why, or within 3 %, no warning.
    d.note = "the DRAM clock boosts above the reported one";
    EXPECT_FALSE(contains(report(p), "**DRAM:"));
    d.note.clear();
    d.measured = 1.02 * d.theoretical;
    EXPECT_FALSE(contains(report(p), "**DRAM:"));
}

// The synthetic H100 profile as an H200 would give it: 4.8 TB/s, naive 1.38× faster,
// smem_tiling 1.02× (held back inside the SM), cuBLAS unchanged.
profile synthetic_h200() {
    auto p = test::synthetic_profile();
    p.gpu.key = "h200";
    p.gpu.name = "NVIDIA H200";
    p.peaks.at("dram").theoretical = 4.8e12;
    for (auto& m : p.measurements) {
        if (!m.time) continue;
        const double f = m.kernel == "naive" ? 1.38 : m.kernel == "smem_tiling" ? 1.02 : 1.0;
        m.time->median_ms /= f;
        m.time->min_ms /= f;
        m.time->max_ms /= f;
    }
    return p;
}

TEST_F(markdown_report_test, comparison_section_only_with_compare_set) {
    EXPECT_FALSE(contains(report(m_profile), "## NVIDIA H100 80GB HBM3 against"));
    const auto h100 = analyze(m_profile);
    const auto h200_profile = synthetic_h200();
    const auto h200 = analyze(h200_profile);
    report_options o;
    o.compare = &h100;
    o.compare_label = "H100 (profiles/h100.json)";
    const auto md = markdown_report(h200, o);
    EXPECT_TRUE(contains(md, "\n## NVIDIA H200 against H100 (profiles/h100.json)\n"));
    EXPECT_TRUE(contains(md, "| DRAM, theoretical | 4.80 TB/s | 3.35 TB/s | 1.43× |\n"));
    EXPECT_TRUE(contains(md, "| FP32, theoretical | 66.9 TFLOP/s | 66.9 TFLOP/s | 1.00× |\n"));
    EXPECT_TRUE(
        contains(md, "| naive | 4096³ | 8.70 | 6.30 | 1.38× | FP32 | DRAM | DRAM ratio |\n"));
    EXPECT_TRUE(
        contains(md, "| smem_tiling | 4096³ | 9.35 | 9.16 | 1.02× | FP32 | DRAM | FP32 ratio |\n"));
    // Each class is judged against its own roof's ratio: DRAM 1.43×, FP32 1.00×.
    EXPECT_TRUE(contains(md,
                         "- Bound by the DRAM roof on h100 (naive, smem_tiling): that roof is "
                         "1.43× (theoretical) on h200; naive (1.38×) followed it; smem_tiling "
                         "(1.02×) did not"));
    EXPECT_TRUE(contains(md,
                         "- Bound by the FP32 roof on h100 (cublas): that roof is 1.00× "
                         "(theoretical) on h200; cublas (1.00×) followed it"));
    // The section sits before the performance tables.
    EXPECT_LT(md.find("## NVIDIA H200 against"), md.find("## Performance at 1024³"));
}

TEST_F(markdown_report_test, comparison_of_alike_roofs_draws_no_conclusion) {
    const auto a = analyze(m_profile);
    report_options o;
    o.compare = &a;
    const auto md = markdown_report(a, o);
    EXPECT_TRUE(contains(md, "## NVIDIA H100 80GB HBM3 against NVIDIA H100 80GB HBM3\n"));
    EXPECT_TRUE(contains(md,
                         "The DRAM and FP32 ratios are alike (1.00× and 1.00×), so the speed-ups "
                         "cannot tell memory-bound from compute-bound rungs apart."));
}

// A prediction for the RTX 5070 Ti: its spec's roofs over the synthetic rows.
profile synthetic_rtx5070ti() {
    auto p = test::synthetic_predicted_profile();
    p.gpu.key = "rtx5070ti";
    p.gpu.name = "NVIDIA GeForce RTX 5070 Ti";
    p.gpu.sm_count = 70;
    p.gpu.sm_clock_mhz = 2452;
    p.peaks.at("fp32").theoretical = 70.0 * 128 * 2 * 2452e6;
    p.peaks.at("dram").theoretical = 896e9;
    return p;
}

TEST_F(markdown_report_test, predicted_report_lists_the_published_points_with_their_source) {
    const auto md = report(synthetic_rtx5070ti());
    const auto from = md.find("## Published measurements beside the prediction\n");
    ASSERT_NE(from, std::string::npos);
    const auto section = md.substr(from, md.find("\n## ", from + 4) - from);
    EXPECT_TRUE(contains(section,
                         "| kernel | published name | size | published TFLOP/s | % of published "
                         "cuBLAS | predicted roof TFLOP/s | published / predicted | source |\n"));
    const std::string source =
        "seed 003 (K. Sucurry, \"CUDA matrix multiplication\", RTX 5070 Ti, M = N = K = 4096, "
        "FP32)";
    std::size_t rows = 0;
    for (auto at = section.find("| " + source + " |\n"); at != std::string::npos;
         at = section.find("| " + source + " |\n", at + 1))
        ++rows;
    EXPECT_EQ(rows, 7u);
    // naive: 8.27 GB of refined DRAM traffic → 16.6 FLOP/B × 896 GB/s = 14.9 TFLOP/s predicted.
    EXPECT_TRUE(contains(
        section,
        "| naive | kernel 01: naive | 4096³ | 2.05 | 6.5 % | 14.9 | 13.8 % | " + source + " |\n"));
    EXPECT_TRUE(contains(section, "| cublas | cuBLAS | 4096³ | 31.7 | 100.0 % | 43.9 | 72.1 % | " +
                                      source + " |\n"));
    // Rungs the profile does not have: published only.
    EXPECT_TRUE(contains(section,
                         "| warptiling | kernel 05: warp tiling | 4096³ | 26.2 | 82.7 % "
                         "| — | — | " +
                             source + " |\n"));
    EXPECT_TRUE(contains(section,
                         "**Published** TFLOP/s were measured on a real NVIDIA GeForce "
                         "RTX 5070 Ti by the source named in each row, not by this "
                         "tool. **Predicted** TFLOP/s are this tool's roof"));
    // A measured report has no such section.
    EXPECT_FALSE(contains(report(m_profile), "## Published measurements"));
}

}  // namespace
}  // namespace tgemm::render

namespace tgemm::render {
namespace {

// The comparison lists every roof both GPUs have, so an L2-bound rung is judged against the
// L2 ratio, not the DRAM one.
TEST(markdown_report_comparison, lists_the_l2_and_shared_roofs_of_both_gpus) {
    auto h100 = test::synthetic_profile();
    auto h200 = test::synthetic_profile();
    h200.gpu.key = "h200";
    h200.gpu.name = "NVIDIA H200";
    for (auto* p : {&h100, &h200}) {
        p->peaks["l2"].theoretical = p == &h100 ? 13.1e12 : 15.4e12;
        p->peaks["l2"].unit = "B/s";
        p->peaks["smem"].theoretical = 33.5e12;
        p->peaks["smem"].unit = "B/s";
        p->peaks["smem"].measured = p == &h100 ? 33.3e12 : 33.2e12;
    }
    const auto a = analyze(h200);
    const auto b = analyze(h100);
    report_options o;
    o.compare = &b;
    const auto md = markdown_report(a, o);
    EXPECT_NE(md.find("| L2, theoretical | 15.4 TB/s | 13.1 TB/s | 1.18× |\n"), std::string::npos);
    EXPECT_NE(md.find("| shared memory, measured | 33.2 TB/s | 33.3 TB/s | 1.00× |\n"),
              std::string::npos);
    EXPECT_EQ(md.find("| L2, measured"), std::string::npos);  // neither measured it
}

}  // namespace
}  // namespace tgemm::render

namespace tgemm::render {
namespace {

// The page a user opens first: the table, the two rooflines, one line per rung, a link to the
// rest; its length grows with the rungs, not with the sizes or the counters.
TEST_F(markdown_report_test, summary_is_one_page_and_links_the_details) {
    const auto a = analyze(m_profile);
    report_options o;
    o.profile_label = "profiles/h100.json";
    const auto md = summary_report(a, o, "details.md");
    EXPECT_TRUE(md.starts_with("# Roofline report: NVIDIA H100 80GB HBM3\n"));
    EXPECT_NE(md.find("[details.md](details.md)"), std::string::npos);
    EXPECT_NE(md.find("## TFLOP/s"), std::string::npos);
    EXPECT_NE(md.find("![Hierarchical roofline at "), std::string::npos);
    EXPECT_NE(md.find("![DRAM roofline at 4096³](roofline-4096.png)"), std::string::npos);
    EXPECT_NE(md.find("[1024³](roofline-1024.png)"), std::string::npos);
    EXPECT_NE(md.find("every size in one plot: [roofline.png](roofline.png)"), std::string::npos);
    const auto f = findings(a);
    for (const auto& g : f.rungs)
        EXPECT_NE(md.find("- **" + g.heading + "**: " + g.lines.front()), std::string::npos)
            << g.heading;
    const auto kernels = m_profile.kernels().size();
    int lines = 0;
    for (char c : md) lines += c == '\n';
    // Heading 4, link 2, table 8 + a row per rung, rooflines 8, findings 6 + a line per rung.
    EXPECT_LE(lines, 28 + 2 * static_cast<int>(kernels)) << md;
    EXPECT_EQ(md.find("## Performance at"), std::string::npos);
}

}  // namespace
}  // namespace tgemm::render
