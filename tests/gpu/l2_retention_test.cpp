// The measured L2 retention curves (gpu/l2_retention.hpp) against the logs they come from.
#include "gpu/l2_retention.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

using namespace tgemm;

// docs/validation/h100-l2-capacity.log: 0.5 % re-read at 0.9 × half the L2, 18.8 % at 1.0; linear
// between, so 0.005 + 0.183 / 2 at 0.95; nothing below 0.8, all from 1.25.
TEST(L2Retention, H100CurveIsTheLoggedOne) {
    const auto c = l2_retention_of("h100");
    ASSERT_FALSE(c.empty());
    EXPECT_DOUBLE_EQ(evicted_at(c, 0.5), 0);
    EXPECT_DOUBLE_EQ(evicted_at(c, 0.9), 0.005);
    EXPECT_NEAR(evicted_at(c, 0.95), 0.005 + 0.183 / 2, 1e-12);
    EXPECT_DOUBLE_EQ(evicted_at(c, 1.1), 0.675);
    EXPECT_DOUBLE_EQ(evicted_at(c, 3.0), 1);
}

// The H200 keeps less at the same share of its half (39.1 % gone at 1.0, h200-l2-capacity.log).
TEST(L2Retention, H200LosesMoreAtHalfItsL2) {
    EXPECT_DOUBLE_EQ(evicted_at(l2_retention_of("h200"), 1.0), 0.391);
    EXPECT_GT(evicted_at(l2_retention_of("h200"), 1.0), evicted_at(l2_retention_of("h100"), 1.0));
}

// Where none was measured, the step at half the L2 the model used before the curves.
TEST(L2Retention, UnmeasuredGpusTakeTheStepAtOne) {
    for (const auto* key : {"a100", "rtx5070ti", "unknown"}) {
        const auto c = l2_retention_of(key);
        EXPECT_TRUE(c.empty()) << key;
        EXPECT_DOUBLE_EQ(evicted_at(c, 0.999), 0) << key;
        EXPECT_DOUBLE_EQ(evicted_at(c, 1.001), 1) << key;
    }
}

// The swept curves are the logged rows (rotate 37, wait 0, stores 0.02 of the half a pass), point
// for point, and every such row of the logs is a point of the curve.
TEST(L2Retention, SweptCurvesAreTheLoggedOnes) {
    const std::regex row(
        R"(^\s*(\d+) readers a line, rotate 37, wait\s+0 us, stores 0\.02 x half a pass: .*= )"
        R"(([\d.]+) x half the L2: DRAM reads\s+[\d.]+ MB = ([\d.]+) of the set a pass)");
    for (const auto* key : {"h100", "h200"}) {
        std::ifstream log(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + key +
                          "-l2-sweep.log");
        ASSERT_TRUE(log) << key;
        int rows = 0;
        for (std::string line; std::getline(log, line);) {
            std::smatch m;
            if (!std::regex_search(line, m, row)) continue;
            const int readers = std::stoi(m[1]);
            if (readers > 2) continue;
            const double x = std::stod(m[2]), lost = std::stod(m[3]);
            const auto c = l2_swept_retention_of(key, readers);
            ASSERT_FALSE(c.empty()) << key << " " << readers;
            if (x < c.front().x) {
                EXPECT_DOUBLE_EQ(lost, 0) << key << " " << readers << " at " << x;
                continue;
            }
            ++rows;
            EXPECT_DOUBLE_EQ(evicted_at(c, x), lost) << key << " " << readers << " at " << x;
        }
        EXPECT_EQ(rows, 24) << key;  // 12 points for each of 1 and 2 readers
    }
    EXPECT_TRUE(l2_swept_retention_of("h100", 3).empty());
    EXPECT_TRUE(l2_swept_retention_of("a100", 1).empty());
}
