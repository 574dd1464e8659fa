// `merge` and `--shard` on the command line: bad input is one line on stderr and exit code 2;
// shard files merge into one profile, and an existing output is kept beside it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../render/synthetic_profile.hpp"
#include "profile/profile_file.hpp"
#include "run_cli.hpp"

namespace fs = std::filesystem;
using namespace tgemm;

namespace {

class MergeCli : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() /
                ("tgemm-merge-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // The synthetic profile's shard i of n, written as a --shard run writes it.
    std::string write_shard(int i, int n, const std::string& gpu = "h100") {
        auto p = test::synthetic_profile();
        p.gpu.key = gpu;
        p.gpu.limits = sm_limits_cc90;
        p.gpu.limits.smem_per_cta_optin = 232448;
        const auto size = static_cast<std::int64_t>(p.measurements.size());
        const shard s{i, n};
        std::vector<measurement> rows;
        for (std::size_t j = 0; s.position(j) < p.measurements.size(); ++j)
            rows.push_back(p.measurements[s.position(j)]);
        p.measurements = rows;
        p.env.work_list = work_list_record{size, s};
        const auto path = m_dir / fmt::format("{}.shard-{}-of-{}.json", gpu, i, n);
        (void)write_profile(path, p);
        return path.string();
    }

    fs::path m_dir;
};

void expect_usage_line(const test::cli_result& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace

TEST_F(MergeCli, ShardsMergeIntoOneProfile) {
    const auto a = write_shard(0, 2), b = write_shard(1, 2);
    const auto out = (m_dir / "h100.json").string();
    auto r = test::run_cli({"merge", b, a, "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find("wrote " + out), std::string::npos) << r.out;
    const auto merged = read_profile(out);
    const auto whole = test::synthetic_profile();
    ASSERT_EQ(merged.measurements.size(), whole.measurements.size());
    for (std::size_t j = 0; j < whole.measurements.size(); ++j) {
        EXPECT_EQ(merged.measurements[j].kernel, whole.measurements[j].kernel);
        EXPECT_EQ(merged.measurements[j].size, whole.measurements[j].size);
    }
    // Again onto the same output: the previous one is kept, as a measuring run keeps it.
    r = test::run_cli({"merge", a, b, "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("kept the previous profile"), std::string::npos) << r.err;
}

TEST_F(MergeCli, BadInputIsOneLineAndExitTwo) {
    const auto a = write_shard(0, 2);
    const auto out = (m_dir / "out.json").string();
    expect_usage_line(test::run_cli({"merge", a, (m_dir / "nosuch.json").string(), "-o", out}),
                      "nosuch.json");
    const auto corrupt = m_dir / "corrupt.json";
    std::ofstream(corrupt) << "{ \"schema\": ";
    expect_usage_line(test::run_cli({"merge", a, corrupt.string(), "-o", out}), "corrupt.json");
    expect_usage_line(test::run_cli({"merge", a}), "--out");
    expect_usage_line(test::run_cli({"merge", "-o", out}), "profiles");
    expect_usage_line(test::run_cli({"merge", a, write_shard(1, 2, "a100"), "-o", out}),
                      "different GPU models");
    EXPECT_FALSE(fs::exists(out));
}

TEST_F(MergeCli, BadShardIsOneLineAndExitTwo) {
    const auto dir = m_dir.string();
    expect_usage_line(test::run_cli({"--shard", "3/2", "--offline", "--out", dir}),
                      "--shard '3/2'");
    expect_usage_line(test::run_cli({"--shard", "x", "--offline", "--out", dir}), "--shard 'x'");
    expect_usage_line(test::run_cli({"--shard", "1/0", "--offline", "--out", dir}),
                      "--shard '1/0'");
    // A shard measures: with nothing to measure on, it says so rather than render a stored run.
    expect_usage_line(test::run_cli({"--gpu", "a100", "--shard", "0/2", "--offline", "--out", dir}),
                      "--shard 0/2 measures");
}
