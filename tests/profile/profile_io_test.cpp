#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "profile_text.hpp"

using namespace tgemm;
using test::error_of;
using test::with;
namespace fs = std::filesystem;

namespace {

profile sample() {
    profile p;
    p.gpu = {.key = "h100",
             .name = "NVIDIA H100 80GB HBM3",
             .cc = "9.0",
             .sm_count = 132,
             .fp32_lanes_per_sm = 128,
             .sm_clock_mhz = 1980,
             .mem_clock_mhz = 2619,
             .bus_width_bits = 5120,
             .l2_bytes = 52428800,
             .limits = sm_limits_cc90,
             .limits_source = "device attributes"};
    p.gpu.limits.smem_per_cta_optin = 232448;
    p.env = {.tool_version = "0.1.0",
             .driver = "580.159.04",
             .cuda = "13.0",
             .command = "tgemm-roofline --gpu h100",
             .date = "2026-11-22T13:00:00Z",
             .host = "x",
             .gpu_index = 0,
             .gpu_uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff",
             .work_list = work_list_record{.size = 2, .part = {}}};
    p.peaks["fp32"].theoretical = 66.9e12;
    p.peaks["fp32"].unit = "FLOP/s";
    p.peaks["fp32"].method = "spec";
    p.peaks["dram"].theoretical = 3.35e12;
    p.peaks["dram"].measured = 3.0e12;
    p.peaks["dram"].unit = "B/s";
    p.peaks["dram"].method = "x";
    p.peaks["dram"].measured_by = "read kernel";
    p.peaks["fp32"].clock_mhz = 1755;
    p.peaks["fp32"].theoretical_at_clock = 59.3e12;
    p.peaks["fp32"].note = "why";
    measurement m;
    m.kernel = "naive";
    m.size = {1024, 1024, 1024};
    m.alpha = 0.5f;
    m.beta = 3.0f;
    m.verified = true;
    m.verify_max_error = 0.01;
    m.time = timing{};
    m.time->median_ms = 1.5;
    m.time->min_ms = 1.4;
    m.time->max_ms = 1.9;
    m.time->runs = 20;
    m.counters[std::string(keys::flops)] = 2150629376;
    m.counters[std::string(keys::dram_read_bytes)] = 12582912;
    m.counter_passes = 3;
    m.model.textbook = {.flops = 2149580800,
                        .global_bytes = 8598323200,
                        .formula = "f",
                        .loads_per_output = 2048,
                        .smem_accesses = std::nullopt};
    m.model.refined.flops = 2150629376;
    m.model.refined.tma_multicast_bytes = 4096;
    m.model.refined.notes = {"a note"};
    p.measurements.push_back(m);
    measurement skipped = m;
    skipped.kernel = "smem_tiling";
    skipped.verified = false;
    skipped.time.reset();
    skipped.counters.clear();
    skipped.skipped = "verification failed: ...";
    p.measurements.push_back(skipped);
    return p;
}

fs::path temp_dir() {
    auto d = fs::temp_directory_path() / ("tgemm-profile-test-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST(ProfileIo, RoundTripsEveryField) {
    const auto p = sample();
    const auto text = dump_profile(p);
    const auto q = parse_profile(text, "mem");
    EXPECT_EQ(dump_profile(q), text);
    ASSERT_EQ(q.measurements.size(), 2u);
    EXPECT_EQ(q.measurements[0].counter(keys::flops), 2150629376);
    EXPECT_EQ(q.measurements[0].model.refined.flops, 2150629376);
    EXPECT_EQ(q.measurements[0].model.refined.tma_multicast_bytes, 4096);
    EXPECT_FALSE(q.measurements[0].model.refined.l2_bytes);   // not predicted: absent
    EXPECT_FALSE(q.measurements[0].counter(keys::l2_bytes));  // absent, not 0
    EXPECT_EQ(q.peaks.at("dram").measured, 3.0e12);
    EXPECT_FALSE(q.peaks.at("fp32").measured);
    EXPECT_EQ(q.peaks.at("dram").measured_by, "read kernel");
    EXPECT_EQ(q.peaks.at("fp32").clock_mhz, 1755);
    EXPECT_EQ(q.peaks.at("fp32").theoretical_at_clock, 59.3e12);
    EXPECT_EQ(q.peaks.at("fp32").note, "why");
    EXPECT_FALSE(q.peaks.at("dram").clock_mhz);
    EXPECT_EQ(*q.measurements[1].skipped, "verification failed: ...");
    EXPECT_NE(text.find("\"schema\": \"tgemm-roofline/profile/1.4\""), std::string::npos);
}

TEST(ProfileIo, NullCounterMeansNotCollected) {
    const auto text = with(dump_profile(sample()), "\"dram_read_bytes\": 12582912.0",
                           "\"dram_read_bytes\": null");
    EXPECT_FALSE(parse_profile(text, "x").measurements[0].counter(keys::dram_read_bytes));
}

TEST(ProfileIo, CorruptFilesNameTheProblem) {
    const auto good = dump_profile(sample());
    EXPECT_NE(error_of("{ not json").find("bad.json: not valid JSON"), std::string::npos);
    EXPECT_NE(error_of(good.substr(0, good.size() / 2)).find("not valid JSON"), std::string::npos);
    EXPECT_NE(
        error_of(with(good, "profile/1.4", "profile/2.0")).find("version 2.0 is not supported"),
        std::string::npos);
    EXPECT_NE(error_of(with(good, "\"sm_count\": 132,", "")).find("missing key 'sm_count'"),
              std::string::npos);
    EXPECT_NE(error_of(with(good, "\"dram_read_bytes\": 12582912.0", "\"dram_read_bytes\": -1"))
                  .find("measurements[0].counters.dram_read_bytes"),
              std::string::npos);
    EXPECT_NE(
        error_of(with(good, "\"median\": 1.5", "\"median\": 9.5")).find("min <= median <= max"),
        std::string::npos);
    EXPECT_NE(
        error_of(with(good, "\"verified\": true", "\"verified\": false")).find("not verified"),
        std::string::npos);
    EXPECT_NE(error_of("[]").find("not a JSON object"), std::string::npos);
    EXPECT_NE(error_of(with(good, "\"source\": \"measured\"", "\"source\": \"guessed\""))
                  .find("'guessed'"),
              std::string::npos);
}

TEST(ProfileIo, MissingFileIsAnInputError) {
    try {
        (void)read_profile("/nonexistent/p.json");
        FAIL();
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::input);
        EXPECT_NE(std::string(e.what()).find("/nonexistent/p.json"), std::string::npos);
    }
}

TEST(ProfileIo, WritingKeepsThePreviousProfile) {
    const auto dir = temp_dir();
    const auto path = dir / "h100.json";
    fs::remove_all(dir);
    auto p = sample();
    EXPECT_FALSE(write_profile(path, p).has_value());
    p.measurements.pop_back();
    const auto kept = write_profile(path, p);
    ASSERT_TRUE(kept.has_value());
    EXPECT_TRUE(fs::exists(*kept));
    EXPECT_EQ(read_profile(*kept).measurements.size(), 2u);  // the old one, intact
    EXPECT_EQ(read_profile(path).measurements.size(), 1u);
    const auto kept2 = write_profile(path, p);  // same date: a distinct name, nothing lost
    ASSERT_TRUE(kept2.has_value());
    EXPECT_NE(*kept, *kept2);
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos);
    fs::remove_all(dir);
}

