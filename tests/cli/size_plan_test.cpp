#include "cli/size_plan.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

using namespace tgemm;
using tgemm::cli::main_options;
using tgemm::cli::plan_sizes;

// Without --sizes: the default sizes for every rung, 8192³ for the tensor rungs only.
TEST(SizePlan, DefaultsAddTheTensorSizes) {
    const main_options o;
    const auto p = plan_sizes(o);
    ASSERT_EQ(p.shapes.size(), 5u);
    EXPECT_EQ(p.shapes.back(), (shape{8192, 8192, 8192}));
    ASSERT_EQ(p.tensor_only.size(), 1u);
    EXPECT_EQ(p.tensor_only.front(), (shape{8192, 8192, 8192}));
}

// --sizes alone measures just those; with --tensor-sizes too, those are added for the tensor
// rungs, and a size in both lists is measured by every rung.
TEST(SizePlan, ExplicitSizes) {
    main_options o;
    o.sizes = "512,1000x776x328";
    o.sizes_given = true;
    auto p = plan_sizes(o);
    EXPECT_EQ(p.shapes.size(), 2u);
    EXPECT_TRUE(p.tensor_only.empty());
    o.tensor_sizes = "512,2048";
    o.tensor_sizes_given = true;
    p = plan_sizes(o);
    ASSERT_EQ(p.shapes.size(), 3u);
    ASSERT_EQ(p.tensor_only.size(), 1u);
    EXPECT_EQ(p.tensor_only.front(), (shape{2048, 2048, 2048}));
}

TEST(SizePlan, BadTensorSizeIsAUsageError) {
    main_options o;
    // Not = "0": GCC 12 misreports that assignment here under -Wrestrict (a known false positive).
    o.tensor_sizes = std::string(1, '0');
    o.tensor_sizes_given = true;
    try {
        (void)plan_sizes(o);
        FAIL() << "a size of 0 was accepted";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
    }
}
