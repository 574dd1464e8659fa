// Which launch each CUPTI range belongs to (collect/range_owners.hpp), for user ranges and for
// kernel ranges (--cupti-ranges kernel), without a GPU: the preparation kernels' ranges are
// skipped, a batch of one takes every range after its preparation, and a count that fits neither
// is an error naming the counts (the session then counts the batch launch by launch), never a
// silent misattribution.
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

// The session counts a batch whose kernel ranges fit no reading again launch by launch
// (ranges_unmatched); user ranges that do not come one per launch are an internal error.
TEST(RangeOwners, CountsThatFitNeitherAreErrors) {
    EXPECT_THROW((void)range_owners({1}, 1, true), ranges_unmatched);     // no launch kernel
    EXPECT_THROW((void)range_owners({1, 1}, 5, true), ranges_unmatched);  // a launch of two
    EXPECT_THROW((void)range_owners({1, 1}, 3, true), ranges_unmatched);  // a range missing
    EXPECT_THROW((void)range_owners({}, 0, true), ranges_unmatched);
    try {
        (void)range_owners({1, 1}, 5, true);
        ADD_FAILURE() << "accepted";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::internal);
        EXPECT_NE(std::string(e.what()).find("5 kernel ranges for 2 profiled launches whose "
                                             "preparations launch 2 kernels"),
                  std::string::npos)
            << e.what();
    }
    try {
        (void)range_owners({1, 1}, 3, false);
        ADD_FAILURE() << "accepted";
    } catch (const ranges_unmatched&) {
        ADD_FAILURE() << "user ranges are not counted again";
    } catch (const error& e) {
        EXPECT_NE(std::string(e.what()).find("3 ranges for 2 profiled launches"),
                  std::string::npos);
    }
}
