// `merge` and `--shard` on the command line: bad input is one line on stderr and exit code 2;
// shard files merge into one profile, and an existing output is kept beside it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../render/synthetic_profile.hpp"
#include "profile/profile_file.hpp"
#include "profile/profile_json.hpp"
#include "run_cli.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace tgemm;

namespace {

class MergeCli : public test::scratch_dir_test {
  protected:
    MergeCli() : scratch_dir_test("tgemm-merge-") {}

    // The synthetic profile's shard i of n, written as a --shard run writes it.
    std::string write_shard(int i, int n, const std::string& gpu = "h100") {
        auto p = test::readable_synthetic_profile();
        p.gpu.key = gpu;
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

// --predict writes a prediction as a measurement writes its profile, shards included, with no
// GPU: the shards of a prediction merge into the single prediction, row for row (the Slurm test,
// tests/slurm/, runs the same through a job array).
TEST_F(MergeCli, PredictedShardsMergeIntoTheWholePrediction) {
    const std::vector<std::string> args = {"--predict",         "--gpu",          "a100", "--sizes",
                                           "1024,1000x777x333", "--tensor-sizes", "8192"};
    std::vector<std::string> shards;
    for (int i = 0; i < 3; ++i) {
        auto a = args;
        const auto path = (m_dir / fmt::format("s{}.json", i)).string();
        a.insert(a.end(), {"--shard", fmt::format("{}/3", i), "--profile", path});
        const auto r = test::run_cli(a);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.err.find("PREDICTED"), std::string::npos) << r.err;
        shards.push_back(path);
    }
    auto whole_args = args;
    const auto whole = (m_dir / "whole.json").string();
    whole_args.insert(whole_args.end(), {"--profile", whole});
    ASSERT_EQ(test::run_cli(whole_args).code, 0);
    const auto merged = (m_dir / "merged.json").string();
    const auto m = test::run_cli({"merge", shards[2], shards[0], shards[1], "-o", merged});
    ASSERT_EQ(m.code, 0) << m.err;

    const auto w = read_profile(whole), g = read_profile(merged);
    EXPECT_EQ(w.source, profile_source::predicted);
    EXPECT_EQ(g.source, profile_source::predicted);
    ASSERT_EQ(w.measurements.size(), g.measurements.size());
    ASSERT_GT(w.measurements.size(), 10u);
    nlohmann::json jw, jg;
    to_json(jw, w);
    to_json(jg, g);
    for (auto& row : jg["measurements"]) row.erase("provenance");  // where each shard ran
    EXPECT_EQ(jw["measurements"], jg["measurements"]);
}

TEST_F(MergeCli, PredictNeedsAKnownGpuAndSaysSoInOneLine) {
    expect_usage_line(
        test::run_cli({"--predict", "--gpu", "a10O", "--profile", (m_dir / "x.json").string()}),
        "a100");
}
