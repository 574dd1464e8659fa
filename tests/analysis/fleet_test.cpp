// The fleet report's analysis: which card is flagged, against which median, and what it refuses.
#include <gtest/gtest.h>

#include <algorithm>

#include "../render/synthetic_profile.hpp"
#include "analysis/fleet.hpp"
#include "analysis/fleet_models.hpp"
#include "core/error.hpp"
#include "render/fleet_report.hpp"

using namespace tgemm;

namespace {

// The synthetic profile as card `index`, with every timed launch `slower` times as long and
// the DRAM roof scaled by `dram`.
profile card(int index, double slower = 1, double dram = 1) {
    auto p = test::synthetic_profile();
    p.env.host = "node";
    p.env.gpu_index = index;
    p.env.gpu_uuid = "GPU-0000000" + std::to_string(index) + "-0000";
    for (auto& m : p.measurements)
        if (m.time) {
            m.time->median_ms *= slower;
            m.time->min_ms *= slower;
            m.time->max_ms *= slower;
        }
    p.peaks["dram"].measured = 3.0e12 * dram;
    p.peaks["dram"].unit = "B/s";
    return p;
}

std::vector<fleet_input> inputs_of(const std::vector<profile>& ps) {
    std::vector<fleet_input> in;
    for (std::size_t i = 0; i < ps.size(); ++i) in.push_back({"card" + std::to_string(i), &ps[i]});
    return in;
}

}  // namespace

TEST(Fleet, FlagsTheSlowCardAgainstTheMedianOnly) {
    // Card 2 takes 1.12× as long on every rung: 1 − 1/1.12 = 10.7 % below the median of three.
    const std::vector<profile> ps = {card(0), card(1), card(2, 1.12), card(3, 1.0, 0.9)};
    const auto a = analyze_fleet(inputs_of(ps), 0.05);
    ASSERT_EQ(a.cards.size(), 4u);
    EXPECT_EQ(a.cards[2], "node GPU 2 (GPU-00000002…)");
    std::size_t timed = 0;
    for (const auto& m : ps[0].measurements) timed += !m.skipped && m.time ? 1 : 0;
    ASSERT_EQ(a.rungs.size(), timed);
    std::size_t rung_flags = 0;
    for (const auto& f : a.flags) {
        if (f.rung) {
            ++rung_flags;
            EXPECT_EQ(f.card, 2u) << f.what;
            EXPECT_NEAR(f.below(), 1 - 1 / 1.12, 1e-12) << f.what;
            // Its fastest launch too: a slower card, not a slower part of its run.
            ASSERT_TRUE(f.best_below()) << f.what;
            EXPECT_NEAR(*f.best_below(), 1 - 1 / 1.12, 1e-12) << f.what;
        } else {
            EXPECT_EQ(f.card, 3u);  // the DRAM roof: 0.9 × 3 TB/s against a median of 3 TB/s
            EXPECT_EQ(f.what, "dram");
            EXPECT_NEAR(f.below(), 0.1, 1e-12);
        }
    }
    EXPECT_EQ(rung_flags, timed);
    EXPECT_EQ(a.flags.size(), timed + 1);
    // Four cards: the median of an even count is the mean of the middle two.
    EXPECT_DOUBLE_EQ(a.roofs.front().median, 3.0e12);
}

TEST(Fleet, NoFlagWithinTheMargin) {
    const std::vector<profile> ps = {card(0), card(1, 1.04)};  // 3.8 % below the mean of two
    const auto a = analyze_fleet(inputs_of(ps), 0.05);
    EXPECT_TRUE(a.flags.empty());
    const auto md = render::fleet_markdown(a, "tgemm-roofline fleet a.json b.json");
    EXPECT_NE(md.find("No card falls more than 5 % below the median"), std::string::npos);
    EXPECT_NE(md.find("# Fleet report: 2 cards of NVIDIA H100 80GB HBM3"), std::string::npos);
}

TEST(Fleet, AFlaggedRungWhoseFastestLaunchKeepsUpSaysSo) {
    // Card 1's median launch takes 1.2× as long, its fastest as long as the others': flagged
    // 1 − 1/1.1 = 9.1 % below the mean of two, and 0 % below at its best.
    auto slow = card(1);
    for (auto& m : slow.measurements)
        if (m.time) m.time->median_ms *= 1.2;
    const std::vector<profile> ps = {card(0), slow};
    const auto a = analyze_fleet(inputs_of(ps), 0.05);
    ASSERT_FALSE(a.flags.empty());
    for (const auto& f : a.flags) {
        EXPECT_EQ(f.card, 1u);
        EXPECT_NEAR(f.below(), 1 - 1.0 / 1.1, 1e-12) << f.what;
        ASSERT_TRUE(f.best_below()) << f.what;
        EXPECT_NEAR(*f.best_below(), 0, 1e-12) << f.what;
    }
    const auto md = render::fleet_markdown(a, "fleet");
    EXPECT_NE(md.find("| 9.1 % | 0.0 % |"), std::string::npos) << md;
}

