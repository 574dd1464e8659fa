// The measuring run's work list over the real ladder (collect/measure.hpp): the default plan's
// pairs, the FP32 rungs not at the tensor-only size, and a shard of it as measure() takes it.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/size_plan.hpp"
#include "collect/measure.hpp"

using namespace tgemm;

TEST(WorkListPlan, DefaultRunHasEveryRungAtEverySizeButTheFp32AtTheTensorOnes) {
    const auto plan = cli::plan_sizes(cli::main_options{});
    measure_options o;
    o.rungs = rung_registry::get().select("all");
    o.shapes = plan.shapes;
    o.tensor_only_shapes = plan.tensor_only;
    const auto list = o.work_list();
    const auto fp32 = std::count_if(o.rungs.begin(), o.rungs.end(), [](const rung* r) {
        return r->types.ab == element_type::fp32;
    });
    const auto all = static_cast<std::ptrdiff_t>(o.rungs.size());
    EXPECT_EQ(static_cast<std::ptrdiff_t>(list.size()),
              all * static_cast<std::ptrdiff_t>(plan.shapes.size()) -
                  fp32 * static_cast<std::ptrdiff_t>(plan.tensor_only.size()));
    for (const auto& item : list) {
        if (std::find(plan.tensor_only.begin(), plan.tensor_only.end(), item.size) !=
            plan.tensor_only.end()) {
            EXPECT_NE(o.rungs[item.kernel]->types.ab, element_type::fp32)
                << o.rungs[item.kernel]->id;
        }
    }
    EXPECT_EQ(o.work_list(), list);
    // A shard keeps the list's shape-major order: measure() prepares each shape's operands once.
    const auto part = shard_of(list, {1, 3});
    for (std::size_t j = 1; j < part.size(); ++j) {
        if (part[j].size == part[j - 1].size) continue;
        for (std::size_t k = j + 1; k < part.size(); ++k) EXPECT_NE(part[k].size, part[j - 1].size);
    }
}
