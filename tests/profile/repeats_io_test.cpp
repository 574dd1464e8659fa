// Schema 1.4's row fields (profile/repeats_json.hpp): the timing noise and the spread over
// --repeat runs, read back as written, absent from older profiles, a bad value named; and the
// checkpoint of a stopped run (profile/partial_profile.hpp), read back as written.
#include <gtest/gtest.h>

#include "../render/synthetic_profile.hpp"
#include "profile/partial_profile.hpp"
#include "profile/profile_file.hpp"
#include "profile_text.hpp"

using namespace tgemm;
using test::with;

namespace {

profile readable() {
    return test::readable_synthetic_profile();
}

profile repeated() {
    auto p = readable();
    auto& m = p.measurements[0];
    m.time->noise = 0.0031;
    m.time->noise_target = 0.005;
    m.time->noise_met = true;
    repeat_summary r;
    r.n = 3;
    r.median_ms = value_spread{1.40, 1.50, 1.60};
    r.counters["dram_read_bytes"] = value_spread{1e9, 1.01e9, 1.02e9};
    m.repeats = r;
    return p;
}

run_identity an_identity() {
    run_identity id;
    id.kernels = {"cublas", "naive"};
    id.sizes = {{1024, 1024, 1024}, {4096, 2048, 1024}};
    id.tensor_sizes = {{8192, 8192, 8192}};
    id.part = {1, 4};
    id.repeat = 3;
    id.counters = false;
    id.peaks = false;
    id.min_runs = 50;
    id.noise_target = 0.002;
    id.max_time_s = 2.5;
    id.gpu = "h100";
    id.gpu_uuid = "GPU-0123";
    id.tool_version = "0.1.0";
    return id;
}

}  // namespace

TEST(RepeatsIo, RoundTrips) {
    const auto p = repeated();
    const auto text = dump_profile(p);
    EXPECT_NE(text.find("\"spread\": 0.13333"), std::string::npos);  // (1.6 − 1.4) / 1.5
    const auto q = parse_profile(text, "mem");
    const auto& t = *q.measurements[0].time;
    EXPECT_EQ(t.noise, 0.0031);
    EXPECT_EQ(t.noise_target, 0.005);
    EXPECT_EQ(t.noise_met, true);
    EXPECT_EQ(q.measurements[0].repeats, p.measurements[0].repeats);
    EXPECT_FALSE(q.measurements[1].repeats);
    EXPECT_FALSE(q.measurements[1].time->noise);
    EXPECT_EQ(dump_profile(q), text);
}

// A 1.3 profile (the shipped ones) has neither: it reads, and says nothing about noise.
TEST(RepeatsIo, OlderProfilesHaveNone) {
    auto text = with(dump_profile(readable()), "profile/1." + std::to_string(profile_schema_minor),
                     "profile/1.3");
    const auto q = parse_profile(text, "old.json");
    EXPECT_EQ(q.schema_minor, 3);
    for (const auto& m : q.measurements) {
        EXPECT_FALSE(m.repeats);
        if (m.time) {
            EXPECT_FALSE(m.time->noise_met);
        }
    }
}

TEST(RepeatsIo, BadValuesAreNamed) {
    const auto text = dump_profile(repeated());
    const auto error_of = [](const std::string& t) { return test::error_of(t, "f.json"); };
    const auto expect = [&](const std::string& from, const std::string& to,
                            const std::string& want) {
        const auto what = error_of(with(text, from, to));
        EXPECT_NE(what.find(want), std::string::npos) << what;
        EXPECT_NE(what.find("f.json"), std::string::npos) << what;
    };
    expect("\"noise\": 0.0031", "\"noise\": -1",
           "measurements[0].time_ms.noise: must be at least 0");
    expect("\"noise_target\": 0.005", "\"noise_target\": 0",
           "time_ms.noise_target: must be above 0");
    expect("\"noise_met\": true", "\"noise_met\": 1", "time_ms.noise_met: expected true or false");
    expect("\"n\": 3", "\"n\": 0", "measurements[0].repeats.n: expected a whole number from 1");
    expect("\"min\": 1.4", "\"min\": 1.55",
           "repeats.time_ms_median: expected min <= median <= max");
    expect("\"max\": 1020000000.0", "\"max\": \"big\"",
           "repeats.counters.dram_read_bytes.max: expected a number");
}

