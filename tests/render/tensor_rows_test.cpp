// Tensor rows beside the FP32 ladder (tests/render/synthetic_profile.hpp's tensor profile): the
// tensor roofs and markers of both rooflines, the per-type cuBLAS references of the TFLOP/s chart,
// the findings and report tables of tensor rungs, the focus size, and a crowded 20-row plot
// whose labels must all be placed and apart.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "layout_checks.hpp"
#include "model/levels.hpp"
#include "render/cairo_backend.hpp"
#include "render/chart_cairo.hpp"
#include "render/findings.hpp"
#include "render/format.hpp"
#include "render/hierarchical_layout.hpp"
#include "render/markdown_report.hpp"
#include "render/roofline_common.hpp"
#include "render/roofline_layout.hpp"
#include "render/tflops_chart.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

const shape big{4096, 4096, 4096};

render_options cairo_options() {
    render_options o;
    o.measure = cairo_text_width();
    return o;
}

chart_options cairo_chart_options() {
    chart_options o;
    o.measure = cairo_text_width();
    return o;
}

std::size_t count_roofs(const scene& s, std::string_view key) {
    return static_cast<std::size_t>(std::count_if(
        s.roofs.begin(), s.roofs.end(), [&](const roof_line& r) { return r.key == key; }));
}

std::size_t count_role(const std::vector<label>& labels, text_role role) {
    return static_cast<std::size_t>(std::count_if(labels.begin(), labels.end(),
                                                  [&](const label& l) { return l.role == role; }));
}

bool has_label(const std::vector<label>& labels, std::string_view text) {
    return std::any_of(labels.begin(), labels.end(),
                       [&](const label& l) { return l.text == text; });
}

void add_hierarchy_peaks(profile& p) {
    auto& l2 = p.peaks[std::string(roofs::l2)];
    l2.theoretical = 13.1e12;
    l2.unit = "B/s";
    auto& smem = p.peaks[std::string(roofs::smem)];
    smem.theoretical = 33.45e12;
    smem.unit = "B/s";
}

class tensor_rows : public ::testing::Test {
  protected:
    profile m_profile = test::synthetic_tensor_profile();
    analysis m_analysis = analyze(m_profile);
};

TEST_F(tensor_rows, analysis_judges_each_row_against_its_own_roof_and_reference) {
    const auto* mma = m_analysis.find("bf16_mma", big);
    const auto* fp16 = m_analysis.find("cublas_fp16", big);
    const auto* naive = m_analysis.find("naive", big);
    ASSERT_TRUE(mma && fp16 && naive);
    EXPECT_EQ(mma->compute_roof, "tensor_bf16");
    EXPECT_EQ(fp16->compute_roof, "tensor_fp16");
    EXPECT_EQ(naive->compute_roof, "fp32");
    // Executed FLOPs: the epilogue's FP32 (3MN) and the tensor FLOPs (2MNK).
    const double mn = 4096.0 * 4096;
    EXPECT_DOUBLE_EQ(*mma->executed_flops, 3 * mn + 2 * mn * 4096);
    // % of cuBLAS against the row of the same input type; each reference is its own 100 %.
    EXPECT_DOUBLE_EQ(*mma->pct_cublas, *mma->tflops / *m_analysis.find("cublas_bf16", big)->tflops);
    EXPECT_DOUBLE_EQ(*fp16->pct_cublas, 1.0);
    EXPECT_DOUBLE_EQ(*naive->pct_cublas, *naive->tflops / *m_analysis.find("cublas", big)->tflops);
    EXPECT_TRUE(is_reference_kernel("cublas"));
    EXPECT_TRUE(is_reference_kernel("cublas_fp16"));
    EXPECT_FALSE(is_reference_kernel("bf16_mma"));
    // The textbook point of the DRAM roofline sits under the tensor roof, not the FP32 one.
    EXPECT_DOUBLE_EQ(mma->attainable_textbook,
                     std::min(test::h100_tensor, mma->ai_textbook * test::h100_dram));
    EXPECT_GT(mma->attainable_textbook, test::h100_fp32);
}

