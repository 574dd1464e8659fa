// `tgemm-roofline peaks`, in-process: its help, and its one-line failure without a GPU. With a
// GPU present the failure test skips (tests/collect/peaks_test.cpp measures there).
#include <gtest/gtest.h>

#include <sstream>

#include "cli/app.hpp"
#include "collect/device.hpp"
#include "run_cli.hpp"

namespace {

using result = tgemm::test::cli_result;

result run(std::vector<std::string> args) {
    return tgemm::test::run_cli(std::move(args));
}
int lines(const std::string& s) {
    return tgemm::test::count_lines(s);
}

}  // namespace

TEST(PeaksCmd, HelpNamesTheCommandAndItsJsonFlag) {
    const auto r = run({"peaks", "--help"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("peaks"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("micro-benchmarks"), std::string::npos) << r.out;
    // The main help lists the command and the main command's --no-peaks.
    const auto main_help = run({"--help"});
    EXPECT_NE(main_help.out.find("peaks"), std::string::npos) << main_help.out;
    EXPECT_NE(main_help.out.find("--no-peaks"), std::string::npos) << main_help.out;
}

TEST(PeaksCmd, UnknownFlagIsAUsageError) {
    const auto r = run({"peaks", "--jsn"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST(PeaksCmd, WithoutAGpuFailsWithTheReasonOnOneLine) {
    const auto probe = tgemm::probe_local_device();
    if (probe.device) GTEST_SKIP() << "this machine has a GPU (" << probe.device->info.name << ")";
    for (const auto& args :
         {std::vector<std::string>{"peaks"}, std::vector<std::string>{"peaks", "--json"}}) {
        const auto r = run(args);
        EXPECT_EQ(r.code, 1);
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(probe.why_none), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}
