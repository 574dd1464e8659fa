#include "render/hierarchical_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "core/error.hpp"
#include "layout_checks.hpp"
#include "model/levels.hpp"
#include "render/cairo_backend.hpp"
#include "render/format.hpp"
#include "render/roofline_common.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

const shape big{4096, 4096, 4096};

std::size_t count_roofs(const scene& s, std::string_view key, roof_source src) {
    return static_cast<std::size_t>(
        std::count_if(s.roofs.begin(), s.roofs.end(),
                      [&](const roof_line& r) { return r.key == key && r.source == src; }));
}

std::size_t count_markers(const scene& s, bool filled) {
    return static_cast<std::size_t>(std::count_if(
        s.markers.begin(), s.markers.end(), [&](const marker& m) { return m.filled == filled; }));
}

std::size_t count_labels(const scene& s, text_role role) {
    return static_cast<std::size_t>(std::count_if(s.labels.begin(), s.labels.end(),
                                                  [&](const label& l) { return l.role == role; }));
}

bool any_label_is(const scene& s, std::string_view text) {
    return std::any_of(s.labels.begin(), s.labels.end(),
                       [&](const label& l) { return l.text == text; });
}

using test::expect_labels_clear_of_markers;
using test::expect_no_overlaps;

// What the analysis says the plot must hold at the focus size, counted independently of the
// layout: filled = levels with a measured AI, hollow = levels with a textbook or refined AI,
// arrows = levels with both.
struct expected_points {
    std::size_t filled = 0;
    std::size_t hollow = 0;
    std::size_t arrows = 0;
    std::size_t rows = 0;
};

expected_points expect_from(const analysis& a, bool predicted) {
    expected_points e;
    const auto focus = *a.focus_size();
    for (const auto& r : a.rows) {
        if (!(r.row->size == focus)) continue;
        ++e.rows;
        if (!(predicted ? r.bound_attainable : r.achieved_flops_per_s)) continue;
        for (const auto& lp : r.hierarchy) {
            if (predicted) {
                e.hollow += (lp.ai_textbook ? 1u : 0u) + (lp.ai_refined ? 1u : 0u);
                e.arrows += lp.ai_textbook && lp.ai_refined ? 1u : 0u;
            } else {
                const bool model = lp.ai_textbook || lp.ai_refined;
                e.hollow += model ? 1u : 0u;
                e.filled += lp.ai_measured ? 1u : 0u;
                e.arrows += model && lp.ai_measured ? 1u : 0u;
            }
        }
    }
    return e;
}

void expect_points_match(const scene& s, const analysis& a) {
    const auto e = expect_from(a, s.predicted);
    EXPECT_EQ(count_markers(s, true), e.filled);
    EXPECT_EQ(count_markers(s, false), e.hollow);
    EXPECT_EQ(s.arrows.size(), e.arrows);
    EXPECT_EQ(s.table.size(), e.rows);
    for (const auto& m : s.markers) {
        EXPECT_EQ(m.size, *a.focus_size()) << m.rung;
        EXPECT_EQ(m.glyph, level_glyph(m.level)) << m.rung << " " << m.level;
        EXPECT_EQ(m.filled, m.kind == marker_kind::measured);
        EXPECT_EQ(m.dashed, m.kind == marker_kind::refined);
    }
}

roof theoretical_roof(double value, std::string unit) {
    roof r;
    r.theoretical = value;
    r.unit = std::move(unit);
    r.method = "spec";
    return r;
}

profile with_hierarchy_peaks(profile p) {
    p.peaks[std::string(roofs::l2)] = theoretical_roof(12.5e12, "B/s");
    p.peaks[std::string(roofs::smem)] = theoretical_roof(33.45e12, "B/s");
    return p;
}

class hierarchical_layout : public ::testing::Test {
  protected:
    profile m_profile = test::synthetic_profile();
    analysis m_analysis = analyze(m_profile);
};

