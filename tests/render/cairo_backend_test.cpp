#include "render/cairo_backend.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "render/roofline_layout.hpp"
#include "synthetic_profile.hpp"

namespace tgemm::render {
namespace {

std::uint32_t big_endian_u32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes.at(at + i));
    return v;
}

scene synthetic_scene(const profile& p) {
    render_options o;
    o.measure = cairo_text_width();
    return layout_roofline(analyze(p), o);
}

TEST(cairo_backend, png_has_the_signature_and_the_scene_size) {
    const auto p = test::synthetic_profile();
    const auto s = synthetic_scene(p);
    const auto png = render_png(s);
    ASSERT_GT(png.size(), 24u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    // The first chunk is IHDR: length, type, then width and height.
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(big_endian_u32(png, 16), static_cast<std::uint32_t>(s.width));
    EXPECT_EQ(big_endian_u32(png, 20), static_cast<std::uint32_t>(s.height));
    EXPECT_GE(big_endian_u32(png, 16), 1600u);
    EXPECT_GE(big_endian_u32(png, 20), 1000u);
}

TEST(cairo_backend, svg_is_an_svg_of_the_same_size) {
    const auto p = test::synthetic_predicted_profile();
    const auto s = synthetic_scene(p);
    const auto svg = render_svg(s);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_NE(svg.find(fmt::format("width=\"{}px\"", s.width)), std::string::npos);
    EXPECT_NE(svg.find(fmt::format("height=\"{}px\"", s.height)), std::string::npos);
}

TEST(cairo_backend, text_is_measured_with_a_real_font) {
    const auto measure = cairo_text_width();
    const double narrow = measure("iiii", 15, false);
    const double wide = measure("MMMM", 15, false);
    EXPECT_GT(narrow, 0);
    EXPECT_GT(wide, 2 * narrow);  // a proportional font, not a fixed guess per character
    EXPECT_GT(measure("ridge", 15, true), measure("ridge", 15, false));
    EXPECT_NEAR(measure("ridge", 30, false), 2 * measure("ridge", 15, false), 0.5);
}

TEST(cairo_backend, the_layout_estimate_is_never_narrower_than_the_font) {
    // The estimate stands in when no font is at hand: boxes from it must hold the real text.
    const auto measure = cairo_text_width();
    const auto s = synthetic_scene(test::synthetic_profile());
    ASSERT_FALSE(s.labels.empty());  // else the loop below checks nothing
    for (const auto& l : s.labels)
        EXPECT_GE(estimate_text_width(l.text, l.font_px, l.bold) + 0.5,
                  measure(l.text, l.font_px, l.bold))
            << l.text;
}

}  // namespace
}  // namespace tgemm::render
