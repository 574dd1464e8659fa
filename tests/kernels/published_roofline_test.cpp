// Published throughputs (analysis/published.hpp) on both roofline plots of a PREDICTED profile:
// seed 003's seven RTX 5070 Ti points at 4096³, as filled diamonds at the refined model's DRAM
// AI and the published rate on the executed-FLOP/s axis. Never on a measured profile, never for
// a GPU without published points. Lives with the ladder tests because predict_profile needs the
// registered rungs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "../render/layout_checks.hpp"
#include "analysis/analysis.hpp"
#include "analysis/published.hpp"
#include "predicted_profiles.hpp"
#include "render/cairo_backend.hpp"
#include "render/hierarchical_layout.hpp"
#include "render/roofline_common.hpp"
#include "render/roofline_layout.hpp"

using namespace tgemm;
using namespace tgemm::render;

namespace {

const shape n4096{4096, 4096, 4096};
constexpr std::string_view legend_text = "published measurement (source below)";

render_options cairo_options() {
    render_options o;
    o.measure = cairo_text_width();
    return o;
}

std::size_t notes_containing(const scene& s, std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(s.notes.begin(), s.notes.end(),
                      [&](const std::string& n) { return n.find(text) != std::string::npos; }));
}

std::size_t labels_equal(const scene& s, std::string_view text) {
    return static_cast<std::size_t>(std::count_if(s.labels.begin(), s.labels.end(),
                                                  [&](const label& l) { return l.text == text; }));
}

// Every label on the canvas, clear of every other label and every legend or table glyph; the
// labels inside the plot stay inside it and clear of the markers.
void expect_clean(const scene& s) {
    test::expect_no_overlaps(s);
    for (const auto& a : s.labels) {
        if (a.role != text_role::point && a.role != text_role::roof) continue;
        EXPECT_TRUE(plot_label_bounds(s).contains(a.box)) << "outside the plot: " << a.text;
    }
    test::expect_labels_clear_of_markers(s);
}

// The published markers of `s`, checked one by one against the analysis: exactly one per
// published point at `size_filter` (all sizes when empty), each where the brief puts it,
// labelled once with its value.
void expect_published(const scene& s, const analysis& a, const std::vector<published_point>& pts,
                      std::optional<shape> only) {
    std::size_t expected = 0;
    for (const auto& pp : pts) {
        if (only && !(pp.size == *only)) continue;
        ++expected;
        const auto* r = a.find(pp.kernel, pp.size);
        ASSERT_NE(r, nullptr) << pp.kernel;
        const auto it = std::find_if(s.markers.begin(), s.markers.end(), [&](const marker& m) {
            return m.kind == marker_kind::published && m.rung == pp.kernel && m.size == pp.size;
        });
        ASSERT_NE(it, s.markers.end()) << pp.kernel;
        const double ai = r->ai_refined ? *r->ai_refined : r->ai_textbook;
        EXPECT_DOUBLE_EQ(it->at.x, ai) << pp.kernel;
        const double executed = r->executed_flops.value_or(r->useful_flops);
        EXPECT_DOUBLE_EQ(it->at.y, pp.tflops * 1e12 * executed / r->useful_flops) << pp.kernel;
        EXPECT_DOUBLE_EQ(it->value, pp.tflops);
        EXPECT_EQ(it->glyph, marker_shape::diamond);
        EXPECT_TRUE(it->filled);
        EXPECT_FALSE(it->dashed);
        // The rung's colour: the same as its model markers.
        for (const auto& m : s.markers)
            if (m.rung == it->rung) {
                EXPECT_EQ(m.colour, it->colour) << pp.kernel;
            }
        // Inside the axes.
        EXPECT_TRUE(s.plot.contains(s.to_px(it->at))) << pp.kernel;
        EXPECT_EQ(labels_equal(s, fmt::format("{:g} published", pp.tflops)), 1u) << pp.kernel;
    }
    EXPECT_EQ(s.count(marker_kind::published), expected);
}