TEST_F(hierarchical_layout, glyph_follows_the_level) {
    EXPECT_EQ(level_glyph("dram"), marker_shape::circle);
    EXPECT_EQ(level_glyph("l2"), marker_shape::square);
    EXPECT_EQ(level_glyph("smem"), marker_shape::triangle_up);
    EXPECT_EQ(level_glyph("unknown"), marker_shape::diamond);
}

TEST_F(hierarchical_layout, canvas_is_at_least_1600_by_1000) {
    const auto s = layout_hierarchical_roofline(m_analysis);
    EXPECT_GE(s.width, 1600);
    EXPECT_GE(s.height, 1000);
    EXPECT_GT(s.plot.w, 800);
    EXPECT_GT(s.plot.h, 500);
}

TEST_F(hierarchical_layout, one_marker_per_level_at_the_focus_size) {
    ASSERT_EQ(m_analysis.focus_size(), big);
    const auto s = layout_hierarchical_roofline(m_analysis);
    // cuBLAS: DRAM only (measured + textbook). naive: DRAM (both) and L2 (measured; no model
    // count). smem_tiling: DRAM and shared (both) and L2 (measured only).
    EXPECT_EQ(count_markers(s, true), 6u);
    EXPECT_EQ(s.count(marker_kind::measured), 6u);
    EXPECT_EQ(s.count(marker_kind::textbook), 4u);
    EXPECT_EQ(s.count(marker_kind::refined), 0u);
    EXPECT_EQ(s.arrows.size(), 4u);
    std::map<std::string, std::size_t> per_level;
    for (const auto& m : s.markers) ++per_level[m.level];
    EXPECT_EQ(per_level["dram"], 6u);
    EXPECT_EQ(per_level["l2"], 2u);
    EXPECT_EQ(per_level["smem"], 2u);
    EXPECT_EQ(s.table.size(), 3u);
    expect_points_match(s, m_analysis);
}

TEST_F(hierarchical_layout, markers_sit_at_the_levels_ai_and_the_timed_rate) {
    const auto s = layout_hierarchical_roofline(m_analysis);
    const auto* tiled = m_analysis.find("smem_tiling", big);
    ASSERT_NE(tiled, nullptr);
    const auto* smem = tiled->level("smem");
    ASSERT_NE(smem, nullptr);
    int seen = 0;
    for (const auto& m : s.markers) {
        if (m.rung != "smem_tiling" || m.level != "smem") continue;
        ++seen;
        EXPECT_DOUBLE_EQ(m.at.y, *tiled->achieved_flops_per_s);
        if (m.kind == marker_kind::measured)
            EXPECT_DOUBLE_EQ(m.at.x, *smem->ai_measured);
        else
            EXPECT_DOUBLE_EQ(m.at.x, *smem->ai_textbook);
    }
    EXPECT_EQ(seen, 2);
    // Arrows run from the model's point to the measured one, at one level.
    for (const auto& ar : s.arrows) {
        const auto at = [&](marker_kind k) {
            return std::find_if(s.markers.begin(), s.markers.end(), [&](const marker& m) {
                return m.rung == ar.rung && m.level == ar.level && m.kind == k;
            });
        };
        const auto to = at(marker_kind::measured);
        ASSERT_NE(to, s.markers.end());
        EXPECT_DOUBLE_EQ(ar.to.x, to->at.x);
        EXPECT_DOUBLE_EQ(ar.to.y, to->at.y);
        const auto from = at(marker_kind::textbook);
        ASSERT_NE(from, s.markers.end());
        EXPECT_DOUBLE_EQ(ar.from.x, from->at.x);
        EXPECT_FALSE(ar.dashed);
        EXPECT_LT(ar.width_px, 1.6);  // thin: 13 rungs × 3 levels share the plot
    }
}

