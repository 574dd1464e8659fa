// The arithmetic of the measured peaks, without a GPU: clocks, medians, rates, the merge into a
// profile and the 3 % rule.
#include "analysis/peak_checks.hpp"

#include <gtest/gtest.h>

#include <array>

#include "core/error.hpp"

using namespace tgemm;

namespace {

std::string fmt_name(std::string_view key) {
    return "tgemm_peak_" + std::string(key);
}

roof theoretical_roof(double value, std::string unit) {
    roof r;
    r.theoretical = value;
    r.unit = std::move(unit);
    return r;
}

// A GPU at 2000 MHz with an FP32 roof of 100 TFLOP/s and a DRAM roof of 4 TB/s.
profile two_roofs() {
    profile p;
    p.gpu.key = "test";
    p.gpu.name = "Test GPU";
    p.gpu.sm_clock_mhz = 2000;
    p.peaks[std::string(roofs::fp32)] = theoretical_roof(100e12, "FLOP/s");
    p.peaks[std::string(roofs::dram)] = theoretical_roof(4e12, "B/s");
    return p;
}

measured_peak peak(std::string_view key, double value, std::string unit,
                   std::optional<double> clock) {
    measured_peak m;
    m.key = std::string(key);
    m.value = value;
    m.unit = std::move(unit);
    m.measured_by = fmt_name(key);
    m.clock_mhz = clock;
    return m;
}

measured_peak fp32_at(double value, std::optional<double> clock) {
    return peak(roofs::fp32, value, "FLOP/s", clock);
}

}  // namespace

// 1.8e6 cycles in 1e6 ns is 1800 MHz; 2e6 in 1e6 is 2000; the mean is 1900. Samples with no
// time or no cycles do not count.
TEST(PeakChecks, ClockIsTheMeanOfCyclesPerNanosecond) {
    const std::array<clock_sample, 4> s{clock_sample{1.8e6, 1e6}, clock_sample{2e6, 1e6},
                                        clock_sample{5e6, 0}, clock_sample{0, 1e6}};
    ASSERT_TRUE(average_clock_mhz(s));
    EXPECT_DOUBLE_EQ(*average_clock_mhz(s), 1900.0);
    EXPECT_FALSE(average_clock_mhz(std::span<const clock_sample>{}));
    EXPECT_FALSE(average_clock_mhz(std::span(s).subspan(2)));
}

TEST(PeakChecks, MedianAndRate) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_THROW((void)median({}), error);
    // 2 GiB in 0.5 ms is 2^31 / 5e-4 B/s.
    EXPECT_DOUBLE_EQ(per_second(2147483648.0, 0.5), 4294967296000.0);
    EXPECT_THROW((void)per_second(1, 0), error);
}

TEST(PeakChecks, MergeRescalesSmClockedRoofsOnly) {
    auto p = two_roofs();
    const std::array<measured_peak, 2> m{fp32_at(80e12, 1800),
                                         peak(roofs::dram, 3e12, "B/s", 1800)};
    EXPECT_TRUE(merge_measured_peaks(p, m).empty());
    const auto& f = p.peaks.at("fp32");
    EXPECT_EQ(f.measured, 80e12);
    EXPECT_EQ(f.measured_by, "tgemm_peak_fp32");
    EXPECT_EQ(f.clock_mhz, 1800.0);
    EXPECT_DOUBLE_EQ(*f.theoretical_at_clock, 90e12);  // 100 T × 1800 / 2000
    EXPECT_DOUBLE_EQ(*f.ratio(), 80.0 / 90.0);
    EXPECT_TRUE(f.note.empty());
    const auto& d = p.peaks.at("dram");
    EXPECT_EQ(d.measured, 3e12);
    EXPECT_FALSE(d.clock_mhz);  // DRAM does not run on the SM clock
    EXPECT_FALSE(d.theoretical_at_clock);
    EXPECT_DOUBLE_EQ(*d.ratio(), 0.75);
    EXPECT_TRUE(peak_consistency_problems(p).empty());
}

// 4 % above the theoretical at the measured clock: merge writes a note naming that reference
// and the excess; stripped of it, the check reports the roof.
TEST(PeakChecks, FourPercentExcessIsNotedAndReportedWithoutTheNote) {
    auto p = two_roofs();
    const std::array<measured_peak, 1> m{fp32_at(93.6e12, 1800)};  // 90 T × 1.04
    EXPECT_TRUE(merge_measured_peaks(p, m).empty());
    auto& f = p.peaks.at("fp32");
    EXPECT_NE(f.note.find("theoretical at the measured clock"), std::string::npos) << f.note;
    EXPECT_NE(f.note.find("by 4.0 %"), std::string::npos) << f.note;
    EXPECT_TRUE(peak_consistency_problems(p).empty());

    f.note.clear();
    const auto problems = peak_consistency_problems(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("'fp32'"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("4.0 %"), std::string::npos) << problems[0];
}

// Without a clock the reference is the theoretical at the maximum clock, and the note says so.
TEST(PeakChecks, ExcessOverTheMaximumClockTheoreticalSaysWhichReference) {
    auto p = two_roofs();
    const std::array<measured_peak, 1> m{fp32_at(104e12, std::nullopt)};
    EXPECT_TRUE(merge_measured_peaks(p, m).empty());
    const auto& f = p.peaks.at("fp32");
    EXPECT_FALSE(f.theoretical_at_clock);
    EXPECT_NE(f.note.find("theoretical at the maximum SM clock"), std::string::npos) << f.note;
    EXPECT_NE(f.note.find("by 4.0 %"), std::string::npos) << f.note;
}

TEST(PeakChecks, ExcessOfTwoPointNinePercentIsAccepted) {
    auto p = two_roofs();
    const std::array<measured_peak, 1> m{fp32_at(90e12 * 1.029, 1800)};
    EXPECT_TRUE(merge_measured_peaks(p, m).empty());
    EXPECT_TRUE(p.peaks.at("fp32").note.empty());
    EXPECT_TRUE(peak_consistency_problems(p).empty());
}

// A measurement's own caveat is kept, and an excess is appended to it.
TEST(PeakChecks, CaveatIsKeptBesideTheExcess) {
    auto p = two_roofs();
    auto m = fp32_at(95e12, 1800);
    m.note = "caveat";
    EXPECT_TRUE(merge_measured_peaks(p, std::span(&m, 1)).empty());
    const auto& note = p.peaks.at("fp32").note;
    EXPECT_EQ(note.rfind("caveat; measured exceeds", 0), 0u) << note;
}

TEST(PeakChecks, MissingTheoreticalGivesAWarningAndAddsNothing) {
    auto p = two_roofs();
    const std::array<measured_peak, 1> m{peak(roofs::l2, 7e12, "B/s", 1800)};
    const auto w = merge_measured_peaks(p, m);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("l2"), std::string::npos) << w[0];
    EXPECT_NE(w[0].find("no theoretical"), std::string::npos) << w[0];
    EXPECT_EQ(p.peaks.size(), 2u);
    EXPECT_FALSE(p.peaks.contains("l2"));
}

TEST(PeakChecks, ClockWithoutTheoreticalAtClockIsReported) {
    auto p = two_roofs();
    p.peaks.at("dram").clock_mhz = 1500;
    const auto problems = peak_consistency_problems(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("'dram'"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("1500 MHz"), std::string::npos) << problems[0];
}
