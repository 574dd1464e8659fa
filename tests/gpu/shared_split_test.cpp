// The L1/shared split every launch names (gpu/shared_split.hpp), worked by hand.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "gpu/shared_split.hpp"

using namespace tgemm;

TEST(SharedSplit, SmallestCapacityThatHoldsTheResidentCtas) {
    const auto& h = sm_limits_cc90;
    // No shared memory: 5 CTAs × the 1 KB reserve = 5 KB → 8 KB, 3 % of 228 KB = 6.84 KB.
    const auto none = shared_split_for(h, {256, 48, 0});
    EXPECT_EQ(none.shared_bytes, 8 * 1024);
    EXPECT_EQ(none.carveout_percent, 3);
    // 2 CTAs × (8 KB + 1 KB) = 18 KB → 32 KB, 14 % = 31.9 KB.
    EXPECT_EQ(shared_split_for(h, {256, 128, 8 * 1024}).shared_bytes, 32 * 1024);
    // Exactly 100 KB: 2 CTAs of 1024 threads × (49 KB + 1 KB) → 100 KB itself, 43 % = 98.0 KB, not
    // 44 % = 100.3 KB (which the driver would take to 132 KB).
    const auto exact = shared_split_for(h, {1024, 32, 49 * 1024});
    EXPECT_EQ(exact.shared_bytes, 100 * 1024);
    EXPECT_EQ(exact.carveout_percent, 43);
    // One byte more: the 128-byte unit takes each CTA to 50 KB + 128 B → 132 KB.
    EXPECT_EQ(shared_split_for(h, {1024, 32, 49 * 1024 + 1}).shared_bytes, 132 * 1024);
    // The largest CTA: 227 KB + 1 KB → 228 KB, 100 %.
    const auto full = shared_split_for(h, {128, 32, 227 * 1024});
    EXPECT_EQ(full.shared_bytes, 228 * 1024);
    EXPECT_EQ(full.carveout_percent, 100);
}

// Each capacity's percentage lies above the next smaller capacity and at most at its own, on
// every list, so the driver's rounding (up, or to the nearest) lands on it.
TEST(SharedSplit, EveryCapacitysPercentageNamesIt) {
    for (const auto* limits : {&sm_limits_cc80, &sm_limits_cc90, &sm_limits_cc120}) {
        const auto caps = shared_capacities_kb(*limits);
        ASSERT_FALSE(caps.empty());
        EXPECT_EQ(std::int64_t(caps.back()) * 1024, limits->smem_per_sm);
        for (std::size_t i = 1; i < caps.size(); ++i) {
            // One resident CTA (1024 threads of 64 registers fill the register file) of the
            // capacity less the 1 KB reserve needs exactly this capacity.
            const auto bytes = std::int64_t(caps[i]) * 1024;
            ASSERT_EQ(ctas_per_sm(*limits, {1024, 64, bytes - 1024}), 1);
            const auto s = shared_split_for(*limits, {1024, 64, bytes - 1024});
            EXPECT_EQ(s.shared_bytes, bytes) << caps[i] << " KB";
            const double asked = s.carveout_percent / 100.0 * double(limits->smem_per_sm);
            EXPECT_GT(asked, caps[i - 1] * 1024.0) << caps[i] << " KB";
            EXPECT_LE(asked, double(bytes)) << caps[i] << " KB";
        }
    }
}

TEST(SharedSplit, UnknownCapacitiesAreAnInternalError) {
    auto odd = sm_limits_cc90;
    odd.smem_per_sm = 200 * 1024;
    EXPECT_TRUE(shared_capacities_kb(odd).empty());
    try {
        (void)shared_split_for(odd, {256, 32, 0});
        FAIL() << "no throw";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::internal);
    }
}