TEST(Fleet, TheSpreadIsTheRangeOverTheMedian) {
    // DRAM roofs 3.0, 3.0 and 2.7 TB/s: median 3.0, spread (3.0 − 2.7) / 3.0 = 10.0 %. Every rung
    // of card 2 is 1.12× slower: (1 − 1/1.12) = 10.7 %.
    const std::vector<profile> ps = {card(0), card(1), card(2, 1.12, 0.9)};
    const auto md = render::fleet_markdown(analyze_fleet(inputs_of(ps), 0.05), "fleet");
    const auto row_of = [&](const std::string& start) {
        const auto at = md.find("\n| " + start + " ");
        EXPECT_NE(at, std::string::npos) << start;
        return at == std::string::npos ? std::string()
                                       : md.substr(at + 1, md.find('\n', at + 1) - at - 1);
    };
    EXPECT_TRUE(row_of("dram").ends_with("| 10.0 % |")) << row_of("dram");
    const auto first_rung = analyze_fleet(inputs_of(ps), 0.05).rungs.front().what;
    EXPECT_TRUE(row_of(first_rung).ends_with("| 10.7 % |")) << row_of(first_rung);
    // Two equal cards: no spread.
    const std::vector<profile> two = {card(0), card(1)};
    EXPECT_NE(
        render::fleet_markdown(analyze_fleet(inputs_of(two), 0.05), "fleet").find("| 0.0 % |"),
        std::string::npos);
}

TEST(Fleet, RefusesOneProfileMixedModelsAndPredictions) {
    const std::vector<profile> one = {card(0)};
    EXPECT_THROW((void)analyze_fleet(inputs_of(one), 0.05), error);
    auto other = card(1);
    other.gpu.key = "h200";
    const std::vector<profile> mixed = {card(0), other};
    try {
        (void)analyze_fleet(inputs_of(mixed), 0.05);
        FAIL() << "mixed models accepted";
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("cards of one model"), std::string::npos) << e.what();
    }
    auto predicted = card(1);
    predicted.source = profile_source::predicted;
    const std::vector<profile> with_prediction = {card(0), predicted};
    EXPECT_THROW((void)analyze_fleet(inputs_of(with_prediction), 0.05), error);
}

// Across models: each model is the median of its cards, and a rung is set against the ratio of
// the roof that bounds it on the first model.
TEST(FleetModels, ARungFollowsTheRatioOfItsBoundingRoof) {
    auto other = card(0, 1.0, 1.5);  // the DRAM roof 1.5×
    other.gpu.key = "h200";
    other.gpu.name = "NVIDIA H200";
    for (auto& m : other.measurements)
        if (m.kernel == "naive" && m.time) m.time->median_ms /= 1.5;  // DRAM-bound: 1.5× faster
    const std::vector<profile> ps = {card(0), card(1), other};
    const auto m = analyze_models(inputs_of(ps));
    ASSERT_EQ(m.models.size(), 2u);
    EXPECT_EQ(m.models[0].cards, 2u);
    EXPECT_EQ(m.models[1].cards, 1u);
    const auto row = std::find_if(m.rungs.begin(), m.rungs.end(),
                                  [](const model_row& r) { return r.what == "naive 4096³"; });
    ASSERT_NE(row, m.rungs.end());
    EXPECT_EQ(row->bound_roof, "dram");
    ASSERT_TRUE(row->roof_ratio.at(1));
    EXPECT_NEAR(*row->roof_ratio[1], 1.5, 1e-12);
    EXPECT_NEAR(*row->per_model[1] / *row->per_model[0], 1.5, 1e-12);
    const auto md = render::models_markdown(m);
    EXPECT_NE(md.find("| naive 4096³ |"), std::string::npos);
    EXPECT_NE(md.find("dram; h200: roof ×1.50, follows it"), std::string::npos) << md;
    const std::vector<profile> one_model = {card(0), card(1)};
    EXPECT_THROW((void)analyze_models(inputs_of(one_model)), error);
}