TEST_F(tensor_rows, hierarchical_roofline_draws_the_fp32_and_both_tensor_roofs) {
    add_hierarchy_peaks(m_profile);
    const auto a = analyze(m_profile);
    for (const auto& opts : {render_options{}, cairo_options()}) {
        const auto s = layout_hierarchical_roofline(a, opts);
        // FP32; the FP16 and BF16 tensor roofs, of one value, as one line; DRAM, L2, shared:
        // all theoretical.
        EXPECT_EQ(s.roofs.size(), 5u);
        EXPECT_EQ(count_roofs(s, "fp32"), 1u);
        EXPECT_EQ(count_roofs(s, "tensor_fp16"), 1u);
        EXPECT_EQ(count_roofs(s, "tensor_bf16"), 0u);
        EXPECT_EQ(count_role(s.labels, text_role::roof), 5u);
        EXPECT_TRUE(has_label(s.labels, "FP16/BF16 tensor peak 1.07 PFLOP/s (theoretical)"));
        // Ten rows at 4096³; a tensor rung's markers at its executed rate, tensor FLOPs included.
        EXPECT_EQ(s.table.size(), 10u);
        const auto* ws = a.find("bf16_ws", big);
        std::size_t seen = 0;
        for (const auto& m : s.markers)
            if (m.rung == "bf16_ws") {
                ++seen;
                EXPECT_DOUBLE_EQ(m.at.y, *ws->executed_flops / (ws->row->time->median_ms * 1e-3));
            }
        // DRAM and shared: textbook and measured; L2: the refined model (no textbook count)
        // and measured.
        EXPECT_EQ(seen, 6u);
        test::expect_no_overlaps(s);
        test::expect_labels_clear_of_markers(s);
    }
}

TEST_F(tensor_rows, hierarchical_table_names_the_tensor_bound) {
    const auto s = layout_hierarchical_roofline(m_analysis, cairo_options());
    const std::string_view rule = "compute roof: FP32, or the tensor roof of the rung's input type";
    EXPECT_TRUE(has_label(s.labels, rule));
    const auto fp32_only = test::synthetic_profile();
    EXPECT_FALSE(has_label(layout_hierarchical_roofline(analyze(fp32_only)).labels, rule));
    // With the DRAM roof alone, every tensor row's DRAM AI allows more than 1.07 PFLOP/s.
    for (const auto& e : s.table) {
        const auto* r = m_analysis.find(e.rung, big);
        ASSERT_NE(r, nullptr) << e.rung;
        if (r->row->dtype == "fp16") {
            EXPECT_EQ(e.cells.at(1), "FP16 tensor") << e.rung;
        }
        if (r->row->dtype == "bf16") {
            EXPECT_EQ(e.cells.at(1), "BF16 tensor") << e.rung;
        }
    }
}

TEST_F(tensor_rows, dram_roofline_places_tensor_textbook_points_under_the_tensor_roof) {
    const auto s = layout_roofline(m_analysis, cairo_options());
    EXPECT_EQ(s.roofs.size(), 3u);  // FP32, FP16/BF16 tensor, DRAM
    EXPECT_EQ(count_roofs(s, "tensor_fp16"), 1u);
    std::size_t checked = 0;
    for (const auto& m : s.markers) {
        if (m.kind != marker_kind::textbook) continue;
        const auto* r = m_analysis.find(m.rung, m.size);
        const double peak = r->compute_roof == "fp32" ? test::h100_fp32 : test::h100_tensor;
        EXPECT_DOUBLE_EQ(m.at.y, std::min(peak, r->ai_textbook * test::h100_dram)) << m.rung;
        checked += r->compute_roof == "fp32" ? 0u : 1u;
    }
    EXPECT_EQ(checked, 14u);  // 7 tensor rows × 2 sizes
    test::expect_no_overlaps(s);
}

TEST_F(tensor_rows, tflops_chart_has_a_cublas_line_per_input_type_and_the_tensor_roof) {
    const auto c = layout_tflops(m_analysis, cairo_chart_options());
    std::vector<std::string> names;
    for (const auto& l : c.lines) names.push_back(l.name);
    // The BF16 and FP16 tensor roofs have one value: one line names both.
    EXPECT_EQ(names,
              (std::vector<std::string>{"cuBLAS", "cuBLAS BF16", "cuBLAS FP16", "FP32 theoretical",
                                        "FP16/BF16 tensor theoretical"}));
    const auto tf = [&](std::string_view k) { return *m_analysis.find(k, big)->tflops; };
    EXPECT_TRUE(has_label(c.labels, fmt::format("cuBLAS BF16 {:.1f} TFLOP/s", tf("cublas_bf16"))));
    EXPECT_TRUE(has_label(c.labels, "FP16/BF16 tensor peak 1070.5 TFLOP/s (theoretical)"));
    EXPECT_TRUE(
        has_label(c.labels, fmt::format("{:.1f} TFLOP/s · {:.0f} % of cuBLAS BF16", tf("bf16_mma"),
                                        100 * tf("bf16_mma") / tf("cublas_bf16"))));
    EXPECT_TRUE(
        has_label(c.labels, fmt::format("{:.1f} TFLOP/s · {:.0f} % of cuBLAS", tf("smem_tiling"),
                                        100 * tf("smem_tiling") / tf("cublas"))));
    EXPECT_TRUE(has_label(c.labels, fmt::format("{:.1f} TFLOP/s · the reference", tf("cublas"))));
    EXPECT_TRUE(
        has_label(c.labels, fmt::format("{:.1f} TFLOP/s · the FP16 reference", tf("cublas_fp16"))));
    // Every reference line has its label above the plot.
    EXPECT_EQ(count_role(c.labels, text_role::roof), c.lines.size());
    EXPECT_EQ(c.count_bars(marker_kind::measured), 10u);
    test::expect_chart_labels_apart(c);
}