TEST_F(hierarchical_layout, a_level_without_a_textbook_count_uses_the_refined_model_dashed) {
    // The refined model counts L2 bytes for naive; the textbook never does.
    for (auto& m : m_profile.measurements)
        if (m.kernel == "naive") m.model.refined.set(keys::l2_bytes, 16e9);
    const auto a = analyze(m_profile);
    const auto s = layout_hierarchical_roofline(a);
    EXPECT_EQ(s.count(marker_kind::refined), 1u);
    EXPECT_EQ(s.arrows.size(), 5u);
    const auto refined = std::find_if(s.markers.begin(), s.markers.end(), [](const marker& m) {
        return m.kind == marker_kind::refined;
    });
    ASSERT_NE(refined, s.markers.end());
    EXPECT_EQ(refined->level, "l2");
    EXPECT_FALSE(refined->filled);
    EXPECT_TRUE(refined->dashed);
    EXPECT_DOUBLE_EQ(refined->at.x, *a.find("naive", big)->level("l2")->ai_refined);
    EXPECT_TRUE(any_label_is(s, "dashed: refined model AI (no textbook count, L2)"));
    expect_points_match(s, a);
}

TEST_F(hierarchical_layout, theoretical_roofs_only_for_the_levels_the_profile_has) {
    auto s = layout_hierarchical_roofline(m_analysis);
    ASSERT_EQ(s.roofs.size(), 2u);  // FP32 and DRAM: the synthetic profile has no L2 or shared
    EXPECT_EQ(count_roofs(s, "fp32", roof_source::theoretical), 1u);
    EXPECT_EQ(count_roofs(s, "dram", roof_source::theoretical), 1u);
    for (const auto& r : s.roofs) EXPECT_TRUE(r.dashed);

    m_profile = with_hierarchy_peaks(m_profile);
    s = layout_hierarchical_roofline(analyze(m_profile));
    ASSERT_EQ(s.roofs.size(), 4u);
    for (const auto key : {"fp32", "dram", "l2", "smem"}) {
        EXPECT_EQ(count_roofs(s, key, roof_source::theoretical), 1u) << key;
        EXPECT_EQ(count_roofs(s, key, roof_source::measured), 0u) << key;
    }
    EXPECT_TRUE(any_label_is(s, "L2 12.5 TB/s (theoretical)"));
    EXPECT_TRUE(any_label_is(s, "shared 33.5 TB/s (theoretical)"));
    // Memory roofs climb at their bandwidth to the compute roof; FP32 starts at the first one.
    for (const auto& r : s.roofs) {
        if (r.kind == roof_kind::memory) {
            EXPECT_NEAR(r.from.y / r.from.x, r.value, r.value * 1e-12);
            EXPECT_NEAR(r.to.y, test::h100_fp32, 1);
        } else {
            EXPECT_NEAR(r.from.x, test::h100_fp32 / 33.45e12, 1e-9);
        }
    }
    EXPECT_EQ(count_labels(s, text_role::roof), s.roofs.size());
}

TEST_F(hierarchical_layout, measured_peaks_draw_solid_roofs) {
    m_profile = with_hierarchy_peaks(m_profile);
    m_profile.peaks.at("fp32").measured = 60e12;
    m_profile.peaks.at("dram").measured = 3.03e12;
    m_profile.peaks.at("l2").measured = 10.2e12;
    const auto s = layout_hierarchical_roofline(analyze(m_profile));
    ASSERT_EQ(s.roofs.size(), 7u);
    for (const auto key : {"fp32", "dram", "l2"}) {
        EXPECT_EQ(count_roofs(s, key, roof_source::theoretical), 1u) << key;
        EXPECT_EQ(count_roofs(s, key, roof_source::measured), 1u) << key;
    }
    EXPECT_EQ(count_roofs(s, "smem", roof_source::theoretical), 1u);
    EXPECT_EQ(count_roofs(s, "smem", roof_source::measured), 0u);
    for (const auto& r : s.roofs) EXPECT_EQ(r.dashed, r.source == roof_source::theoretical);
    EXPECT_TRUE(any_label_is(s, "L2 measured 10.2 TB/s"));
    EXPECT_TRUE(any_label_is(s, "DRAM measured 3.03 TB/s"));
    EXPECT_TRUE(any_label_is(s, "FP32 measured 60.0 TFLOP/s"));
    EXPECT_TRUE(any_label_is(s, "solid line: measured roof"));
    EXPECT_EQ(count_labels(s, text_role::roof), s.roofs.size());
    expect_no_overlaps(s);
    expect_labels_clear_of_markers(s);
}

