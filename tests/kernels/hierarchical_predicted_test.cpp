// The hierarchical roofline of a PREDICTED profile (no GPU of that kind here): the whole
// ladder's models on the spec's roofs, for the H100 and the RTX 5070 Ti. Lives with the ladder
// tests because predict_profile needs the registered rungs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "../render/layout_checks.hpp"
#include "analysis/analysis.hpp"
#include "analysis/published.hpp"
#include "predicted_profiles.hpp"
#include "render/hierarchical_layout.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

using test::expect_no_overlaps;

class HierarchicalPredicted : public ::testing::TestWithParam<const char*> {};

TEST_P(HierarchicalPredicted, DrawsModelsOnlyAndSaysSo) {
    const auto p = test::predicted(GetParam(), {shape{1024, 1024, 1024}, shape{4096, 4096, 4096}},
                                   "tgemm-roofline --gpu test");
    const auto a = analyze(p);
    ASSERT_EQ(a.focus_size(), (shape{4096, 4096, 4096}));
    const auto s = layout_hierarchical_roofline(a);
    EXPECT_TRUE(s.predicted);
    EXPECT_NE(s.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_NE(s.title_lines.at(0).find("at 4096³"), std::string::npos);
    EXPECT_EQ(s.watermark, "PREDICTED");
    EXPECT_EQ(s.count(marker_kind::measured), 0u);
    // The models; beside them only the published points of this GPU at the focus size
    // (published_roofline_test.cpp checks where they go).
    const auto published = published_points(GetParam());
    EXPECT_EQ(s.count(marker_kind::published),
              static_cast<std::size_t>(
                  std::count_if(published.begin(), published.end(), [](const published_point& pp) {
                      return pp.size == shape{4096, 4096, 4096};
                  })));
    for (const auto& m : s.markers) {
        if (m.kind == marker_kind::published) continue;
        EXPECT_FALSE(m.filled) << m.rung;
        EXPECT_EQ(m.dashed, m.kind == marker_kind::refined) << m.rung;
        EXPECT_EQ(m.glyph, level_glyph(m.level)) << m.rung;
    }
    for (const auto& ar : s.arrows) EXPECT_TRUE(ar.dashed);
    // Exact counts, from the analysis: a textbook and a refined marker per level that has
    // each, an arrow where a level has both.
    std::size_t textbook = 0, refined = 0, arrows = 0, rows = 0;
    for (const auto& r : a.rows) {
        if (!(r.row->size == shape{4096, 4096, 4096})) continue;
        ++rows;
        if (!r.bound_attainable) continue;
        for (const auto& lp : r.hierarchy) {
            textbook += lp.ai_textbook ? 1u : 0u;
            refined += lp.ai_refined ? 1u : 0u;
            arrows += lp.ai_textbook && lp.ai_refined ? 1u : 0u;
        }
    }
    EXPECT_EQ(s.count(marker_kind::textbook), textbook);
    EXPECT_EQ(s.count(marker_kind::refined), refined);
    EXPECT_EQ(s.arrows.size(), arrows);
    EXPECT_EQ(s.table.size(), rows);
    EXPECT_GT(refined, rows);  // more than DRAM alone: L2 and shared too
    for (const auto& e : s.table) EXPECT_FALSE(e.has_measured_point);
    // The spec's roofs: FP32, DRAM and shared always, L2 where the spec publishes it, and the
    // tensor roof of each 16-bit type some predicted row uses (BF16: the tensor rungs and
    // cuBLAS BF16; FP16: cuBLAS FP16); all theoretical, so all dashed. Tensor roofs of one
    // value are one line (the spec gives BF16 and FP16 the same peak).
    std::set<double> tensor_values;
    for (const std::string_view dtype : {"bf16", "fp16"})
        if (std::any_of(a.rows.begin(), a.rows.end(),
                        [&](const row_analysis& r) { return r.row->dtype == dtype; }))
            tensor_values.insert(p.peaks.at(fmt::format("tensor_{}", dtype)).theoretical);
    ASSERT_FALSE(tensor_values.empty());
    const auto tensor_roofs = tensor_values.size();
    for (const auto& r : s.roofs) {
        EXPECT_TRUE(r.dashed) << r.key;
        EXPECT_EQ(r.source, roof_source::theoretical);
    }
    EXPECT_EQ(s.roofs.size(), (p.peaks.contains("l2") ? 4u : 3u) + tensor_roofs);
    // Every roof is labelled, even with the compute-bound rungs sitting on the FP32 roof.
    EXPECT_EQ(std::count_if(s.labels.begin(), s.labels.end(),
                            [](const label& l) { return l.role == text_role::roof; }),
              static_cast<std::ptrdiff_t>(s.roofs.size()));
    expect_no_overlaps(s);
}

INSTANTIATE_TEST_SUITE_P(Gpus, HierarchicalPredicted, ::testing::Values("h100", "rtx5070ti"));

}  // namespace
