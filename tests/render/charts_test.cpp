// The three report charts (bytes per level, AI vs size, TFLOP/s vs cuBLAS): exact counts of
// what each draws, from the synthetic profile (counted by hand) and the shipped H100 profile,
// label boxes that stay apart and on the canvas, and PNG/SVG output of the promised size.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "layout_checks.hpp"
#include "render/ai_size_chart.hpp"
#include "render/bytes_chart.hpp"
#include "render/cairo_backend.hpp"
#include "render/chart_cairo.hpp"
#include "render/roofline_layout.hpp"
#include "render/rung_colours.hpp"
#include "render/tflops_chart.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

chart_options exact() {
    chart_options o;
    o.measure = cairo_text_width();
    return o;
}

std::uint32_t big_endian_u32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes.at(at + i));
    return v;
}

std::size_t count_text(const chart& c, std::string_view text) {
    return static_cast<std::size_t>(std::count_if(c.labels.begin(), c.labels.end(),
                                                  [&](const label& l) { return l.text == text; }));
}

bool any_label_contains(const chart& c, std::string_view text) {
    return std::any_of(c.labels.begin(), c.labels.end(),
                       [&](const label& l) { return l.text.find(text) != std::string::npos; });
}

bool any_note_contains(const chart& c, std::string_view text) {
    return std::any_of(c.notes.begin(), c.notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

// Every label on the canvas and clear of every other label and every legend glyph; every bar
// inside its panel; the canvas at least 1600 × 1000.
void expect_clean(const chart& c) {
    test::expect_chart_labels_apart(c);
    for (const auto& l : c.labels) EXPECT_FALSE(l.text.empty());
    const rect canvas{0, 0, c.width, c.height};
    for (const auto& b : c.bars) {
        ASSERT_LT(b.panel, c.panels.size());
        EXPECT_TRUE(c.panels[b.panel].plot.inflated(0.01).contains(b.box)) << b.rung;
        EXPECT_GT(b.box.w, 0) << b.rung;
        EXPECT_GT(b.box.h, 0) << b.rung;
    }
    for (const auto& m : c.markers) EXPECT_TRUE(canvas.contains(m.at)) << m.rung;
    for (const auto& l : c.lines)
        for (const auto& p : l.points) EXPECT_TRUE(canvas.contains(p)) << l.name;
}

void expect_images(const chart& c) {
    const auto png = render_chart_png(c);
    ASSERT_GT(png.size(), 1000u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(big_endian_u32(png, 16), static_cast<std::uint32_t>(std::ceil(c.width)));
    EXPECT_EQ(big_endian_u32(png, 20), static_cast<std::uint32_t>(std::ceil(c.height)));
    EXPECT_GE(big_endian_u32(png, 16), 1600u);
    EXPECT_GE(big_endian_u32(png, 20), 1000u);
    const auto svg = render_chart_svg(c);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_NE(svg.find(fmt::format("width=\"{}px\"", c.width)), std::string::npos);
    EXPECT_GT(svg.size(), 5000u);
}

// ---- rung colours -------------------------------------------------------------------------

TEST(rung_colours, twenty_two_distinct_palette_colours) {
    std::set<std::tuple<double, double, double>> seen;
    for (int i = 0; i < 22; ++i) {
        const auto c = palette_colour(i);
        EXPECT_TRUE(seen.insert({c.r, c.g, c.b}).second) << "colour " << i << " repeats";
    }
    // Wraps after twenty-two.
    EXPECT_EQ(palette_colour(22).r, palette_colour(0).r);
    EXPECT_EQ(palette_colour(22).g, palette_colour(0).g);
}

TEST(rung_colours, ladder_order_and_skipped_rungs_take_none) {
    const auto p = test::synthetic_profile();
    const auto a = analyze(p);
    const auto rungs = coloured_rungs(a);
    // naive_uncoalesced has only a skipped row.
    EXPECT_EQ(rungs, (std::vector<std::string>{"cublas", "naive", "smem_tiling"}));
    EXPECT_EQ(rung_colour(rungs, "smem_tiling"), 2);
    EXPECT_EQ(rung_colour(rungs, "naive_uncoalesced"), 0);
}

// ---- bytes per level ----------------------------------------------------------------------

TEST(bytes_chart, synthetic_counts) {
    const auto p = test::synthetic_profile();
    const auto c = layout_bytes_per_level(analyze(p), exact());
    EXPECT_EQ(c.kind, chart_kind::bytes_per_level);
    ASSERT_EQ(c.panels.size(), 4u);
    EXPECT_EQ(c.panels[0].name, "DRAM");
    EXPECT_EQ(c.panels[1].name, "L2");
    EXPECT_EQ(c.panels[2].name, "L1 global loads");
    EXPECT_EQ(c.panels[3].name, "shared memory");
    // At 4096³. Textbook: DRAM for all three, L1 for naive and smem_tiling (loads per output),
    // shared for smem_tiling. Refined: DRAM for all three, L1 for naive, shared for
    // smem_tiling. Measured: DRAM for all three, L2 and L1 for naive and smem_tiling, shared for
    // smem_tiling.
    EXPECT_EQ(c.count_bars(marker_kind::textbook), 6u);
    EXPECT_EQ(c.count_bars(marker_kind::refined), 5u);
    EXPECT_EQ(c.count_bars(marker_kind::measured), 8u);
    EXPECT_EQ(c.count_bars(), 19u);
    // 3 rungs × 4 levels × 3 series slots; a dash in every empty one.
    EXPECT_EQ(count_text(c, "–"), 3u * 4 * 3 - 19);
    EXPECT_EQ(c.count_lines(), 0u);
    EXPECT_EQ(c.count_markers(), 0u);
    // Rung names under every panel, in the rung's colour.
    EXPECT_EQ(count_text(c, "smem_tiling"), 4u);
    for (const auto& l : c.labels)
        if (l.text == "smem_tiling") {
            EXPECT_TRUE(l.rotated);
            EXPECT_EQ(l.colour_tone, tone::rung);
            EXPECT_EQ(l.colour, 2);
        }
    // Every bar in its panel, at its value: the smem_tiling shared measured bar counts the
    // 2-way conflicts (wavefronts × 128 B).
    const auto& tiled = p.measurements[5];
    for (const auto& b : c.bars) {
        if (b.rung == "smem_tiling" && b.panel == 3 && b.kind == marker_kind::measured) {
            EXPECT_DOUBLE_EQ(b.value, *tiled.counter(keys::smem_load_wavefronts) * 128);
        }
    }
    // The same byte scale in every panel.
    for (const auto& pn : c.panels) {
        EXPECT_EQ(pn.y.min, c.panels[0].y.min);
        EXPECT_EQ(pn.y.max, c.panels[0].y.max);
    }
    EXPECT_TRUE(any_note_contains(c, "no textbook") || any_note_contains(c, "give no count"));
    EXPECT_TRUE(any_note_contains(c, "naive_uncoalesced: skipped"));
    EXPECT_TRUE(c.watermark.empty());
    expect_clean(c);
    expect_images(c);
}

TEST(bytes_chart, predicted_has_no_measured_series) {
    const auto p = test::synthetic_predicted_profile();
    const auto c = layout_bytes_per_level(analyze(p), exact());
    EXPECT_TRUE(c.predicted);
    EXPECT_NE(c.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(c.count_bars(marker_kind::measured), 0u);
    EXPECT_EQ(c.count_bars(), 11u);
    EXPECT_EQ(count_text(c, "–"), 3u * 4 * 2 - 11);
    for (const auto& b : c.bars) EXPECT_TRUE(b.dashed);
    expect_clean(c);
}

// ---- AI vs size ---------------------------------------------------------------------------

TEST(ai_size_chart, synthetic_counts) {
    const auto p = test::synthetic_profile();
    const auto a = analyze(p);
    const auto c = layout_ai_vs_size(a, exact());
    ASSERT_EQ(c.panels.size(), 1u);
    const auto& pn = c.panels[0];
    EXPECT_EQ(pn.x.scale, scale_kind::log);
    EXPECT_EQ(pn.y.scale, scale_kind::log);
    ASSERT_EQ(pn.x.major.size(), 2u);
    EXPECT_EQ(pn.x.major[0].label, "1024");
    EXPECT_EQ(pn.x.major[1].label, "4096");
    // Measured: cublas and smem_tiling at both sizes; naive at 4096³ only (no DRAM counters
    // at 1024³): five markers, two lines (a single point draws no line).
    EXPECT_EQ(c.count_markers(marker_kind::measured), 5u);
    EXPECT_EQ(c.count_lines(marker_kind::measured), 2u);
    EXPECT_EQ(c.count_lines(marker_kind::textbook), 3u);
    EXPECT_EQ(c.count_lines(line_role::reference), 1u);
    EXPECT_EQ(c.count_lines(), 6u);
    for (const auto& l : c.lines)
        EXPECT_EQ(l.dashed, l.role == line_role::reference || l.kind != marker_kind::measured)
            << l.name;
    // The ridge: horizontal at FP32 / DRAM.
    const auto& ridge = *std::find_if(c.lines.begin(), c.lines.end(), [](const chart_line& l) {
        return l.role == line_role::reference;
    });
    EXPECT_EQ(ridge.name, "DRAM ridge");
    ASSERT_EQ(ridge.points.size(), 2u);
    EXPECT_DOUBLE_EQ(ridge.points[0].y, ridge.points[1].y);
    EXPECT_NEAR(ridge.points[0].y, pn.to_px({1024, test::h100_fp32 / test::h100_dram}).y, 1e-9);
    EXPECT_TRUE(any_label_contains(c, "DRAM ridge"));
    // Each measured marker sits at the row's measured AI, in the rung's colour.
    const auto rungs = coloured_rungs(a);
    for (const auto& m : c.markers) {
        const auto* r = a.find(m.rung, shape{4096, 4096, 4096});
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(m.colour, rung_colour(rungs, m.rung));
        EXPECT_TRUE(m.filled);
    }
    // A legend entry per rung.
    for (const auto& k : rungs) EXPECT_EQ(count_text(c, k), 1u) << k;
    EXPECT_TRUE(any_note_contains(c, "naive at N = 1024"));
    expect_clean(c);
    expect_images(c);
}

TEST(ai_size_chart, non_square_sizes_are_left_out_and_named) {
    auto p = test::synthetic_profile();
    auto odd = test::synthetic_row("naive", 2048, 3.0);
    odd.size = {4096, 2048, 1024};
    p.measurements.push_back(odd);
    const auto c = layout_ai_vs_size(analyze(p), exact());
    EXPECT_EQ(c.panels.at(0).x.major.size(), 2u);
    EXPECT_TRUE(any_note_contains(c, "4096×2048×1024"));
    EXPECT_EQ(c.count_markers(marker_kind::measured), 5u);
}

TEST(ai_size_chart, predicted_uses_the_refined_model) {
    const auto p = test::synthetic_predicted_profile();
    const auto c = layout_ai_vs_size(analyze(p), exact());
    EXPECT_NE(c.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(c.count_markers(marker_kind::measured), 0u);
    // cublas's refined model gives no FLOP count, so no refined AI: naive and smem_tiling at
    // both sizes.
    EXPECT_EQ(c.count_markers(marker_kind::refined), 4u);
    EXPECT_EQ(c.count_lines(marker_kind::refined), 2u);
    EXPECT_EQ(c.count_lines(marker_kind::textbook), 3u);
    EXPECT_TRUE(any_label_contains(c, "predicted"));
    expect_clean(c);
}

// ---- TFLOP/s ------------------------------------------------------------------------------

TEST(tflops_chart, synthetic_counts_and_labels) {
    const auto p = test::synthetic_profile();
    const auto a = analyze(p);
    const auto c = layout_tflops(a, exact());
    const shape big{4096, 4096, 4096};
    EXPECT_EQ(c.count_bars(marker_kind::measured), 3u);
    EXPECT_EQ(c.count_bars(), 3u);
    // cuBLAS and the theoretical FP32 roof; no measured roof in this profile.
    EXPECT_EQ(c.count_lines(), 2u);
    EXPECT_EQ(c.count_markers(), 0u);
    // Ladder order, top to bottom, bars at the rows' TFLOP/s.
    ASSERT_EQ(c.bars.size(), 3u);
    EXPECT_EQ(c.bars[0].rung, "cublas");
    EXPECT_EQ(c.bars[1].rung, "naive");
    EXPECT_EQ(c.bars[2].rung, "smem_tiling");
    EXPECT_LT(c.bars[0].box.y, c.bars[1].box.y);
    for (const auto& b : c.bars) EXPECT_DOUBLE_EQ(b.value, *a.find(b.rung, big)->tflops);
    const auto* naive = a.find("naive", big);
    EXPECT_EQ(count_text(c, fmt::format("{:.1f} TFLOP/s · {:.0f} % of cuBLAS", *naive->tflops,
                                        *naive->pct_cublas * 100)),
              1u);
    // The cuBLAS line at cuBLAS's value, the roof dashed at the theoretical peak.
    const auto& pn = c.panels.at(0);
    for (const auto& l : c.lines) {
        ASSERT_EQ(l.points.size(), 2u);
        EXPECT_DOUBLE_EQ(l.points[0].x, l.points[1].x);
        if (l.name == "cuBLAS") {
            EXPECT_FALSE(l.dashed);
            EXPECT_NEAR(l.points[0].x, pn.to_px({*a.find("cublas", big)->tflops, 0}).x, 1e-9);
        } else {
            EXPECT_EQ(l.name, "FP32 theoretical");
            EXPECT_TRUE(l.dashed);
            EXPECT_NEAR(l.points[0].x, pn.to_px({test::h100_fp32 / 1e12, 0}).x, 1e-9);
        }
    }
    EXPECT_TRUE(any_label_contains(c, "cuBLAS "));
    EXPECT_TRUE(any_label_contains(c, "FP32 peak"));
    EXPECT_TRUE(any_note_contains(c, "no measured FP32 peak"));
    expect_clean(c);
    expect_images(c);
}

TEST(tflops_chart, a_measured_roof_adds_a_solid_line) {
    auto p = test::synthetic_profile();
    p.peaks.at(std::string(roofs::fp32)).measured = 0.93 * test::h100_fp32;
    const auto c = layout_tflops(analyze(p), exact());
    EXPECT_EQ(c.count_lines(), 3u);
    const auto it = std::find_if(c.lines.begin(), c.lines.end(),
                                 [](const chart_line& l) { return l.name == "FP32 measured"; });
    ASSERT_NE(it, c.lines.end());
    EXPECT_FALSE(it->dashed);
    EXPECT_TRUE(any_label_contains(c, "FP32 measured"));
    expect_clean(c);
}

TEST(tflops_chart, untimed_rows_get_a_dash_not_a_bar) {
    auto p = test::synthetic_profile();
    p.measurements[4].time.reset();  // naive at 4096³
    const auto c = layout_tflops(analyze(p), exact());
    EXPECT_EQ(c.count_bars(), 2u);
    EXPECT_TRUE(any_label_contains(c, "– not timed"));
    expect_clean(c);
}

TEST(tflops_chart, predicted_bars_are_hollow_and_published_points_drawn) {
    auto p = test::synthetic_predicted_profile();
    // The synthetic rows under the RTX 5070 Ti's key: seed 003 publishes cuBLAS, naive and
    // block tiling (smem_tiling) among its seven.
    p.gpu.key = "rtx5070ti";
    const auto a = analyze(p);
    const auto c = layout_tflops(a, exact());
    EXPECT_NE(c.title_lines.at(0).find(predicted_tag), std::string::npos);
    EXPECT_EQ(c.count_bars(marker_kind::refined), 3u);
    EXPECT_EQ(c.count_bars(marker_kind::measured), 0u);
    for (const auto& b : c.bars) {
        EXPECT_EQ(b.fill, bar_fill::hollow);
        EXPECT_TRUE(b.dashed);
        const auto* r = a.find(b.rung, shape{4096, 4096, 4096});
        // cublas's refined model counts no FLOPs: its bound is taken as useful FLOP/s.
        const double share = r->executed_flops ? r->useful_flops / *r->executed_flops : 1.0;
        EXPECT_DOUBLE_EQ(b.value, *r->bound_attainable * share / 1e12) << b.rung;
    }
    // No cuBLAS timing: only the roof.
    EXPECT_EQ(c.count_lines(), 1u);
    EXPECT_EQ(c.count_markers(marker_kind::published), 3u);
    for (const auto& m : c.markers) {
        EXPECT_EQ(m.glyph, marker_shape::diamond);
        EXPECT_TRUE(m.filled);
    }
    EXPECT_EQ(count_text(c, "31.66"), 1u);
    EXPECT_EQ(count_text(c, "2.05"), 1u);
    EXPECT_EQ(count_text(c, "3.49"), 1u);
    EXPECT_TRUE(any_note_contains(c, "seed 003"));
    // The four published kernels this profile lacks are named, not drawn.
    EXPECT_TRUE(any_note_contains(c, "kernel 05: warp tiling (warptiling)"));
    EXPECT_TRUE(any_label_contains(c, "predicted"));
    expect_clean(c);
    expect_images(c);
}

// ---- the shipped H100 profile: the whole ladder ---------------------------------------------

class charts_shipped : public ::testing::Test {
  protected:
    static const profile& shipped() { return test::shipped_h100(); }
    analysis m_analysis = analyze(shipped());
};

TEST_F(charts_shipped, tflops_has_a_bar_per_rung_in_roofline_colours) {
    const auto c = layout_tflops(m_analysis, exact());
    const auto rungs = coloured_rungs(m_analysis);
    // The thirteen FP32 rungs, cuBLAS BF16 and FP16, and the five BF16 tensor rungs.
    ASSERT_EQ(rungs.size(), 20u);
    EXPECT_EQ(c.count_bars(marker_kind::measured), 20u);
    ASSERT_TRUE(m_analysis.source->peaks.at("fp32").measured);
    // cuBLAS FP32, BF16 and FP16; the theoretical and the measured FP32 roof; the BF16/FP16
    // tensor roof (one theoretical line, the same hardware rate) and its two measured lines.
    EXPECT_EQ(c.count_lines(), 3u + 2 + 3);
    EXPECT_EQ(c.count_markers(), 0u);
    // The roofline gives each rung the same colour.
    render_options ro;
    ro.measure = cairo_text_width();
    const auto roof = layout_roofline(m_analysis, ro);
    for (const auto& b : c.bars) {
        const auto it = std::find_if(roof.markers.begin(), roof.markers.end(),
                                     [&](const marker& m) { return m.rung == b.rung; });
        ASSERT_NE(it, roof.markers.end()) << b.rung;
        EXPECT_EQ(it->colour, b.colour) << b.rung;
    }
    // Twenty distinct colours.
    std::set<int> colours;
    for (const auto& b : c.bars) colours.insert(b.colour);
    EXPECT_EQ(colours.size(), 20u);
    expect_clean(c);
    expect_images(c);
}

TEST_F(charts_shipped, bytes_per_level_counts) {
    const auto c = layout_bytes_per_level(m_analysis, exact());
    // 20 rungs × 4 levels × 3 series = 240 slots, each a bar or a dash.
    EXPECT_EQ(c.count_bars() + count_text(c, "–"), 240u);
    // Measured: DRAM and L2 for all 20 rungs; L1 for all but cuBLAS BF16 and FP16 (their
    // operands and C move by TMA, no LSU global load); shared for the nine FP32 rungs that use
    // it (cuBLAS and the eight shared-memory rungs) and all seven 16-bit rows. Textbook: DRAM
    // for all, L1 for the twelve FP32 rungs with a loads-per-output count (not cuBLAS), shared
    // for the eight FP32 shared-memory rungs and the five tensor rungs, never L2.
    EXPECT_EQ(c.count_bars(marker_kind::measured), 20u * 2 + 18 + 9 + 7);
    EXPECT_EQ(c.count_bars(marker_kind::textbook), 20u + 12 + 8 + 5);
    for (const auto& b : c.bars) EXPECT_FALSE(b.dashed);
    expect_clean(c);
    expect_images(c);
}

TEST_F(charts_shipped, ai_vs_size_counts) {
    const auto c = layout_ai_vs_size(m_analysis, exact());
    // Four square sizes (8192³ for the tensor ladder only); the non-square shapes left out.
    EXPECT_EQ(c.panels.at(0).x.major.size(), 4u);
    EXPECT_TRUE(any_note_contains(c, "4096×2048×1024"));
    // 20 rungs at 1024³, 2048³ and 4096³, the seven 16-bit rows at 8192³.
    EXPECT_EQ(c.count_markers(marker_kind::measured), 20u * 3 + 7);
    EXPECT_EQ(c.count_lines(marker_kind::measured), 20u);
    EXPECT_EQ(c.count_lines(marker_kind::textbook), 20u);
    EXPECT_EQ(c.count_lines(line_role::reference), 1u);
    expect_clean(c);
    expect_images(c);
}

}  // namespace
}  // namespace tgemm::render
