// Which launch each CUPTI range belongs to (collect/range_owners.hpp), for user ranges and for
// kernel ranges (--cupti-ranges kernel), without a GPU: the preparation kernels' ranges are
// skipped, a batch of one takes every range after its preparation, and a count that fits neither
// is an error naming the counts, never a silent misattribution.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "collect/range_owners.hpp"
#include "core/error.hpp"

using namespace tgemm;

namespace {
constexpr std::nullopt_t skip = std::nullopt;
using owners = std::vector<std::optional<std::size_t>>;
}  // namespace

TEST(RangeOwners, UserRangesAreOnePerLaunchInOrder) {
    EXPECT_EQ(range_owners({1, 1, 1}, 3, false), (owners{0, 1, 2}));
    EXPECT_THROW((void)range_owners({1, 1, 1}, 2, false), error);
    EXPECT_THROW((void)range_owners({1, 1, 1}, 4, false), error);
}

TEST(RangeOwners, KernelRangesSkipEachPreparation) {
    // Restore of C (a copy, no kernel) and the flush: one preparation kernel per launch.
    EXPECT_EQ(range_owners({1, 1}, 4, true), (owners{skip, 0, skip, 1}));
    // A preparation of two kernels (flush, then a read that warms L2).
    EXPECT_EQ(range_owners({2, 1}, 5, true), (owners{skip, skip, 0, skip, 1}));
    // A launch of no preparation kernel.
    EXPECT_EQ(range_owners({0, 1}, 3, true), (owners{0, skip, 1}));
}

TEST(RangeOwners, ABatchOfOneTakesEveryKernelOfItsLaunch) {
    // cuBLAS may run a GEMM as several kernels.
    EXPECT_EQ(range_owners({1}, 4, true), (owners{skip, 0, 0, 0}));
    EXPECT_EQ(range_owners({1}, 2, true), (owners{skip, 0}));
}

TEST(RangeOwners, CountsThatFitNeitherAreErrors) {
    EXPECT_THROW((void)range_owners({1}, 1, true), error);     // no kernel of the launch
    EXPECT_THROW((void)range_owners({1, 1}, 5, true), error);  // a launch of two kernels
    EXPECT_THROW((void)range_owners({1, 1}, 3, true), error);  // a range missing
    EXPECT_THROW((void)range_owners({}, 0, true), error);
    try {
        (void)range_owners({1, 1}, 5, true);
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("5 kernel ranges for 2 profiled launches"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("--counter-batch 1"), std::string::npos) << e.what();
    }
}
