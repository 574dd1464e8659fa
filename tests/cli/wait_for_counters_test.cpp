// --wait-for-counters' policy with a fake clock and a fake CUPTI: a session that is busy for a
// while opens once it is free, within the limit; past the limit the user gets one line saying
// how long the tool waited. No GPU and no real waiting.
#include <gtest/gtest.h>

#include "collect/wait_for_counters.hpp"
#include "run_cli.hpp"

using namespace tgemm;

namespace {

struct fake {
    double now = 0;
    int calls = 0;
    std::vector<std::string> said;
    wait_clock clock() {
        return {[this] { return now; }, [this](double s) { now += s; }};
    }
    std::function<void(const std::string&)> say() {
        return [this](const std::string& s) { said.push_back(s); };
    }
    // Busy until `free_at` seconds, then it opens and returns the attempt's number.
    auto opener(double free_at) {
        return [this, free_at] {
            ++calls;
            if (now < free_at) throw counters_busy(error_kind::device, "busy (fake CUPTI)");
            return calls;
        };
    }
};

}  // namespace

TEST(WaitForCounters, OpensAtOnceWhenFree) {
    fake f;
    EXPECT_EQ(open_when_counters_free(f.opener(0), 0, f.clock(), f.say()), 1);
    EXPECT_TRUE(f.said.empty());
}

TEST(WaitForCounters, WithoutWaitingTheFirstBusyIsTheError) {
    fake f;
    try {
        (void)open_when_counters_free(f.opener(5), 0, f.clock(), f.say());
        FAIL() << "opened while busy";
    } catch (const counters_busy& e) {
        EXPECT_STREQ(e.what(), "busy (fake CUPTI)");
    }
    EXPECT_EQ(f.calls, 1);
    EXPECT_EQ(f.now, 0);
}

TEST(WaitForCounters, RetriesEverySecondUntilFree) {
    fake f;
    // Free after 3.5 s: tries at 0, 1, 2, 3 fail, the one at 4 s opens.
    EXPECT_EQ(open_when_counters_free(f.opener(3.5), 60, f.clock(), f.say()), 5);
    EXPECT_EQ(f.now, 4);
    ASSERT_EQ(f.said.size(), 1u);  // one notice, not one per try
    EXPECT_NE(f.said[0].find("waiting up to 60 s"), std::string::npos) << f.said[0];
}

TEST(WaitForCounters, GivesUpAfterTheLimitWithOneLine) {
    fake f;
    try {
        (void)open_when_counters_free(f.opener(1000), 10, f.clock(), f.say());
        FAIL() << "opened while busy";
    } catch (const counters_busy& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos);
        EXPECT_NE(what.find("stayed busy for 10 s (--wait-for-counters 10)"), std::string::npos)
            << what;
        EXPECT_EQ(e.kind(), error_kind::device);
    }
    EXPECT_EQ(f.calls, 11);  // at 0, 1, …, 10 s
    EXPECT_LE(f.now, 10);
}

TEST(WaitForCounters, OtherErrorsAreNotRetried) {
    fake f;
    int calls = 0;
    EXPECT_THROW((void)open_when_counters_free(
                     [&]() -> int {
                         ++calls;
                         throw error(error_kind::device, "no counter permission");
                     },
                     60, f.clock(), f.say()),
                 error);
    EXPECT_EQ(calls, 1);
}

TEST(WaitForCounters, TheOptionTakesSecondsOnly) {
    for (const auto* bad : {"-1", "abc", "1e9"}) {
        const auto r = test::run_cli({"--wait-for-counters", bad, "--offline"});
        EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
        EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("--wait-for-counters"), std::string::npos) << r.err;
    }
}
