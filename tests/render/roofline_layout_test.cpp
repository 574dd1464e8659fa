#include "render/roofline_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/error.hpp"
#include "layout_checks.hpp"
#include "render/cairo_backend.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

std::size_t rows_with_measured_ai(const analysis& a) {
    return static_cast<std::size_t>(std::count_if(a.rows.begin(), a.rows.end(), [](const auto& r) {
        return r.ai_measured.has_value() && r.achieved_flops_per_s.has_value();
    }));
}

std::size_t count_roofs(const scene& s, roof_source src) {
    return static_cast<std::size_t>(std::count_if(
        s.roofs.begin(), s.roofs.end(), [src](const roof_line& r) { return r.source == src; }));
}

const label* find_label(const scene& s, text_role role) {
    for (const auto& l : s.labels)
        if (l.role == role) return &l;
    return nullptr;
}

bool any_label_contains(const scene& s, std::string_view text) {
    return std::any_of(s.labels.begin(), s.labels.end(),
                       [&](const label& l) { return l.text.find(text) != std::string::npos; });
}

using test::expect_no_overlaps;

class roofline_layout : public ::testing::Test {
  protected:
    profile m_profile = test::synthetic_profile();
    analysis m_analysis = analyze(m_profile);
};

TEST_F(roofline_layout, canvas_is_at_least_1600_by_1000) {
    const auto s = layout_roofline(m_analysis);
    EXPECT_GE(s.width, 1600);
    EXPECT_GE(s.height, 1000);
    EXPECT_GT(s.plot.w, 800);
    EXPECT_GT(s.plot.h, 500);
    EXPECT_LE(s.plot.right(), s.width);
    EXPECT_LE(s.plot.bottom(), s.height);
}

TEST_F(roofline_layout, two_theoretical_roofs_dashed_without_measured_roofs) {
    const auto s = layout_roofline(m_analysis);
    ASSERT_EQ(s.roofs.size(), 2u);
    EXPECT_EQ(count_roofs(s, roof_source::theoretical), 2u);
    for (const auto& r : s.roofs) EXPECT_TRUE(r.dashed);
    const auto compute = std::find_if(s.roofs.begin(), s.roofs.end(),
                                      [](const auto& r) { return r.kind == roof_kind::compute; });
    ASSERT_NE(compute, s.roofs.end());
    EXPECT_DOUBLE_EQ(compute->from.y, test::h100_fp32);
    EXPECT_DOUBLE_EQ(compute->to.x, s.x.max);
    const auto memory = std::find_if(s.roofs.begin(), s.roofs.end(),
                                     [](const auto& r) { return r.kind == roof_kind::memory; });
    ASSERT_NE(memory, s.roofs.end());
    // The memory roof climbs at the DRAM bandwidth and meets the compute roof at the ridge.
    EXPECT_NEAR(memory->from.y / memory->from.x, test::h100_dram, 1);
    EXPECT_NEAR(memory->to.x, test::h100_fp32 / test::h100_dram, 1e-9);
}

TEST_F(roofline_layout, each_measured_roof_adds_one_solid_line) {
    m_profile.peaks.at("dram").measured = 3.03e12;
    auto s = layout_roofline(analyze(m_profile));
    EXPECT_EQ(s.roofs.size(), 3u);
    EXPECT_EQ(count_roofs(s, roof_source::measured), 1u);
    m_profile.peaks.at("fp32").measured = 60e12;
    s = layout_roofline(analyze(m_profile));
    EXPECT_EQ(s.roofs.size(), 4u);
    EXPECT_EQ(count_roofs(s, roof_source::measured), 2u);
    for (const auto& r : s.roofs) EXPECT_EQ(r.dashed, r.source == roof_source::theoretical);
    EXPECT_TRUE(any_label_contains(s, "DRAM measured 3.03 TB/s"));
    EXPECT_TRUE(any_label_contains(s, "FP32 measured 60.0 TFLOP/s"));
    expect_no_overlaps(s);
}

