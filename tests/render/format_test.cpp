#include "render/format.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "render/geometry.hpp"
#include "render/text_metrics.hpp"
#include "render/ticks.hpp"

namespace tgemm::render {
namespace {

TEST(format, si_bytes_and_rates) {
    EXPECT_EQ(format_si(8.59e9, "B"), "8.59 GB");
    EXPECT_EQ(format_si(343.7e9, "B"), "343.7 GB");
    EXPECT_EQ(format_si(41.94e9, "B"), "41.9 GB");
    EXPECT_EQ(format_si(3.35232e12, "B/s"), "3.35 TB/s");
    EXPECT_EQ(format_si(66.908e12, "FLOP/s"), "66.9 TFLOP/s");
    EXPECT_EQ(format_si(512, "B"), "512 B");
    EXPECT_EQ(format_si(999.96e6, "B"), "1.00 GB");  // never "1000.0 MB"
    EXPECT_EQ(format_si(std::optional<double>{}, "B"), "—");
}

TEST(format, counts) {
    EXPECT_EQ(format_count(4.294967296e9, "wavefronts"), "4.29 G wavefronts");
    EXPECT_EQ(format_count(137.4e9, ""), "137.4 G");
    EXPECT_EQ(format_count(0, "conflicts"), "0 conflicts");
}

TEST(format, intensity_rate_percent_ratio_time) {
    EXPECT_EQ(format_ai(0.25), "0.25 FLOP/B");
    EXPECT_EQ(format_ai(7.94), "7.94 FLOP/B");
    EXPECT_EQ(format_ai(9.75), "9.75 FLOP/B");
    EXPECT_EQ(format_ai(18.33), "18.3 FLOP/B");
    EXPECT_EQ(format_ai(512.1), "512 FLOP/B");
    EXPECT_EQ(format_tflops_value(51.7e12), "51.7");
    EXPECT_EQ(format_tflops_value(6.3e12), "6.30");
    EXPECT_EQ(format_tflops_value(0.5e12), "0.500");
    EXPECT_EQ(format_percent(0.853), "85.3 %");
    EXPECT_EQ(format_percent(0.0042), "0.42 %");
    EXPECT_EQ(format_ratio(1.0 / 41), "1/41");
    EXPECT_EQ(format_ratio(0.625), "0.625×");
    EXPECT_EQ(format_ratio(41.2), "41.2×");
    EXPECT_EQ(format_ms(0.0813), "0.081");
    EXPECT_EQ(format_ms(21.84), "21.84");
    EXPECT_EQ(format_ms(343.2), "343.2");
}

TEST(ticks, decade_labels) {
    EXPECT_EQ(decade_label(-3), "0.001");
    EXPECT_EQ(decade_label(-1), "0.1");
    EXPECT_EQ(decade_label(0), "1");
    EXPECT_EQ(decade_label(3), "1000");
    EXPECT_EQ(decade_label(5), "1e5");
    EXPECT_EQ(decade_label(-4), "1e-4");
}

TEST(ticks, log_axis_snaps_to_decades) {
    const auto a = make_log_axis("y", 2.3e11, 9.4e13, 12);
    EXPECT_DOUBLE_EQ(a.min, 1e11);
    EXPECT_DOUBLE_EQ(a.max, 1e14);
    ASSERT_EQ(a.major.size(), 4u);
    EXPECT_EQ(a.major.front().label, "0.1");
    EXPECT_EQ(a.major.back().label, "100");
    EXPECT_EQ(a.minor.size(), 24u);
    EXPECT_DOUBLE_EQ(a.fraction(1e12), 1.0 / 3);
    // A range inside one decade still spans a whole decade.
    const auto b = make_log_axis("x", 2, 3, 0);
    EXPECT_DOUBLE_EQ(b.min, 1);
    EXPECT_DOUBLE_EQ(b.max, 10);
}

TEST(ticks, linear_axis_steps_round_up) {
    // 66.9 / 8 = 8.4 per step: the next round step is 10, up to 70.
    const auto a = make_linear_axis("TFLOP/s", 66.9);
    EXPECT_EQ(a.scale, scale_kind::linear);
    EXPECT_DOUBLE_EQ(a.min, 0);
    EXPECT_DOUBLE_EQ(a.max, 70);
    ASSERT_EQ(a.major.size(), 8u);
    EXPECT_EQ(a.major[1].label, "10");
    EXPECT_EQ(a.major.back().label, "70");
    EXPECT_TRUE(a.minor.empty());
    // 21 / 8 = 2.6: steps of 5; 2.5 / 8 = 0.31: steps of 0.5 (2.5 itself a multiple).
    EXPECT_DOUBLE_EQ(make_linear_axis("x", 21).max, 25);
    const auto b = make_linear_axis("x", 2.5);
    EXPECT_DOUBLE_EQ(b.max, 2.5);
    ASSERT_EQ(b.major.size(), 6u);
    EXPECT_EQ(b.major[3].label, "1.5");
}

TEST(ticks, value_axis_ticks_each_value) {
    const auto a = make_value_axis("N", {1024, 2048, 4096});
    EXPECT_EQ(a.scale, scale_kind::log);
    EXPECT_DOUBLE_EQ(a.min, 1024 / 1.25);
    EXPECT_DOUBLE_EQ(a.max, 4096 * 1.25);
    ASSERT_EQ(a.major.size(), 3u);
    EXPECT_EQ(a.major[1].label, "2048");
    EXPECT_DOUBLE_EQ(a.major[1].value, 2048);
    EXPECT_DOUBLE_EQ(a.fraction(2048), 0.5);
    // One value: a factor of two either side, so it sits in the middle.
    const auto b = make_value_axis("N", {1024});
    EXPECT_DOUBLE_EQ(b.min, 512);
    EXPECT_DOUBLE_EQ(b.max, 2048);
    EXPECT_THROW((void)make_value_axis("N", {}), error);
}

TEST(geometry, boxes_and_segments) {
    const rect r{10, 10, 20, 10};
    EXPECT_TRUE(r.intersects({25, 15, 10, 10}));
    EXPECT_FALSE(r.intersects({30, 10, 5, 5}));  // touching edges do not overlap
    EXPECT_TRUE(segment_hits_rect({0, 0}, {40, 30}, r));
    EXPECT_FALSE(segment_hits_rect({0, 30}, {5, 0}, r));
    EXPECT_TRUE(segment_hits_rect({15, 15}, {16, 16}, r));  // wholly inside
    EXPECT_FALSE(segment_hits_rect({0, 0}, {100, 0}, r));
}

TEST(text_metrics, estimate_grows_with_text_size_and_weight) {
    EXPECT_GT(estimate_text_width("MMM", 15, false), estimate_text_width("iii", 15, false));
    EXPECT_GT(estimate_text_width("abc", 15, true), estimate_text_width("abc", 15, false));
    EXPECT_NEAR(estimate_text_width("4096³", 30, false),
                2 * estimate_text_width("4096³", 15, false), 1e-9);
}

}  // namespace
}  // namespace tgemm::render