void expect_no_published(const scene& s) {
    EXPECT_EQ(s.count(marker_kind::published), 0u);
    EXPECT_EQ(notes_containing(s, "seed 003"), 0u);
    EXPECT_EQ(notes_containing(s, "Published"), 0u);
    EXPECT_EQ(labels_equal(s, legend_text), 0u);
    for (const auto& l : s.labels) EXPECT_EQ(l.text.find(" published"), std::string::npos);
}

class PublishedRoofline : public ::testing::Test {
  protected:
    analysis m_analysis = analyze(test::rtx5070ti_predicted());
    std::vector<published_point> m_points = published_points("rtx5070ti");
};

TEST_F(PublishedRoofline, SevenDiamondsOnTheDramRoofline) {
    ASSERT_EQ(m_points.size(), 7u);
    for (const auto& opts : {render_options{}, cairo_options()}) {
        const auto s = layout_roofline(m_analysis, opts);
        EXPECT_EQ(s.count(marker_kind::published), 7u);
        expect_published(s, m_analysis, m_points, std::nullopt);
        EXPECT_EQ(notes_containing(s, "seed 003"), 1u);
        EXPECT_EQ(labels_equal(s, legend_text), 1u);
        EXPECT_EQ(std::count_if(s.swatches.begin(), s.swatches.end(),
                                [](const swatch& sw) {
                                    return sw.outlined && sw.glyph == marker_shape::diamond;
                                }),
                  1);
        expect_clean(s);
        EXPECT_TRUE(render_png(s).starts_with("\x89PNG"));
    }
}

TEST_F(PublishedRoofline, SevenDiamondsOnTheHierarchicalRoofline) {
    ASSERT_EQ(m_analysis.focus_size(), n4096);
    for (const auto& opts : {render_options{}, cairo_options()}) {
        const auto s = layout_hierarchical_roofline(m_analysis, opts);
        EXPECT_EQ(s.count(marker_kind::published), 7u);
        expect_published(s, m_analysis, m_points, n4096);
        EXPECT_EQ(notes_containing(s, "seed 003"), 1u);
        EXPECT_EQ(labels_equal(s, legend_text), 1u);
        expect_clean(s);
        EXPECT_TRUE(render_png(s).starts_with("\x89PNG"));
    }
}

// The hierarchical roofline shows its focus size only: with no 4096³ row, none of seed 003's
// points is drawn there, and the notes say why.
TEST(PublishedRooflineFocus, OnlyPointsAtTheFocusSize) {
    const auto p = test::predicted("rtx5070ti", {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}});
    const auto a = analyze(p);
    ASSERT_EQ(a.focus_size(), (shape{2048, 2048, 2048}));
    const auto h = layout_hierarchical_roofline(a);
    EXPECT_EQ(h.count(marker_kind::published), 0u);
    EXPECT_EQ(notes_containing(h, "seed 003"), 1u);
    EXPECT_EQ(notes_containing(h, "is at 4096³, not 2048³"), 7u);
    EXPECT_EQ(labels_equal(h, legend_text), 0u);
    const auto s = layout_roofline(a);
    EXPECT_EQ(s.count(marker_kind::published), 0u);
    EXPECT_EQ(notes_containing(s, "no such row in this profile"), 7u);
    expect_clean(h);
    expect_clean(s);
}

TEST(PublishedRooflineNone, PredictedA100HasNone) {
    ASSERT_TRUE(published_points("a100").empty());
    const auto p =
        test::predicted("a100", {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}, n4096});
    const auto a = analyze(p);
    expect_no_published(layout_roofline(a));
    expect_no_published(layout_hierarchical_roofline(a));
}

// The same rows, marked measured: published points are never mixed with a measurement.
TEST(PublishedRooflineNone, MeasuredProfileHasNone) {
    auto p = test::rtx5070ti_predicted();
    p.source = profile_source::measured;
    const auto a = analyze(p);
    const auto s = layout_roofline(a);
    expect_no_published(s);
    const auto h = layout_hierarchical_roofline(a);
    expect_no_published(h);
    EXPECT_TRUE(render_png(s).starts_with("\x89PNG"));
}

}  // namespace