TEST_F(tensor_rows, findings_judge_tensor_rungs_against_their_tensor_roof) {
    const auto f = findings(m_analysis);
    const auto group = [&](std::string_view heading) {
        const auto it = std::find_if(f.rungs.begin(), f.rungs.end(),
                                     [&](const finding_group& g) { return g.heading == heading; });
        return it == f.rungs.end() ? nullptr : &*it;
    };
    const auto* wmma = group("bf16_wmma at 4096³");
    ASSERT_NE(wmma, nullptr);
    EXPECT_TRUE(
        wmma->lines.at(0).starts_with("Bound by the BF16 tensor roof (1071 TFLOP/s): at "
                                      "its AI the DRAM roof allows more;"))
        << wmma->lines.at(0);
    // FP32 rows keep their wording; the tensor rows name their type and reference.
    const auto* r = m_analysis.find("bf16_cluster", big);
    const auto across = [&](std::string_view text) {
        return std::find(f.across.begin(), f.across.end(), text) != f.across.end();
    };
    EXPECT_TRUE(across(fmt::format(
        "At 4096³ the fastest BF16 rung is bf16_cluster at {} of cuBLAS BF16 ({} against {} "
        "TFLOP/s).",
        format_percent(r->pct_cublas), format_tflops_value(*r->tflops * 1e12),
        format_tflops_value(*m_analysis.find("cublas_bf16", big)->tflops * 1e12))));
    EXPECT_TRUE(std::any_of(f.across.begin(), f.across.end(), [](const std::string& l) {
        return l.starts_with("At 4096³ the fastest rung is smem_tiling at ");
    }));
    EXPECT_EQ(f.tensor_steps.size(), 4u);
}

TEST_F(tensor_rows, bound_by_a_memory_roof_says_what_share_of_the_tensor_roof_it_leaves) {
    add_hierarchy_peaks(m_profile);
    const auto a = analyze(m_profile);
    const auto f = findings(a);
    const auto* r = a.find("bf16_wmma", big);
    ASSERT_EQ(r->bound_roof, "smem");
    const auto it = std::find_if(f.rungs.begin(), f.rungs.end(), [](const finding_group& g) {
        return g.heading == "bf16_wmma at 4096³";
    });
    ASSERT_NE(it, f.rungs.end());
    EXPECT_TRUE(it->lines.at(0).starts_with(fmt::format(
        "Bound by the shared-memory roof: at {} it allows {} TFLOP/s, {} of the BF16 tensor roof "
        "(1071 TFLOP/s);",
        format_ai(*r->level("smem")->ai_measured), format_tflops_value(*r->bound_attainable),
        format_percent(*r->bound_attainable / test::h100_tensor))))
        << it->lines.at(0);
}

