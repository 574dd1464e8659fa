// `fleet` on the command line: a report from two measured profiles of one model, and one line
// with exit code 2 for what it refuses.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/atomic_file.hpp"
#include "run_cli.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace tgemm;

namespace {

const std::string h100 = std::string(TGEMM_SOURCE_DIR) + "/profiles/h100.json";
const std::string h200 = std::string(TGEMM_SOURCE_DIR) + "/profiles/h200.json";

class FleetCli : public test::scratch_dir_test {
  protected:
    FleetCli() : scratch_dir_test("tgemm-fleet-") {}
};

}  // namespace

TEST_F(FleetCli, WritesTheReportOfTwoCards) {
    const auto& d = m_dir;
    const auto out = (d / "fleet.md").string();
    const auto r = test::run_cli({"fleet", h100, h100, "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("2 cards, 0 flagged"), std::string::npos) << r.out;
    const auto md = read_file(out);
    EXPECT_NE(md.find("No card falls more than 5 % below the median"), std::string::npos);
}

TEST_F(FleetCli, ComparesModelsAndRefusesASingleProfileInOneLine) {
    const auto& d = m_dir;
    const auto out = (d / "f.md").string();
    auto r = test::run_cli({"fleet", h100, h100, h200, "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto md = read_file(out);
    EXPECT_NE(md.find("# Fleet report: 3 cards of 2 GPU models"), std::string::npos);
    EXPECT_NE(md.find("## Across models, against the NVIDIA H100 80GB HBM3"), std::string::npos);
    EXPECT_NE(md.find("## h200: one card"), std::string::npos);
    EXPECT_NE(md.find("## Fleet report: 2 cards of NVIDIA H100 80GB HBM3"), std::string::npos);
    r = test::run_cli({"fleet", h100});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    r = test::run_cli({"fleet", h100, h100, "--margin", "0"});
    EXPECT_EQ(r.code, 2) << r.err;
}

// The fleet report committed from the two-GPU node (issue 14, docs/fleet.md) is what `fleet`
// makes of the two profiles committed beside it: everything below the line naming the command.
TEST_F(FleetCli, TheCommittedNodeReportIsTheToolsOutput) {
    const std::string node = std::string(TGEMM_SOURCE_DIR) + "/profiles/fleet/vm-h100x2/";
    const auto committed =
        read_file(std::string(TGEMM_SOURCE_DIR) + "/reports/fleet/vm-h100x2/fleet.md");
    const auto out = (m_dir / "fleet.md").string();
    const auto r = test::run_cli(
        {"fleet", node + "h100.device-0.json", node + "h100.device-1.json", "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("2 cards, 1 flagged"), std::string::npos) << r.out;
    const auto body = [](const std::string& md) { return md.substr(md.find("\n## Flagged")); };
    EXPECT_EQ(body(read_file(out)), body(committed));
    // The one flag: cublas_bf16 at 8192³ on GPU 0 (676 against a mean of 719 TFLOP/s).
    EXPECT_NE(committed.find("| cublas_bf16 8192³ | 676 TFLOP/s | 719 TFLOP/s | 6.0 % |"),
              std::string::npos);
}
