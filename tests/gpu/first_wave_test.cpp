// The first waves' partition sides in analyzer/gpu/first_wave.cpp against the logs they come from:
// docs/validation/<gpu>-cta-placement.log, -3runs.log and -profilers.log (the SM of each of the
// first 132 CTAs, per CTAs dealt to each SM) and <gpu>-l2-partition-map.log (the SMs on SM 0's
// side).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/first_wave.hpp"

using namespace tgemm;

namespace {

std::string read_log(const std::string& name) {
    const std::string path = std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + name;
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::set<int> side_zero(const std::string& gpu) {
    const auto text = read_log(gpu + "-l2-partition-map.log");
    std::smatch m;
    EXPECT_TRUE(std::regex_search(text, m, std::regex(R"(SMs on SM 0's side \(\d+\): ([\d ]+))")));
    std::set<int> zero;
    std::istringstream in(m[1].str());
    for (int sm; in >> sm;) zero.insert(sm);
    return zero;
}

// Every logged run with `per` CTAs per SM, as sides, in the order first_wave.cpp keeps them.
std::vector<std::string> logged_sides(const std::string& gpu, int per) {
    const auto zero = side_zero(gpu);
    const std::regex run(R"((\d) CTAs per SM[^\n]*\n  SMs of CTAs 0 \.\.\. 131: ([\d ]+))");
    std::vector<std::string> out;
    for (const auto* suffix : {"", "-3runs", "-profilers"}) {
        const auto text = read_log(gpu + "-cta-placement" + suffix + ".log");
        for (std::sregex_iterator it(text.begin(), text.end(), run), end; it != end; ++it) {
            if (std::stoi((*it)[1]) != per) continue;
            std::istringstream in((*it)[2].str());
            std::string sides;
            for (int sm; in >> sm;) sides += zero.count(sm) ? '0' : '1';
            out.push_back(sides);
        }
    }
    return out;
}

}  // namespace

TEST(FirstWave, TheTablesAreTheLogs) {
    for (const auto* gpu : {"h100", "h200"}) {
        for (const int per : logged_ctas_per_sm) {
            const auto logged = logged_sides(gpu, per);
            const auto table = first_wave_sides_of(gpu, per);
            ASSERT_GE(logged.size(), 8u) << gpu << " " << per;
            ASSERT_EQ(table.size(), logged.size()) << gpu << " " << per;
            for (std::size_t i = 0; i < logged.size(); ++i) {
                EXPECT_EQ(table[i].size(), 132u);
                EXPECT_EQ(std::string(table[i]), logged[i]) << gpu << " " << per << " run " << i;
            }
        }
    }
}

// One character per CTA, one of the two partitions. (The first 132 CTAs may take an SM twice
// where more than one fits, so the runs need not split 66 and 66.)
TEST(FirstWave, SidesAreTwoPartitions) {
    for (const auto* gpu : {"h100", "h200"})
        for (const int per : logged_ctas_per_sm)
            for (const auto s : first_wave_sides_of(gpu, per))
                EXPECT_EQ(s.find_first_not_of("01"), std::string_view::npos) << gpu << " " << per;
}

TEST(FirstWave, CountsNotLoggedGiveNothing) {
    EXPECT_TRUE(first_wave_sides_of("a100", 1).empty());
    EXPECT_TRUE(first_wave_sides_of("h100", 6).empty());
    EXPECT_TRUE(first_wave_sides_of("h100", 0).empty());
    EXPECT_EQ(first_wave_sides_of("h200", 3).data(), first_wave_sides_of("h200", 4).data());
}

namespace {

// The logged SMs with the block that is always listed first (SMs 124-131, whose inner order
// moves between launches) in SM order.
std::vector<int> block_sorted(std::vector<int> sms) {
    const auto block =
        std::stable_partition(sms.begin(), sms.end(), [](int s) { return s >= 124; });
    std::sort(sms.begin(), block);
    return sms;
}

std::vector<int> numbers(const std::string& list) {
    std::istringstream in(list);
    std::vector<int> out;
    for (int v; in >> v;) out.push_back(v);
    return out;
}

// Whether `sms`, as logged for a launch of sms.size() CTAs, is the rule's order from some start.
bool dealt_by_rule(const small_launch_dispatch& d, const std::vector<int>& sms) {
    const auto logged = block_sorted(sms);
    for (int start = 0; start < d.columns; ++start)
        if (d.order(int(sms.size()), start) == logged) return true;
    return false;
}

}  // namespace

// Every launch of no more CTAs than SMs logged on four boards (1 to 132 CTAs, at 1 and 2 CTAs per
// SM: 338 launches a GPU), and the first 132 CTAs of every logged full wave at 1 CTA per SM, are
// the dispatch rule's order from one of its start columns; and so are the 278 launches logged on
// a fifth board (an H100, -small-check.log) after the rule was written.
TEST(FirstWave, SmallLaunchesFollowTheDispatchRule) {
    const std::regex line(R"((\d) CTAs per SM, (\d+) CTAs, launch \d: SMs ([\d ]+) \()");
    const std::regex wave(R"(1 CTAs per SM[^\n]*\n  SMs of CTAs 0 \.\.\. 131: ([\d ]+))");
    for (const auto* gpu : {"h100", "h200"}) {
        const auto d = small_launch_dispatch_of(gpu);
        ASSERT_TRUE(d.known());
        int launches = 0;
        for (const auto* suffix : {"-small", "-small-6", "-small-check"}) {
            const std::string name = std::string(gpu) + "-cta-placement" + suffix + ".log";
            if (std::string(suffix) == "-small-check" && std::string(gpu) != "h100") continue;
            const auto text = read_log(name);
            for (std::sregex_iterator it(text.begin(), text.end(), line), end; it != end; ++it) {
                const auto sms = numbers((*it)[3].str());
                ASSERT_EQ(int(sms.size()), std::stoi((*it)[2])) << gpu;
                EXPECT_TRUE(dealt_by_rule(d, sms)) << gpu << " " << (*it)[0].str();
                ++launches;
            }
        }
        EXPECT_EQ(launches, 278 + 60 + (std::string(gpu) == "h100" ? 278 : 0)) << gpu;
        int waves = 0;
        for (const auto* suffix : {"", "-3runs", "-profilers"}) {
            const auto text = read_log(std::string(gpu) + "-cta-placement" + suffix + ".log");
            for (std::sregex_iterator it(text.begin(), text.end(), wave), end; it != end; ++it) {
                EXPECT_TRUE(dealt_by_rule(d, numbers((*it)[1].str()))) << gpu << " full wave";
                ++waves;
            }
        }
        EXPECT_EQ(waves, std::string(gpu) == "h100" ? 9 : 8);
    }
    EXPECT_FALSE(small_launch_dispatch_of("a100").known());
}

// The order by hand: 28 CTAs take SMs 124-131 and the even SMs of the first groups (0-15,
// 16-31, and 32-38 of 32-47), listed by column: from column 0, 124 … 131, then 0 16 32, 2 18 34,
// …; from column 1, the column of SMs 0, 16 and 32 comes last.
TEST(FirstWave, SmallLaunchOrderByHand) {
    const auto d = small_launch_dispatch_of("h100");
    const std::vector<int> from0 = {124, 125, 126, 127, 128, 129, 130, 131, 0,  16, 32, 2,  18, 34,
                                    4,   20,  36,  6,   22,  38,  8,   24,  10, 26, 12, 28, 14, 30};
    EXPECT_EQ(d.order(28, 0), from0);
    const auto from1 = d.order(28, 1);
    EXPECT_EQ(std::vector<int>(from1.begin() + 8, from1.begin() + 11),
              (std::vector<int>{2, 18, 34}));
    EXPECT_EQ(std::vector<int>(from1.end() - 3, from1.end()), (std::vector<int>{0, 16, 32}));
}
