// Schema 1.3's fleet fields (profile/provenance_json.hpp): the run's work list and shard, the
// GPU's index and UUID, a merged row's provenance; read back as written, absent from older
// profiles, and a bad value named.
#include <gtest/gtest.h>

#include "../render/synthetic_profile.hpp"
#include "core/error.hpp"
#include "profile/profile_file.hpp"
#include "profile_text.hpp"

using namespace tgemm;
using test::with;

namespace {

// The synthetic profile with the SM limits a profile file must hold.
profile readable() {
    return test::readable_synthetic_profile();
}

profile fleet_sample() {
    auto p = readable();
    p.env.gpu_index = 3;
    p.env.gpu_uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";
    p.env.work_list = work_list_record{.size = 14, .part = {2, 4}};
    row_provenance r;
    r.host = "node-7";
    r.gpu_index = 1;
    r.gpu_uuid = "GPU-ffeeddcc-0000-0000-0000-000000000001";
    r.driver = "580.95.05";
    r.date = "2026-11-22T10:00:00Z";
    r.shard = "2/4";
    r.work_index = 6;
    p.measurements[0].provenance = r;
    return p;
}

}  // namespace

TEST(ProvenanceIo, RoundTrips) {
    const auto p = fleet_sample();
    const auto text = dump_profile(p);
    const auto q = parse_profile(text, "mem");
    EXPECT_EQ(q.env.gpu_index, 3);
    EXPECT_EQ(q.env.gpu_uuid, p.env.gpu_uuid);
    EXPECT_EQ(q.env.work_list, p.env.work_list);
    EXPECT_EQ(q.measurements[0].provenance, p.measurements[0].provenance);
    EXPECT_FALSE(q.measurements[1].provenance);
    EXPECT_EQ(dump_profile(q), text);
}

// A whole run records its list's size and no shard.
TEST(ProvenanceIo, WholeRunHasNoShard) {
    auto p = fleet_sample();
    p.env.work_list = work_list_record{.size = 7, .part = {}};
    const auto text = dump_profile(p);
    EXPECT_EQ(text.find("\"shard\": {"), std::string::npos);
    EXPECT_TRUE(parse_profile(text, "mem").env.work_list->part.whole());
}

// A profile before 1.3 has none of them: a whole run, positions by row.
TEST(ProvenanceIo, OlderProfilesHaveNone) {
    auto p = readable();
    p.schema_minor = 2;
    auto text =
        with(dump_profile(p), "profile/1." + std::to_string(profile_schema_minor), "profile/1.2");
    const auto q = parse_profile(text, "old.json");
    EXPECT_EQ(q.schema_minor, 2);
    EXPECT_FALSE(q.env.work_list);
    EXPECT_FALSE(q.env.gpu_index);
    EXPECT_TRUE(q.env.gpu_uuid.empty());
}

TEST(ProvenanceIo, BadValuesAreNamed) {
    const auto text = dump_profile(fleet_sample());
    const auto error_of = [](const std::string& t) { return test::error_of(t, "f.json"); };
    EXPECT_NE(error_of(with(text, "\"index\": 2", "\"index\": 4")).find("env.work_list.shard"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"size\": 14", "\"size\": -1")).find("env.work_list.size"),
              std::string::npos);
    EXPECT_NE(error_of(with(text, "\"work_index\": 6", "\"work_index\": \"6\""))
                  .find("measurements[0].provenance.work_index"),
              std::string::npos);
}
