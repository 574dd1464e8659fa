// --device on the command line: what it refuses, in one line, before it starts any process.
// Without a GPU (CI) it says there is none; the run on a GPU is in docs/fleet.md.
#include <gtest/gtest.h>

#include "collect/device.hpp"
#include "run_cli.hpp"

using namespace tgemm;

namespace {

void expect_one_line(const test::cli_result& r, int code, const std::string& needle) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace

TEST(DeviceCli, TakesAnIndexOrAll) {
    expect_one_line(test::run_cli({"--device", "x1"}), 2, "a GPU index (0, 1, ...) or all");
    expect_one_line(test::run_cli({"--device", "-1"}), 2, "a GPU index");
    expect_one_line(test::run_cli({"--device", "99999"}), 2, "a GPU index");
}

TEST(DeviceCli, DoesNotCombineWithShardOfflineOrPredict) {
    expect_one_line(test::run_cli({"--device", "all", "--shard", "0/2"}), 2,
                    "--device and --shard do not combine");
    expect_one_line(test::run_cli({"--device", "0", "--offline"}), 2, "with --offline");
    expect_one_line(test::run_cli({"--device", "all", "--predict"}), 2, "with --predict");
}

TEST(DeviceCli, EachGpuGoesWithDevice) {
    expect_one_line(test::run_cli({"--each-gpu", "--kernels", "naive", "--sizes", "1024"}), 2,
                    "--each-gpu goes with --device");
    expect_one_line(test::run_cli({"--device", "all", "--each-gpu", "--shard", "0/2"}), 2,
                    "--device and --shard do not combine");
}

TEST(DeviceCli, WithoutAGpuSaysWhy) {
    if (visible_gpu_count() > 0) GTEST_SKIP() << "this machine has a GPU: --device would measure";
    expect_one_line(test::run_cli({"--device", "all", "--kernels", "naive", "--sizes", "1024"}), 1,
                    "--device all: no");
    expect_one_line(test::run_cli({"--device", "all", "--each-gpu", "--sizes", "1024"}), 1,
                    "--device all: no");
}

TEST(DeviceCli, AnIndexBeyondTheNodeIsNamed) {
    const int n = visible_gpu_count();
    if (n == 0) GTEST_SKIP() << "no GPU: the index cannot be checked against a count";
    expect_one_line(test::run_cli({"--device", std::to_string(n)}), 2, "this node shows");
}