TEST_F(hierarchical_layout, a_missing_l2_roof_keeps_the_l2_markers) {
    m_profile = with_hierarchy_peaks(m_profile);
    m_profile.peaks.erase(std::string(roofs::l2));
    const auto s = layout_hierarchical_roofline(analyze(m_profile));
    EXPECT_EQ(s.roofs.size(), 3u);
    EXPECT_EQ(count_roofs(s, "l2", roof_source::theoretical), 0u);
    EXPECT_EQ(std::count_if(s.markers.begin(), s.markers.end(),
                            [](const marker& m) { return m.level == "l2"; }),
              2);
}

TEST_F(hierarchical_layout, tensor_roofs_only_where_a_row_is_not_fp32) {
    m_profile.peaks[std::string(roofs::tensor_tf32)] = theoretical_roof(494e12, "FLOP/s");
    m_profile.peaks[std::string(roofs::tensor_fp16)] = theoretical_roof(989e12, "FLOP/s");
    auto s = layout_hierarchical_roofline(analyze(m_profile));
    EXPECT_EQ(count_roofs(s, "tensor_tf32", roof_source::theoretical), 0u);
    EXPECT_EQ(count_roofs(s, "tensor_fp16", roof_source::theoretical), 0u);
    EXPECT_EQ(s.roofs.size(), 2u);

    auto tf32 = test::synthetic_row("cublas", 4096, 0.5);
    tf32.kernel = "cublas_tf32";
    tf32.dtype = "tf32";
    m_profile.measurements.push_back(tf32);
    const auto a = analyze(m_profile);
    s = layout_hierarchical_roofline(a);
    EXPECT_EQ(s.roofs.size(), 3u);
    EXPECT_EQ(count_roofs(s, "tensor_tf32", roof_source::theoretical), 1u);
    EXPECT_EQ(count_roofs(s, "tensor_fp16", roof_source::theoretical), 0u);
    EXPECT_TRUE(any_label_is(s, "TF32 tensor peak 494.0 TFLOP/s (theoretical)"));
    // The memory roofs climb to the highest compute roof.
    for (const auto& r : s.roofs) {
        if (r.kind == roof_kind::memory) {
            EXPECT_NEAR(r.to.y, 494e12, 1);
        }
    }
    EXPECT_GE(s.y.max, 494e12);
    EXPECT_EQ(count_labels(s, text_role::roof), s.roofs.size());
    expect_points_match(s, a);
    expect_no_overlaps(s);
}

