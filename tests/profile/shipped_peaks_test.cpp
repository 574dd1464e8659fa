// The measured peaks in the shipped profiles: every roof the micro-benchmarks measure is there,
// and none exceeds its theoretical value (at the clock it ran at) by more than 3 % unless the
// profile says why. A failure here means a benchmark miscounts its bytes or FLOPs, or a spec
// figure is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analysis/peak_checks.hpp"
#include "profile/profile_file.hpp"

namespace tgemm {
namespace {

struct shipped_roof {
    const char* gpu;
    const char* roof;
};

class ShippedPeaks : public ::testing::TestWithParam<shipped_roof> {};

std::filesystem::path profile_path(const char* gpu) {
    return std::filesystem::path(TGEMM_SOURCE_DIR) / "profiles" / (std::string(gpu) + ".json");
}

TEST_P(ShippedPeaks, MeasuredAndWithinThreePercentOfTheoretical) {
    const auto path = profile_path(GetParam().gpu);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not shipped";
    const auto p = read_profile(path);
    const auto it = p.peaks.find(std::string(GetParam().roof));
    ASSERT_NE(it, p.peaks.end()) << "no '" << GetParam().roof << "' roof in " << path;
    const auto& r = it->second;
    ASSERT_TRUE(r.measured) << GetParam().roof << " was not measured";
    EXPECT_FALSE(r.measured_by.empty());
    EXPECT_GT(*r.measured, 0);
    if (r.note.empty()) {
        EXPECT_LE(*r.measured, peak_tolerance * r.reference()) << r.measured_by;
    }
}

TEST(ShippedPeaks, NoConsistencyProblems) {
    for (const char* gpu : {"h100", "h200"}) {
        const auto path = profile_path(gpu);
        if (!std::filesystem::exists(path)) continue;
        const auto problems = peak_consistency_problems(read_profile(path));
        EXPECT_TRUE(problems.empty()) << gpu << ": " << (problems.empty() ? "" : problems[0]);
    }
}

constexpr const char* measured_roofs[] = {"fp32", "dram",        "dram_copy",  "l2",
                                          "smem", "tensor_fp16", "tensor_bf16"};

std::vector<shipped_roof> all_cases() {
    std::vector<shipped_roof> out;
    for (const char* gpu : {"h100", "h200"})
        for (const char* roof : measured_roofs) out.push_back({gpu, roof});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Profiles, ShippedPeaks, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) {
                             return std::string(info.param.gpu) + "_" + info.param.roof;
                         });

}  // namespace
}  // namespace tgemm