TEST_F(tensor_rows, report_tables_compare_the_tensor_counters) {
    const auto md = markdown_report(m_analysis, report_options{});
    const auto section = [&](std::string_view heading) {
        const auto at = md.find(heading);
        EXPECT_NE(at, std::string::npos) << heading;
        return md.substr(at, md.find("\n### ", at + 1) - at);
    };
    const auto cluster = section("### bf16_cluster at 4096³");
    for (const auto* name :
         {"| tensor FLOPs |", "| L2 requested bytes |", "| L2 coalesced bytes |",
          "| ldmatrix wavefronts |", "| ldmatrix bank conflicts |", "| stmatrix wavefronts |",
          "| wgmma operand wavefronts |", "| TMA load bytes |", "| TMA multicast bytes |",
          "| TMA store bytes |"})
        EXPECT_NE(cluster.find(name), std::string::npos) << name;
    // The seed count is the tensor FLOPs' textbook; the FP32 FLOPs (the epilogue) have none.
    EXPECT_NE(cluster.find("| tensor FLOPs | 137.5 G | 137.4 G | 137.4 G |"), std::string::npos)
        << cluster;
    EXPECT_NE(cluster.find("| FLOPs | — | 50.3 M | 50.3 M |"), std::string::npos) << cluster;
    // FP32 rows have no tensor counters: their tables do not list them.
    EXPECT_EQ(section("### smem_tiling at 4096³").find("TMA"), std::string::npos);
    // How it was measured says what changes for tensor rows; so does the benchmark table.
    EXPECT_NE(md.find("- Tensor rows (BF16, FP16 inputs): executed FLOPs add the tensor-core "
                      "FLOPs"),
              std::string::npos);
    EXPECT_NE(benchmark_table(m_analysis).find("% of cuBLAS of the row's input type"),
              std::string::npos);
    // The hierarchy table closes each tensor rung with its own compute roof.
    EXPECT_NE(md.find("| bf16_mma | BF16 tensor compute |"), std::string::npos);
    EXPECT_NE(md.find("| naive | FP32 compute |"), std::string::npos);
}

// A size only the tensor ladder has (8192³) does not take the single-size plots away from the
// FP32 rungs: the focus is the size with the most rows.
TEST_F(tensor_rows, focus_is_the_size_with_the_most_rows) {
    for (const auto& t : test::tensor_rungs_2048)
        m_profile.measurements.push_back(test::synthetic_tensor_row(t, 8192));
    const auto a = analyze(m_profile);
    EXPECT_EQ(a.focus_size(), big);
}

// The FP32 ladder and the tensor ladder together: 20 rows at 4096³. Every roof and reference
// label and every rung name is placed, and nothing overlaps.
profile twenty_rows() {
    auto p = test::synthetic_tensor_profile();
    add_hierarchy_peaks(p);
    const std::vector<std::string> more = {
        "thread_tiling", "outer_product", "smem_register",  "blocktiling_1d", "blocktiling_2d",
        "vectorized",    "warptiling",    "warptiling_sub", "sm90_fp32",      "naive_coalesced"};
    // FP32 rungs after smem_tiling (ladder order is the order of first appearance), each a
    // little faster than the one before.
    std::vector<measurement> small, large;
    for (std::size_t i = 0; i < more.size(); ++i) {
        const double speed = 1 + 0.3 * double(i);
        small.push_back(test::synthetic_row(more[i], 1024, 0.26 / speed));
        large.push_back(test::synthetic_row(more[i], 4096, 15.0 / speed));
    }
    p.measurements.insert(p.measurements.begin() + 3, small.begin(), small.end());
    p.measurements.insert(p.measurements.end(), large.begin(), large.end());
    return p;
}

TEST(tensor_rows_crowded, twenty_rows_place_every_label_apart) {
    const auto p = twenty_rows();
    const auto a = analyze(p);
    ASSERT_EQ(a.focus_size(), big);
    for (const auto& opts : {render_options{}, cairo_options()}) {
        const auto h = layout_hierarchical_roofline(a, opts);
        EXPECT_EQ(h.table.size(), 20u);
        EXPECT_EQ(count_role(h.labels, text_role::roof), h.roofs.size());
        const auto d = layout_roofline(a, opts);
        EXPECT_EQ(count_role(d.labels, text_role::roof), d.roofs.size());
        for (const auto* s : {&h, &d}) {
            for (const auto& e : s->table)
                EXPECT_TRUE(has_label(s->labels, e.rung)) << "no name for " << e.rung;
            test::expect_no_overlaps(*s);
            test::expect_labels_clear_of_markers(*s);
        }
    }
    const auto c = layout_tflops(a, cairo_chart_options());
    EXPECT_EQ(c.count_bars(marker_kind::measured), 20u);
    EXPECT_EQ(count_role(c.labels, text_role::roof), c.lines.size());
    test::expect_chart_labels_apart(c);
    // Twenty rungs, twenty colours.
    std::set<int> colours;
    for (const auto& b : c.bars) colours.insert(b.colour);
    std::set<std::tuple<double, double, double>> rgbs;
    for (const int i : colours) {
        const auto k = palette_colour(i);
        rgbs.insert({k.r, k.g, k.b});
    }
    EXPECT_EQ(rgbs.size(), 20u);
}

}  // namespace
}  // namespace tgemm::render