TEST_F(hierarchical_layout, table_gives_the_bound_roof_and_the_share_of_it) {
    const auto s = layout_hierarchical_roofline(m_analysis);
    ASSERT_EQ(s.table_header,
              (std::vector<std::string>{"kernel", "bound by", "TFLOP/s", "% of bound"}));
    ASSERT_EQ(s.table.size(), 3u);
    const std::vector<std::string> order = {"cublas", "naive", "smem_tiling"};
    for (std::size_t i = 0; i < s.table.size(); ++i) {
        const auto& e = s.table[i];
        EXPECT_EQ(e.rung, order[i]);
        const auto* r = m_analysis.find(e.rung, big);
        ASSERT_NE(r, nullptr);
        ASSERT_EQ(e.cells.size(), 4u);
        EXPECT_EQ(e.cells[1], roof_name(r->bound_roof));
        EXPECT_EQ(e.cells[2], format_tflops_value(*r->tflops * 1e12));
        EXPECT_EQ(e.cells[3], format_percent(r->pct_bound_roof));
        EXPECT_TRUE(e.has_measured_point);
    }
    EXPECT_EQ(s.table[1].cells[1], "DRAM");  // naive at 4096³
    // The table's glyph is a colour chip in the rung's colour.
    const auto chips = std::count_if(s.swatches.begin(), s.swatches.end(), [](const swatch& w) {
        return w.kind == swatch_kind::chip && w.colour_tone == tone::rung;
    });
    EXPECT_EQ(chips, 3);
    // The skipped row at the focus size is explained.
    EXPECT_TRUE(std::any_of(s.notes.begin(), s.notes.end(), [](const std::string& n) {
        return n.starts_with("naive_uncoalesced: skipped");
    }));
}

TEST_F(hierarchical_layout, legend_names_levels_and_marker_styles) {
    const auto s = layout_hierarchical_roofline(m_analysis);
    for (const auto* text :
         {"circle: DRAM", "square: L2", "triangle: shared",
          "filled: measured AI, at the timed rate", "hollow: textbook AI, at the same rate",
          "model → measured", "dashed line: theoretical roof (spec × clocks)"})
        EXPECT_TRUE(any_label_is(s, text)) << text;
    EXPECT_FALSE(any_label_is(s, "solid line: measured roof"));
    // No level here lacks a textbook count but has a refined one: no dashed marker to explain.
    EXPECT_FALSE(any_label_is(s, "dashed: refined model AI (no textbook count, L2)"));
}

TEST_F(hierarchical_layout, title_names_gpu_clocks_cuda_date_and_size) {
    const auto s = layout_hierarchical_roofline(m_analysis);
    ASSERT_GE(s.title_lines.size(), 2u);
    EXPECT_EQ(s.title_lines[0],
              "Hierarchical roofline of NVIDIA H100 80GB HBM3 at 4096³, measured");
    EXPECT_EQ(s.title_lines[1],
              "SM clock 1980 MHz · memory clock 2619 MHz · CUDA 13.0 · driver 580.95.05 · "
              "2026-11-22T10:00:00Z");
    EXPECT_TRUE(s.watermark.empty());
    EXPECT_FALSE(s.predicted);
}

TEST_F(hierarchical_layout, no_two_labels_overlap) {
    for (const bool cairo : {false, true}) {
        render_options o;
        if (cairo) o.measure = cairo_text_width();
        const auto s = layout_hierarchical_roofline(analyze(with_hierarchy_peaks(m_profile)), o);
        expect_no_overlaps(s);
        expect_labels_clear_of_markers(s);
        EXPECT_EQ(count_labels(s, text_role::roof), s.roofs.size());
    }
}

TEST_F(hierarchical_layout, predicted_profile_has_no_filled_marker_and_says_so) {
    m_profile = test::synthetic_predicted_profile();
    const auto a = analyze(m_profile);
    const auto s = layout_hierarchical_roofline(a);
    EXPECT_TRUE(s.predicted);
    EXPECT_NE(s.title_lines[0].find(predicted_tag), std::string::npos);
    EXPECT_EQ(s.watermark, "PREDICTED");
    EXPECT_EQ(count_markers(s, true), 0u);
    // cuBLAS has no refined FLOPs: textbook only. naive: DRAM both; smem_tiling: DRAM and
    // shared both.
    EXPECT_EQ(s.count(marker_kind::textbook), 4u);
    EXPECT_EQ(s.count(marker_kind::refined), 3u);
    EXPECT_EQ(s.arrows.size(), 3u);
    for (const auto& ar : s.arrows) EXPECT_TRUE(ar.dashed);
    // Height: the bound the refined model gives.
    for (const auto& m : s.markers)
        EXPECT_DOUBLE_EQ(m.at.y, *a.find(m.rung, big)->bound_attainable) << m.rung;
    for (const auto& e : s.table) EXPECT_FALSE(e.has_measured_point);
    expect_points_match(s, a);
    expect_no_overlaps(s);
}

