#include <gtest/gtest.h>

#include <set>

#include "collect/counter_session.hpp"
#include "collect/metric_table.hpp"

using namespace tgemm;

// CUPTI's host API checks metric names and pass counts from the chip name alone, so this runs
// without a GPU: every metric of the table is accepted for GH100 (H100/H200) and lands in
// exactly one single-pass group.
TEST(MetricPlan, EveryMetricIsValidForGH100AndGroupedOnce) {
    const auto groups = plan_metric_groups("GH100");
    std::multiset<std::string> seen;
    for (const auto& g : groups)
        for (const auto& m : g) seen.insert(m);
    for (const auto& t : metric_table())
        EXPECT_EQ(seen.count(std::string(t.metric)), 1u) << t.metric;
    EXPECT_EQ(seen.size(), metric_table().size());
    // Each group is one profiled launch per (rung, shape): the execution counters (warp
    // stall reasons are scheduler counters, a few per pass) take it from 8 to 13, 9 of them
    // for a rung without tensor cores.
    std::string plan;
    for (const auto& g : groups) {
        plan += "\n group:";
        for (const auto& m : g) plan += " " + m;
    }
    EXPECT_LE(groups.size(), 13u) << plan;
}

// A group holds one family only, so a rung without tensor cores skips the tensor groups whole
// (each group is one profiled launch) and reads none of their metrics.
TEST(MetricPlan, TensorMetricsHaveGroupsOfTheirOwn) {
    const auto family_of = [](const std::string& metric) {
        for (const auto& t : metric_table())
            if (t.metric == metric) return t.family;
        ADD_FAILURE() << metric << " is not in the table";
        return metric_family::all;
    };
    int tensor_groups = 0;
    for (const auto& g : plan_metric_groups("GH100")) {
        ASSERT_FALSE(g.empty());
        const auto family = family_of(g.front());
        for (const auto& m : g) EXPECT_EQ(family_of(m), family) << m;
        tensor_groups += family == metric_family::tensor ? 1 : 0;
    }
    EXPECT_GE(tensor_groups, 1);
}
