// The first waves' partition sides in analyzer/gpu/first_wave.cpp against the logs they come from:
// docs/validation/<gpu>-cta-placement.log, -3runs.log and -profilers.log (the SM of each of the
// first 132 CTAs, per CTAs dealt to each SM) and <gpu>-l2-partition-map.log (the SMs on SM 0's
// side).
#include <gtest/gtest.h>

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