TEST(hierarchical_layout_errors, a_profile_with_every_row_skipped_is_refused) {
    auto p = test::synthetic_profile();
    for (auto& m : p.measurements) m.skipped = "not here";
    const auto a = analyze(p);
    EXPECT_THROW((void)layout_hierarchical_roofline(a), tgemm::error);
}

// The shipped H100 profile: the whole ladder.
class hierarchical_layout_shipped : public ::testing::Test {
  protected:
    static const profile& shipped() { return test::shipped_h100(); }
    analysis m_analysis = analyze(shipped());
};

TEST_F(hierarchical_layout_shipped, counts_follow_the_profile) {
    render_options o;
    o.measure = cairo_text_width();
    const auto s = layout_hierarchical_roofline(m_analysis, o);
    // One theoretical line per roof the profile has, one solid line per measured one.
    std::size_t roofs_expected = 0;
    for (const auto key : {"fp32", "dram", "l2", "smem"}) {
        const auto it = shipped().peaks.find(key);
        const std::size_t theo = it != shipped().peaks.end() ? 1 : 0;
        const std::size_t meas = theo && it->second.measured ? 1 : 0;
        EXPECT_EQ(count_roofs(s, key, roof_source::theoretical), theo) << key;
        EXPECT_EQ(count_roofs(s, key, roof_source::measured), meas) << key;
        roofs_expected += theo + meas;
    }
    // The tensor roofs of the 16-bit rows: BF16 and FP16 share one theoretical line (the same
    // hardware rate), each has its own measured one.
    ASSERT_TRUE(shipped().peaks.at("tensor_bf16").measured);
    ASSERT_TRUE(shipped().peaks.at("tensor_fp16").measured);
    EXPECT_EQ(s.roofs.size(), roofs_expected + 3);
    // The shipped profile was measured with the peaks: FP32, DRAM, L2 and shared memory each
    // have a theoretical and a measured roof.
    EXPECT_EQ(roofs_expected, 8u);
    for (const auto& r : s.roofs) EXPECT_EQ(r.dashed, r.source == roof_source::theoretical);
    // The whole ladder at 4096³, each rung timed and counted at DRAM and L2 at least.
    EXPECT_EQ(s.table.size(), 20u);
    EXPECT_GE(count_markers(s, true), 40u);
    // Exactly: DRAM and L2 for all 20 rungs, shared memory for the 9 FP32 rungs that use it
    // (cuBLAS, smem_tiling, smem_register and the six block/warp-tiled rungs) and the seven
    // 16-bit rows (LSU, ldmatrix or wgmma operand traffic).
    EXPECT_EQ(count_markers(s, true), 20u + 20u + 9u + 7u);
    expect_points_match(s, m_analysis);
    EXPECT_EQ(count_labels(s, text_role::roof), s.roofs.size());
    expect_no_overlaps(s);
    expect_labels_clear_of_markers(s);
}

TEST_F(hierarchical_layout_shipped, png_and_svg_from_the_same_scene) {
    render_options o;
    o.measure = cairo_text_width();
    const auto s = layout_hierarchical_roofline(m_analysis, o);
    const auto png = render_png(s);
    ASSERT_GT(png.size(), 10000u);  // a picture, not an empty canvas
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    const auto u32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i)
            v = (v << 8) | static_cast<unsigned char>(png.at(at + i));
        return v;
    };
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_GE(u32(16), 1600u);
    EXPECT_GE(u32(20), 1000u);
    EXPECT_EQ(u32(16), static_cast<std::uint32_t>(s.width));
    EXPECT_EQ(u32(20), static_cast<std::uint32_t>(s.height));
    const auto svg = render_svg(s);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace tgemm::render