TEST_F(roofline_layout, one_filled_marker_per_measured_row_and_one_hollow_per_row) {
    const auto s = layout_roofline(m_analysis);
    ASSERT_EQ(m_analysis.rows.size(), 6u);
    ASSERT_EQ(rows_with_measured_ai(m_analysis), 5u);  // naive 1024³ has no DRAM counters
    EXPECT_EQ(s.count(marker_kind::measured), 5u);
    EXPECT_EQ(s.count(marker_kind::textbook), 6u);
    EXPECT_EQ(s.count(marker_kind::refined), 0u);
    EXPECT_EQ(s.arrows.size(), 5u);
    for (const auto& m : s.markers) EXPECT_EQ(m.filled, m.kind == marker_kind::measured);
}

TEST_F(roofline_layout, markers_sit_where_the_analysis_puts_them) {
    const auto s = layout_roofline(m_analysis);
    const auto* naive = m_analysis.find("naive", {4096, 4096, 4096});
    ASSERT_NE(naive, nullptr);
    int seen = 0;
    for (const auto& m : s.markers) {
        if (m.rung != "naive" || !(m.size == shape{4096, 4096, 4096})) continue;
        ++seen;
        if (m.kind == marker_kind::measured) {
            EXPECT_DOUBLE_EQ(m.at.x, *naive->ai_measured);
            EXPECT_DOUBLE_EQ(m.at.y, *naive->achieved_flops_per_s);
        } else {
            EXPECT_DOUBLE_EQ(m.at.x, 0.25);  // (2MNK + 2MN) FLOP / ((2MNK + 2MN)·4 B)
            EXPECT_DOUBLE_EQ(m.at.y, 0.25 * test::h100_dram);
        }
    }
    EXPECT_EQ(seen, 2);
}

TEST_F(roofline_layout, colour_follows_the_rung_and_shape_the_size) {
    const auto s = layout_roofline(m_analysis);
    ASSERT_GE(s.markers.size(), 2u);  // else the loops below compare nothing
    for (const auto& a : s.markers)
        for (const auto& b : s.markers) {
            EXPECT_EQ(a.rung == b.rung, a.colour == b.colour) << a.rung << " vs " << b.rung;
            EXPECT_EQ(a.size == b.size, a.glyph == b.glyph);
        }
}

