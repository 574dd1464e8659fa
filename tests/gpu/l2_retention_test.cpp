// The measured L2 retention curves (gpu/l2_retention.hpp) against the logs they come from.
#include "gpu/l2_retention.hpp"

#include <gtest/gtest.h>

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
