// The L2 request coalescer's fan-out in the spec database (gpu_spec::l2_coalescer_fanout) against
// the logs it comes from: docs/validation/<gpu>-request-coalescer.log, where j SMs of one
// coalescing domain read one buffer together (tests/collect/request_coalescer_test.cpp, GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "gpu/spec.hpp"

using namespace tgemm;

namespace {

struct in_domain_read {
    int readers = 0;
    double merged = 0;  // share of the requests
};

// The "first domain's SMs" lines of the log: readers and the merged share of the requests.
std::vector<in_domain_read> in_domain_reads(const std::string& gpu) {
    const std::string path =
        std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + gpu + "-request-coalescer.log";
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    const std::regex line(
        R"(^first domain's SMs +(\d+) readers, .* merged +[\d.]+ MB = ([\d.]+) of requests)");
    std::vector<in_domain_read> reads;
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_search(l, m, line)) reads.push_back({std::stoi(m[1]), std::stod(m[2])});
    }
    return reads;
}

// How many of j requests for one sector merge when a response serves at most `fanout`.
double merged_at_most(int j, int fanout) {
    return double(j - (j + fanout - 1) / fanout) / j;
}

// Within 0.021 of (j - ⌈j / fanout⌉) / j for every reader count the log holds, cold and warm: the
// largest gap is 0.020 (12 and 16 readers cold on the H200: 0.731 and 0.730 where four per
// response allow 0.750).
bool fits(const std::vector<in_domain_read>& reads, int fanout) {
    for (const auto& r : reads)
        if (std::abs(r.merged - merged_at_most(r.readers, fanout)) > 0.021) return false;
    return true;
}

}  // namespace

// Both GPUs' logs fit the fan-out the spec database holds, and no other: three per response
// would leave 4 readers 0.667 merged (measured 0.750), five would merge 0.8 of 5 (measured 0.600).
TEST(CoalescerFanout, TheSpecDatabaseHoldsTheLoggedOne) {
    for (const auto* gpu : {"h100", "h200"}) {
        const auto reads = in_domain_reads(gpu);
        ASSERT_GE(reads.size(), 22u) << gpu;  // 2 ... 12 (H100) or 16 (H200) readers, twice
        const int fanout = l2_coalescer_fanout_of(gpu, "9.0");
        EXPECT_EQ(fanout, 4) << gpu;
        EXPECT_TRUE(fits(reads, fanout)) << gpu;
        EXPECT_FALSE(fits(reads, fanout - 1)) << gpu;
        EXPECT_FALSE(fits(reads, fanout + 1)) << gpu;
    }
}
