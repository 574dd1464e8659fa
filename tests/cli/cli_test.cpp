// The command line, in-process: every bad input gives one line and a non-zero exit. None of
// these needs a GPU; on a machine with one, --offline keeps them from measuring.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "run_cli.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;

namespace {

using result = tgemm::test::cli_result;

result run(std::vector<std::string> args) {
    return tgemm::test::run_cli(std::move(args));
}
int lines(const std::string& s) {
    return tgemm::test::count_lines(s);
}

class Cli : public tgemm::test::scratch_dir_test {
  protected:
    Cli() : scratch_dir_test("tgemm-cli-") {}
};

void expect_one_line_error(const result& r, const std::string& needle) {
    EXPECT_NE(r.code, 0);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace

TEST_F(Cli, UnknownGpuSuggestsTheClosest) {
    const auto r = run({"--gpu", "nosuch", "--offline", "--out", m_dir.string()});
    expect_one_line_error(r, "unknown GPU 'nosuch'");
    EXPECT_EQ(r.code, 2);
    expect_one_line_error(run({"--gpu", "h10", "--offline"}), "did you mean 'h100'");
}

TEST_F(Cli, BadSizesAreRejected) {
    expect_one_line_error(run({"--gpu", "a100", "--sizes", "0", "--out", m_dir.string()}),
                          "size '0' must be positive");
    expect_one_line_error(run({"--gpu", "a100", "--sizes=-3", "--out", m_dir.string()}),
                          "size '-3' must be positive");
    // CLI11 reads a bare "-3" as an option, not as the value of --sizes: still one line, exit 2.
    const auto dash = run({"--gpu", "a100", "--sizes", "-3", "--out", m_dir.string()});
    EXPECT_EQ(dash.code, 2);
    EXPECT_EQ(lines(dash.err), 1) << dash.err;
    expect_one_line_error(run({"--gpu", "a100", "--sizes", "x", "--out", m_dir.string()}),
                          "size 'x' must be N or MxNxK");
    expect_one_line_error(run({"--gpu", "a100", "--sizes", "12a", "--out", m_dir.string()}),
                          "size '12a' is not a number");
    EXPECT_TRUE(fs::is_empty(m_dir));  // nothing written on bad input
}

TEST_F(Cli, UnknownKernelSuggestsTheClosest) {
    expect_one_line_error(run({"--gpu", "a100", "--kernels", "naiv", "--out", m_dir.string()}),
                          "did you mean 'naive'");
}

TEST_F(Cli, ReportOfACorruptFileNamesIt) {
    const auto bad = m_dir / "corrupt.json";
    std::ofstream(bad) << "{ \"schema\": \"tgemm-roofline/profile/1.0\", ";
    const auto r = run({"report", bad.string(), "--out", (m_dir / "out").string()});
    expect_one_line_error(r, bad.string());
    EXPECT_EQ(r.code, 2);
    EXPECT_FALSE(fs::exists(m_dir / "out" / "report.md"));
    expect_one_line_error(run({"report", (m_dir / "missing.json").string()}), "does not exist");
}

TEST_F(Cli, PredictedReportForAGpuWithoutProfile) {
    const auto out = m_dir / "a100";
    const auto r = run({"--gpu", "a100", "--out", out.string(), "--profile",
                        (m_dir / "none.json").string(), "--sizes", "1024"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("PREDICTED"), std::string::npos) << r.err;
    ASSERT_TRUE(fs::exists(out / "report.md"));
    ASSERT_TRUE(fs::exists(out / "roofline.png"));
    std::ifstream in(out / "report.md");
    std::stringstream md;
    md << in.rdbuf();
    EXPECT_NE(md.str().find("PREDICTED"), std::string::npos);
}

TEST_F(Cli, UnwritableOutputFolder) {
    expect_one_line_error(run({"--gpu", "a100", "--out", "/proc/tgemm-no"}), "/proc/tgemm-no");
}

TEST_F(Cli, ListsAndVersion) {
    auto r = run({"list", "kernels"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("smem_tiling"), std::string::npos);
    r = run({"list", "gpus", "--tsv"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("a100\t"), std::string::npos);
    r = run({"list", "metrics", "--tsv"});
    EXPECT_NE(r.out.find("dram_read_bytes\tdram__bytes_read.sum"), std::string::npos);
    expect_one_line_error(run({"list", "widgets"}), "widgets");
    r = run({"--version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("tgemm-roofline 0."), std::string::npos);
    r = run({"--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--gpu"), std::string::npos);
}

TEST_F(Cli, RunKernelRejectsBadInputBeforeTheGpu) {
    expect_one_line_error(run({"run-kernel", "--kernel", "nosuch"}), "unknown kernel 'nosuch'");
    expect_one_line_error(run({"run-kernel", "--kernel", "naive", "--size", "0"}),
                          "must be positive");
    expect_one_line_error(run({"run-kernel", "--kernel", "nosuch", "--flush", "--profiler-range"}),
                          "unknown kernel 'nosuch'");
}

TEST_F(Cli, ReportSummaryPrintsTheBenchmarkTable) {
    const auto shipped = std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json";
    const auto r = run({"report", shipped, "--summary"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("| cublas"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("%)"), std::string::npos) << r.out;
}

// The executable holds the ladder and nothing a test registers (the dummy rung of
// tests/dummy_rung/ lives in its own test binary).
TEST(CliExecutable, HasNoTestRung) {
    const std::string cmd = std::string(TGEMM_BINARY) + " list kernels";
    FILE* pipe = ::popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr) << cmd;
    std::string out;
    char buf[4096];
    while (const auto n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    EXPECT_EQ(::pclose(pipe), 0) << cmd;
    EXPECT_NE(out.find("naive "), std::string::npos) << out;
    EXPECT_EQ(out.find("dummy"), std::string::npos) << out;
}
