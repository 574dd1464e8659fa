#pragma once
// Checks the layout tests share, for the roofline scenes and the report charts alike: labels on
// the canvas and apart from each other and from the glyphs, plot labels clear of the markers,
// and the shipped H100 profile they are run on. GoogleTest assertions, so a failure names the
// label at fault.
#include <gtest/gtest.h>

#include <string>

#include "profile/profile_file.hpp"
#include "render/chart.hpp"
#include "render/scene.hpp"

namespace tgemm::test {

// profiles/h100.json as shipped: the whole ladder, measured. Read once per test binary.
inline const profile& shipped_h100() {
    static const profile p = read_profile(std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json");
    return p;
}

// Every label on the canvas, clear of every other label and every legend or table glyph.
inline void expect_no_overlaps(const render::scene& s) {
    for (std::size_t i = 0; i < s.labels.size(); ++i) {
        const auto& a = s.labels[i];
        EXPECT_TRUE((render::rect{0, 0, s.width, s.height}.contains(a.box)))
            << "off canvas: " << a.text;
        for (std::size_t j = i + 1; j < s.labels.size(); ++j)
            EXPECT_FALSE(a.box.intersects(s.labels[j].box))
                << "'" << a.text << "' overlaps '" << s.labels[j].text << "'";
        for (const auto& sw : s.swatches)
            EXPECT_FALSE(a.box.intersects(sw.bounds())) << "'" << a.text << "' covers a glyph";
    }
}

// Labels inside the plot (roof and point labels) keep off the markers.
inline void expect_labels_clear_of_markers(const render::scene& s) {
    for (const auto& l : s.labels) {
        if (l.role != render::text_role::roof && l.role != render::text_role::point) continue;
        for (const auto& m : s.markers)
            EXPECT_FALSE(l.box.intersects(render::box_around(s.to_px(m.at), m.radius_px)))
                << "'" << l.text << "' covers a marker of " << m.rung;
    }
}

// A chart at least 1600 × 1000, every label on its canvas and clear of every other label and
// every legend glyph.
inline void expect_chart_labels_apart(const render::chart& c) {
    EXPECT_GE(c.width, 1600);
    EXPECT_GE(c.height, 1000);
    const render::rect canvas{0, 0, c.width, c.height};
    for (std::size_t i = 0; i < c.labels.size(); ++i) {
        const auto& a = c.labels[i];
        EXPECT_TRUE(canvas.contains(a.box)) << "off canvas: " << a.text;
        for (std::size_t j = i + 1; j < c.labels.size(); ++j)
            EXPECT_FALSE(a.box.intersects(c.labels[j].box))
                << "'" << a.text << "' overlaps '" << c.labels[j].text << "'";
        for (const auto& g : c.legend)
            EXPECT_FALSE(a.box.intersects(g.box)) << "'" << a.text << "' covers a legend glyph";
    }
}

}  // namespace tgemm::test