TEST(ProfileIo, UnwritableFolderIsAUsageError) {
    try {
        (void)write_profile("/proc/tgemm-cannot/h100.json", sample());
        FAIL();
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
        EXPECT_NE(std::string(e.what()).find("/proc/tgemm-cannot"), std::string::npos);
    }
}

// A refined key that this tool has no field for (written by a newer tool) is skipped, like any
// unknown field; the keys it knows still arrive.
TEST(ProfileIo, UnknownRefinedKeysAreSkipped) {
    const auto text =
        with(dump_profile(sample()), "\"notes\": [", "\"a_future_counter\": 5.0,\n\"notes\": [");
    const auto q = parse_profile(text, "mem");
    EXPECT_EQ(q.measurements[0].model.refined.flops, 2150629376);
    EXPECT_FALSE(q.measurements[0].model.refined.get("a_future_counter"));
}

// Schema 1.2 stores the SM limits the models were computed with, read back as written.
TEST(ProfileIo, SmLimitsRoundTrip) {
    auto p = sample();
    p.gpu.limits.ctas_per_sm = 24;  // not the table's, so it must come from the file
    const auto q = parse_profile(dump_profile(p), "mem");
    EXPECT_EQ(q.gpu.limits, p.gpu.limits);
    EXPECT_EQ(q.gpu.limits_source, "device attributes");
}

// A 1.1 profile has no SM limits: they come from the spec database by the GPU's key (or its
// compute capability), with the opt-in shared memory the file does record.
TEST(ProfileIo, OlderProfilesTakeTheSmLimitsFromTheSpecDatabase) {
    auto text = with(dump_profile(sample()), "profile/1.4", "profile/1.1");
    const auto at = text.find(",\n    \"sm_limits\"");
    ASSERT_NE(at, std::string::npos);
    text.erase(at, text.find('}', at) + 1 - at);
    const auto q = parse_profile(text, "old.json");
    EXPECT_EQ(q.schema_minor, 1);
    auto want = sm_limits_cc90;
    want.smem_per_cta_optin = 232448;
    EXPECT_EQ(q.gpu.limits, want);
    EXPECT_TRUE(q.gpu.limits_source.starts_with("not in the profile")) << q.gpu.limits_source;
    // An unknown GPU of a known compute capability: the capability's row.
    const auto r = parse_profile(with(with(text, "\"key\": \"h100\"", "\"key\": \"gh200\""),
                                      "\"cc\": \"9.0\"", "\"cc\": \"8.0\""),
                                 "old.json");
    EXPECT_EQ(r.gpu.limits.smem_per_sm, sm_limits_cc80.smem_per_sm);
    // Neither: unknown, and a model asked to run on it says so.
    const auto u = parse_profile(with(with(text, "\"key\": \"h100\"", "\"key\": \"x\""),
                                      "\"cc\": \"9.0\"", "\"cc\": \"7.5\""),
                                 "old.json");
    EXPECT_FALSE(u.gpu.limits.known());
}
