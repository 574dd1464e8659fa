// The report charts of a PREDICTED profile (no GPU of that kind here): the whole ladder's
// models on the RTX 5070 Ti's spec, with seed 003's seven published points on the TFLOP/s
// chart. Lives with the ladder tests because predict_profile needs the registered rungs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/spec.hpp"
#include "ladder/predict.hpp"
#include "model/analysis.hpp"
#include "model/published.hpp"
#include "render/ai_size_chart.hpp"
#include "render/bytes_chart.hpp"
#include "render/cairo_backend.hpp"
#include "render/chart_cairo.hpp"
#include "render/roofline_layout.hpp"
#include "render/tflops_chart.hpp"
#include "rung.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

void expect_clean(const chart& c) {
    EXPECT_GE(c.width, 1600);
    EXPECT_GE(c.height, 1000);
    const rect canvas{0, 0, c.width, c.height};
    for (std::size_t i = 0; i < c.labels.size(); ++i) {
        const auto& a = c.labels[i];
        EXPECT_TRUE(canvas.contains(a.box)) << "off canvas: " << a.text;
        for (std::size_t j = i + 1; j < c.labels.size(); ++j)
            EXPECT_FALSE(a.box.intersects(c.labels[j].box))
                << "'" << a.text << "' overlaps '" << c.labels[j].text << "'";
        for (const auto& g : c.legend)
            EXPECT_FALSE(a.box.intersects(g.box)) << "'" << a.text << "' covers a legend glyph";
    }
    EXPECT_TRUE(render_chart_png(c).starts_with("\x89PNG"));
}

class ChartsPredicted : public ::testing::Test {
  protected:
    static const profile& predicted() {
        static const profile p = predict_profile(
            find_gpu("rtx5070ti"), rung_registry::get().all(),
            {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}, shape{4096, 4096, 4096}},
            "tgemm-roofline --gpu rtx5070ti", "2026-11-22T10:00:00Z");
        return p;
    }
    analysis m_analysis = analyze(predicted());
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
    EXPECT_EQ(c.count_markers(series::published), 7u);
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
    EXPECT_EQ(c.count_bars(series::predicted), bounded);
    EXPECT_EQ(c.count_bars(series::measured), 0u);
    for (const auto& b : c.bars) EXPECT_EQ(b.fill, bar_fill::hollow);
    expect_clean(c);
}

TEST_F(ChartsPredicted, BytesAndAiChartsSayPredicted) {
    const auto bytes = layout_bytes_per_level(m_analysis, m_opts);
    EXPECT_NE(bytes.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(bytes.count_bars(series::measured), 0u);
    EXPECT_GT(bytes.count_bars(series::refined), 0u);
    expect_clean(bytes);
    const auto ai = layout_ai_vs_size(m_analysis, m_opts);
    EXPECT_NE(ai.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(ai.count_markers(series::measured), 0u);
    EXPECT_GT(ai.count_lines(series::predicted), 0u);
    expect_clean(ai);
}

}  // namespace