TEST_F(roofline_layout, rows_without_a_measured_ai_are_explained_in_a_note) {
    const auto s = layout_roofline(m_analysis);
    const auto has = [&](std::string_view text) {
        return std::any_of(s.notes.begin(), s.notes.end(),
                           [&](const auto& n) { return n.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("naive 1024³: no measured point (DRAM counters not measured)"));
    EXPECT_TRUE(has("naive_uncoalesced 4096³: skipped"));
    EXPECT_TRUE(any_label_contains(s, "naive 1024³: no measured point"));
}

TEST_F(roofline_layout, decade_ticks_cover_the_data) {
    const auto s = layout_roofline(m_analysis);
    // AI from 0.25 (naive, textbook) to 512 (cuBLAS, compulsory traffic at 4096³).
    ASSERT_EQ(s.x.major.size(), 5u);
    const std::vector<std::string> x_labels = {"0.1", "1", "10", "100", "1000"};
    for (std::size_t i = 0; i < x_labels.size(); ++i) {
        EXPECT_DOUBLE_EQ(s.x.major[i].value, std::pow(10.0, double(i) - 1));
        EXPECT_EQ(s.x.major[i].label, x_labels[i]);
        // Decades are evenly spaced across the plot.
        EXPECT_NEAR(s.to_px({s.x.major[i].value, 1}).x, s.plot.x + s.plot.w * double(i) / 4, 1e-6);
    }
    // FLOP/s from 0.1 to 100 TFLOP/s, labelled in TFLOP/s.
    ASSERT_EQ(s.y.major.size(), 4u);
    const std::vector<std::string> y_labels = {"0.1", "1", "10", "100"};
    for (std::size_t i = 0; i < y_labels.size(); ++i) {
        EXPECT_DOUBLE_EQ(s.y.major[i].value, std::pow(10.0, double(i) + 11));
        EXPECT_EQ(s.y.major[i].label, y_labels[i]);
        EXPECT_NEAR(s.to_px({1, s.y.major[i].value}).y, s.plot.bottom() - s.plot.h * double(i) / 3,
                    1e-6);
    }
    EXPECT_EQ(s.x.minor.size(), 4u * 8u);
    EXPECT_TRUE(any_label_contains(s, "1000"));
}

TEST_F(roofline_layout, ridge_is_annotated) {
    const auto s = layout_roofline(m_analysis);
    ASSERT_EQ(s.ridges.size(), 1u);
    EXPECT_NEAR(s.ridges[0].ai, 19.959, 1e-3);
    EXPECT_EQ(s.ridges[0].text, "ridge 20.0 FLOP/B");
    const auto* l = find_label(s, text_role::ridge);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->text, "ridge 20.0 FLOP/B");
}

TEST_F(roofline_layout, title_names_gpu_clocks_cuda_and_date) {
    const auto s = layout_roofline(m_analysis);
    ASSERT_GE(s.title_lines.size(), 2u);
    EXPECT_NE(s.title_lines[0].find("NVIDIA H100 80GB HBM3"), std::string::npos);
    EXPECT_EQ(s.title_lines[0].find("PREDICTED"), std::string::npos);
    EXPECT_EQ(s.title_lines[1],
              "SM clock 1980 MHz · memory clock 2619 MHz · CUDA 13.0 · driver 580.95.05 · "
              "2026-11-22T10:00:00Z");
    EXPECT_TRUE(s.watermark.empty());
}

TEST_F(roofline_layout, no_two_labels_overlap_with_estimated_widths) {
    expect_no_overlaps(layout_roofline(m_analysis));
}

TEST_F(roofline_layout, no_two_labels_overlap_with_cairo_widths) {
    render_options o;
    o.measure = cairo_text_width();
    const auto s = layout_roofline(m_analysis, o);
    expect_no_overlaps(s);
    // Every rung is named in the plot.
    for (const auto* name : {"cublas", "naive", "smem_tiling"}) {
        const bool named = std::any_of(s.labels.begin(), s.labels.end(), [&](const label& l) {
            return l.role == text_role::point && l.text == name;
        });
        EXPECT_TRUE(named) << name;
    }
}

TEST_F(roofline_layout, overlaps_stay_away_with_a_crowded_table) {
    // Thirty rows: the canvas grows instead of overlapping.
    for (int i = 0; i < 8; ++i) {
        auto extra = test::synthetic_row("naive", 4096, 21.8 + i);
        extra.kernel = "variant_" + std::to_string(i);
        m_profile.measurements.push_back(extra);
        extra.size = {1024, 1024, 1024};
        m_profile.measurements.push_back(extra);
    }
    const auto s = layout_roofline(analyze(m_profile));
    EXPECT_EQ(s.table.size(), 22u);
    expect_no_overlaps(s);
}

TEST_F(roofline_layout, predicted_profile_is_labelled_and_has_no_filled_marker) {
    m_profile = test::synthetic_predicted_profile();
    m_analysis = analyze(m_profile);
    const auto s = layout_roofline(m_analysis);
    EXPECT_TRUE(s.predicted);
    EXPECT_NE(s.title_lines[0].find("PREDICTED (no measurement)"), std::string::npos);
    EXPECT_EQ(s.count(marker_kind::measured), 0u);
    for (const auto& m : s.markers) {
        EXPECT_FALSE(m.filled);
        EXPECT_EQ(m.dashed, m.kind == marker_kind::refined);
    }
    // Refined points for the two modelled rungs at both sizes; cuBLAS has no refined FLOPs.
    EXPECT_EQ(s.count(marker_kind::refined), 4u);
    EXPECT_EQ(s.count(marker_kind::textbook), 6u);
    for (const auto& a : s.arrows) EXPECT_TRUE(a.dashed);
    for (const auto& e : s.table) EXPECT_FALSE(e.has_measured_point);
    EXPECT_EQ(s.watermark, "PREDICTED");
    // The legend and the table say it too, not only the title.
    const auto count = std::count_if(s.labels.begin(), s.labels.end(), [](const label& l) {
        return l.text.find("PREDICTED") != std::string::npos;
    });
    EXPECT_GE(count, 3);
    expect_no_overlaps(s);
}

TEST(roofline_layout_errors, a_profile_without_peaks_is_refused) {
    auto p = test::synthetic_profile();
    p.peaks.at("dram").theoretical = 0;
    const auto a = analyze(p);
    EXPECT_THROW((void)layout_roofline(a), tgemm::error);
}

// The whole ladder: 13 rungs × 4 sizes, AI and rate spread the way a real run spreads them.
profile ladder_profile() {
    auto p = test::synthetic_profile();
    p.measurements.clear();
    const std::array<const char*, 13> rungs = {
        "cublas",        "naive_uncoalesced", "naive",          "smem_tiling",    "thread_tiling",
        "outer_product", "smem_register",     "blocktiling_1d", "blocktiling_2d", "vectorized",
        "warptiling",    "warptiling_sub",    "sm90_fp32"};
    for (std::size_t i = 0; i < rungs.size(); ++i)
        for (const std::int64_t n : {512, 1024, 2048, 4096}) {
            const double cube = double(n) * n * n / (4096.0 * 4096 * 4096);
            // From 0.5 to 50 TFLOP/s along the ladder, a little slower at small sizes.
            const double tflops = 0.5 * std::pow(100.0, double(i) / 12) * (n >= 2048 ? 1 : 0.6);
            auto m =
                test::synthetic_row(rungs[i], n, 2 * 4096.0 * 4096 * 4096 * cube / tflops / 1e9);
            m.counters["dram_read_bytes"] *= 0.3 + 0.15 * double(i);
            p.measurements.push_back(m);
        }
    return p;
}

TEST(roofline_layout_ladder, thirteen_rungs_by_four_sizes_do_not_overlap) {
    const auto p = ladder_profile();
    const auto a = analyze(p);
    for (const bool cairo : {false, true}) {
        render_options o;
        if (cairo) o.measure = cairo_text_width();
        const auto s = layout_roofline(a, o);
        EXPECT_EQ(s.table.size(), 52u);
        expect_no_overlaps(s);
        // Every size has its markers; a rung's name sits beside its largest size's marker.
        std::size_t named = 0;
        for (const auto& l : s.labels) {
            if (l.role != text_role::point) continue;
            ++named;
            double nearest = 1e300, nearest_largest = 1e300;
            for (const auto& m : s.markers) {
                if (m.rung != l.text) continue;
                const auto at = s.to_px(m.at);
                const double dx = std::max({l.box.x - at.x, 0.0, at.x - l.box.right()});
                const double dy = std::max({l.box.y - at.y, 0.0, at.y - l.box.bottom()});
                const double d = std::hypot(dx, dy);
                nearest = std::min(nearest, d);
                if (m.size == shape{4096, 4096, 4096})
                    nearest_largest = std::min(nearest_largest, d);
            }
            EXPECT_LE(nearest_largest, nearest + 1e-6) << l.text << " sits nearer a smaller size";
            EXPECT_LT(nearest_largest, 100) << l.text;
        }
        EXPECT_GE(named, 10u);
    }
}

}  // namespace
}  // namespace tgemm::render
