// The report charts of a PREDICTED profile (no GPU of that kind here): the whole ladder's
// models on the RTX 5070 Ti's spec, with seed 003's seven published points on the TFLOP/s
// chart. Lives with the ladder tests because predict_profile needs the registered rungs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "../render/layout_checks.hpp"
#include "analysis/analysis.hpp"
#include "analysis/published.hpp"
#include "predicted_profiles.hpp"
#include "render/ai_size_chart.hpp"
#include "render/bytes_chart.hpp"
#include "render/cairo_backend.hpp"
#include "render/chart_cairo.hpp"
#include "render/roofline_layout.hpp"
#include "render/tflops_chart.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

void expect_clean(const chart& c) {
    test::expect_chart_labels_apart(c);
    EXPECT_TRUE(render_chart_png(c).starts_with("\x89PNG"));
}

class ChartsPredicted : public ::testing::Test {
  protected:
    analysis m_analysis = analyze(test::rtx5070ti_predicted());
    chart_options m_opts = [] {
        chart_options o;
        o.measure = cairo_text_width();
        return o;
    }();
};

TEST_F(ChartsPredicted, TflopsDrawsTheSevenPublishedPoints) {
    const auto c = layout_tflops(m_analysis, m_opts);
    EXPECT_TRUE(c.predicted);
    EXPECT_NE(c.title_lines.at(0).find(predicted_tag), std::string::npos);
    const auto published = published_points("rtx5070ti");
    ASSERT_EQ(published.size(), 7u);
    EXPECT_EQ(c.count_markers(marker_kind::published), 7u);
    for (const auto& pp : published) {
        const auto it = std::find_if(c.markers.begin(), c.markers.end(),
                                     [&](const chart_marker& m) { return m.rung == pp.kernel; });
        ASSERT_NE(it, c.markers.end()) << pp.kernel;
        EXPECT_DOUBLE_EQ(it->value, pp.tflops);
        EXPECT_EQ(it->glyph, marker_shape::diamond);
        EXPECT_TRUE(it->filled);
        EXPECT_EQ(
            std::count_if(c.labels.begin(), c.labels.end(),
                          [&](const label& l) { return l.text == fmt::format("{:g}", pp.tflops); }),
            1)
            << pp.kernel;
    }
    EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [&](const std::string& n) {
        return n.find(published[0].source) != std::string::npos;
    }));
    // A hollow dashed bar for every rung with a bound at 4096³, nothing measured.
    std::size_t bounded = 0;
    for (const auto& r : m_analysis.rows)
        if (r.row->size == shape{4096, 4096, 4096} && r.bound_attainable) ++bounded;
    EXPECT_GE(bounded, 7u);
    EXPECT_EQ(c.count_bars(marker_kind::refined), bounded);
    EXPECT_EQ(c.count_bars(marker_kind::measured), 0u);
    for (const auto& b : c.bars) EXPECT_EQ(b.fill, bar_fill::hollow);
    expect_clean(c);
}

TEST_F(ChartsPredicted, BytesAndAiChartsSayPredicted) {
    const auto bytes = layout_bytes_per_level(m_analysis, m_opts);
    EXPECT_NE(bytes.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(bytes.count_bars(marker_kind::measured), 0u);
    EXPECT_GT(bytes.count_bars(marker_kind::refined), 0u);
    expect_clean(bytes);
    const auto ai = layout_ai_vs_size(m_analysis, m_opts);
    EXPECT_NE(ai.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(ai.count_markers(marker_kind::measured), 0u);
    EXPECT_GT(ai.count_lines(marker_kind::refined), 0u);
    expect_clean(ai);
}

}  // namespace