TEST(PartialProfileIo, RoundTrips) {
    partial_profile p;
    p.done = repeated();
    p.identity = an_identity();
    p.peaks_pending = true;
    p.later_runs = {{p.done.measurements[0], p.done.measurements[1]}, {}};
    const auto text = dump_partial(p);
    const auto q = parse_partial(text, "h100.json.partial");
    EXPECT_EQ(q.identity, p.identity);
    EXPECT_TRUE(q.peaks_pending);
    ASSERT_EQ(q.later_runs.size(), 2u);
    EXPECT_EQ(q.later_runs[0].size(), 2u);
    EXPECT_EQ(dump_partial(q), text);
    // A profile reader takes the file as the profile of the pairs measured so far.
    EXPECT_EQ(parse_profile(text, "x").measurements.size(), p.done.measurements.size());
    EXPECT_EQ(partial_path_for("profiles/h100.json"), "profiles/h100.json.partial");
}

TEST(PartialProfileIo, BadCheckpointsAreNamed) {
    partial_profile p;
    p.done = readable();
    p.identity = an_identity();
    const auto text = dump_partial(p);
    const auto error_of = [](const std::string& t) {
        try {
            (void)parse_partial(t, "h100.json.partial");
        } catch (const error& e) {
            EXPECT_EQ(e.kind(), error_kind::input);
            return std::string(e.what());
        }
        ADD_FAILURE() << "accepted";
        return std::string();
    };
    EXPECT_NE(
        error_of(dump_profile(p.done)).find("h100.json.partial: profile: missing key 'checkpoint'"),
        std::string::npos);
    EXPECT_NE(error_of(with(text, "\"format\": 1", "\"format\": 2")).find("checkpoint.format"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"shard\": \"1/4\"", "\"shard\": \"4/4\""))
                  .find("checkpoint.identity.shard"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"repeat\": 3", "\"repeat\": 0")).find("identity.repeat"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"8192\"", "\"0\"")).find("identity.tensor_sizes"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"cupti_ranges\": \"user\"", "\"cupti_ranges\": \"auto\""))
                  .find("identity.cupti_ranges: expected \"user\" or \"kernel\""),
              std::string::npos);
    // A checkpoint written before --cupti-ranges counted in user ranges.
    const auto old = parse_partial(with(text, "\"cupti_ranges\": \"user\",", ""), "old.partial");
    EXPECT_EQ(old.identity.counted_ranges, "user");
}

TEST(PartialProfileIo, IdentityDifferencesAreNamed) {
    const auto a = an_identity();
    EXPECT_FALSE(identity_difference(a, a));
    auto b = a;
    b.sizes = {{1024, 1024, 1024}};
    EXPECT_EQ(*identity_difference(a, b),
              "--sizes: 1024,4096x2048x1024 in the file, 1024 in this command");
    b = a;
    b.noise_target = 0.005;
    EXPECT_EQ(*identity_difference(a, b),
              "--noise-target: 0.2 % in the file, 0.5 % in this command");
    b = a;
    b.part = {};
    EXPECT_EQ(*identity_difference(a, b), "--shard: 1/4 in the file, 0/1 in this command");
    b = a;
    b.repeat = 1;
    EXPECT_EQ(*identity_difference(a, b), "--repeat: 3 in the file, 1 in this command");
    b = a;
    b.counted_ranges = "kernel";
    EXPECT_EQ(*identity_difference(a, b),
              "--cupti-ranges: user in the file, kernel in this command");
}
