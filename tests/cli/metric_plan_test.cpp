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
    EXPECT_LE(groups.size(), 6u);
}
