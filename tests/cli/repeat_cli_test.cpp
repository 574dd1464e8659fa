// The command line of issue 12's measuring options, without a GPU: --repeat, --noise-target,
// --max-time-per-pair and --resume refuse bad input in one line (exit 2) before touching a GPU;
// `report --repeatability` prints what moved between --repeat runs; `report --summary` adds the
// timing noise of a 1.4 profile and leaves an older profile's summary as it was.
#include <gtest/gtest.h>

#include <filesystem>

#include "../render/synthetic_profile.hpp"
#include "analysis/repeatability.hpp"
#include "profile/profile_file.hpp"
#include "run_cli.hpp"
#include "scratch_dir.hpp"

using namespace tgemm;
namespace fs = std::filesystem;

namespace {

class RepeatCli : public test::scratch_dir_test {
  protected:
    RepeatCli() : scratch_dir_test("tgemm-repeat-cli-") {}

    // The synthetic profile, its first row measured three times, written as a 1.4 profile.
    fs::path repeated_profile() const {
        auto p = test::readable_synthetic_profile();
        auto runs = std::vector<measurement>(3, p.measurements[0]);
        runs[1].time->median_ms *= 1.03;  // the time moves 3 %
        runs[2].counters["dram_read_bytes"] = runs[0].counters["dram_read_bytes"] * 1.002;
        p.measurements[0] = with_repeats(runs);
        for (auto& m : p.measurements) {
            if (!m.time) continue;
            m.time->noise = 0.001;
            m.time->noise_target = 0.005;
            m.time->noise_met = true;
        }
        p.measurements[0].time->noise = 0.009;
        p.measurements[0].time->noise_met = false;
        const auto path = m_dir / "repeated.json";
        (void)write_profile(path, p);
        return path;
    }
};

void expect_one_line(const test::cli_result& r, int code, const std::string& needle) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace

TEST_F(RepeatCli, BadValuesAreOneLine) {
    for (const auto& [option, value] :
         std::vector<std::pair<std::string, std::string>>{{"--repeat", "0"},
                                                          {"--repeat", "x"},
                                                          {"--repeat", "1001"},
                                                          {"--noise-target", "0"},
                                                          {"--noise-target", "-1"},
                                                          {"--max-time-per-pair", "0"},
                                                          {"--max-time-per-pair", "ten"},
                                                          {"--counter-batch", "0"},
                                                          {"--counter-batch", "-3"},
                                                          {"--counter-batch", "many"},
                                                          {"--counter-batch", "5000"},
                                                          {"--cupti-ranges", "auto"},
                                                          {"--cupti-ranges", ""}})
        expect_one_line(test::run_cli({option, value, "--offline"}), 2, option);
}

TEST_F(RepeatCli, ResumeNeedsAMeasuringRun) {
    expect_one_line(
        test::run_cli({"--resume", "--predict", "--profile", (m_dir / "p.json").string()}), 2,
        "--predict measures nothing");
    expect_one_line(test::run_cli({"--resume", "--offline", "--gpu", "h100", "--out",
                                   (m_dir / "out").string()}),
                    2, "--resume continues a measuring run");
    EXPECT_FALSE(fs::exists(m_dir / "out" / "report.md"));
}

TEST_F(RepeatCli, RepeatabilityPrintsWhatMoved) {
    const auto r = test::run_cli({"report", repeated_profile().string(), "--repeatability"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("more than 1.00 % over the 3 runs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| kernel | size | value |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| time (median) |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3.00 % |"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("dram_read_bytes"), std::string::npos) << r.out;  // 0.2 %: not named
    EXPECT_TRUE(r.err.empty()) << r.err;

    const auto shipped = std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json";
    const auto none = test::run_cli({"report", shipped, "--repeatability"});
    ASSERT_EQ(none.code, 0) << none.err;
    EXPECT_NE(none.out.find("no repeated runs"), std::string::npos) << none.out;
    expect_one_line(test::run_cli({"report", shipped, "--repeatability", "--summary"}), 2,
                    "--repeatability");
}

TEST_F(RepeatCli, SummaryAddsTheTimingNoise) {
    const auto r = test::run_cli({"report", repeated_profile().string(), "--summary"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("| cublas"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Timing noise"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stopped at the time limit first"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| 0.90 % | 0.50 % |"), std::string::npos) << r.out;
    // Rows without noise figures (a profile before 1.4): the summary is the benchmark table
    // alone.
    const auto plain = test::readable_synthetic_profile();
    const auto path = m_dir / "before-1.4.json";
    (void)write_profile(path, plain);
    const auto old = test::run_cli({"report", path.string(), "--summary"});
    ASSERT_EQ(old.code, 0) << old.err;
    EXPECT_NE(old.out.find("| cublas"), std::string::npos) << old.out;
    EXPECT_EQ(old.out.find("Timing noise"), std::string::npos) << old.out;
}
