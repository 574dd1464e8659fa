// `merge` (profile/merge.hpp): a profile split into shards merges back into its rows, in its
// order, whatever order the shards come in; and each refusal is one line naming the files.
#include "profile/merge.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "../render/synthetic_profile.hpp"
#include "core/error.hpp"
#include "profile/profile_file.hpp"

using namespace tgemm;

namespace {

profile whole() {
    auto p = test::synthetic_tensor_profile();
    p.env.work_list = work_list_record{static_cast<std::int64_t>(p.measurements.size()), {}};
    return p;
}

// Shard s of p, as a run with --shard would have written it.
merge_input shard_file(const profile& p, shard s) {
    merge_input in{fmt::format("h100.shard-{}-of-{}.json", s.index, s.count), p};
    auto& rows = in.data.measurements;
    rows.clear();
    for (std::size_t j = 0; s.position(j) < p.measurements.size(); ++j)
        rows.push_back(p.measurements[s.position(j)]);
    in.data.env.work_list = work_list_record{static_cast<std::int64_t>(p.measurements.size()), s};
    in.data.env.host = fmt::format("node-{}", s.index);
    in.data.env.gpu_index = s.index;
    return in;
}

std::vector<merge_input> shards(const profile& p, int n) {
    std::vector<merge_input> out;
    for (int i = 0; i < n; ++i) out.push_back(shard_file(p, {i, n}));
    return out;
}

// The rows without where they were measured.
std::string rows_text(profile p) {
    for (auto& m : p.measurements) m.provenance.reset();
    p.env = {};
    return dump_profile(p);
}

std::string refusal(std::span<const merge_input> in, bool prefer_latest = false) {
    try {
        (void)merge_profiles(in, prefer_latest);
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::input);
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        return what;
    }
    ADD_FAILURE() << "merged";
    return {};
}

void expect_names(const std::string& message, std::initializer_list<std::string> names) {
    for (const auto& n : names) EXPECT_NE(message.find(n), std::string::npos) << message;
}

}  // namespace

TEST(Merge, ShardsMergeBackIntoTheWholeRun) {
    const auto p = whole();
    for (int n : {1, 2, 3, 5, static_cast<int>(p.measurements.size()) + 2}) {
        auto in = shards(p, n);
        std::reverse(in.begin(), in.end());  // the order on the command line does not matter
        const auto r = merge_profiles(in, false);
        EXPECT_TRUE(r.notes.empty()) << n << ": " << r.notes.front();
        EXPECT_EQ(rows_text(r.merged), rows_text(p)) << n;
        EXPECT_EQ(r.merged.env.work_list, p.env.work_list);
        // Every row says where it was measured.
        for (std::size_t j = 0; j < r.merged.measurements.size(); ++j) {
            const auto& pv = r.merged.measurements[j].provenance;
            ASSERT_TRUE(pv) << j;
            EXPECT_EQ(pv->work_index, static_cast<std::int64_t>(j));
            const auto i = static_cast<int>(j) % n;
            EXPECT_EQ(pv->host, fmt::format("node-{}", i));
            EXPECT_EQ(pv->gpu_index, i);
            EXPECT_EQ(pv->shard, n == 1 ? "" : fmt::format("{}/{}", i, n));
        }
    }
}

// A merged profile merges again (its rows carry their positions), here with shards of another
// split; the same rows.
TEST(Merge, MergedProfilesMergeAgain) {
    const auto p = whole();
    auto in = shards(p, 3);
    const auto partial = merge_profiles(std::span(in).first(2), false);
    ASSERT_EQ(partial.notes.size(), 1u);
    EXPECT_NE(partial.notes[0].find("a shard is missing"), std::string::npos);
    const std::vector<merge_input> again = {{"partial.json", partial.merged}, in[2]};
    const auto r = merge_profiles(again, false);
    EXPECT_EQ(rows_text(r.merged), rows_text(p));
    // A merge of it with a file written with the same rows: identical rows kept once, one note.
    const std::vector<merge_input> twice = {{"a.json", r.merged}, {"b.json", r.merged}};
    const auto t = merge_profiles(twice, false);
    ASSERT_EQ(t.notes.size(), 1u);
    expect_names(t.notes[0], {"a.json", "b.json", "identical", "kept once"});
    EXPECT_EQ(rows_text(t.merged), rows_text(p));
}

TEST(Merge, RefusesMixedGpuModels) {
    auto in = shards(whole(), 2);
    in[1].data.gpu.key = "a100";
    in[1].data.gpu.name = "NVIDIA A100-SXM4-80GB";
    expect_names(refusal(in), {in[0].origin, in[1].origin, "h100", "a100", "GPU models"});
}

TEST(Merge, RefusesMixedSchemasAndToolVersions) {
    auto in = shards(whole(), 2);
    in[1].data.schema_minor = 2;
    expect_names(refusal(in), {in[0].origin, in[1].origin, "schema"});
    in = shards(whole(), 2);
    in[1].data.env.tool_version = "0.2.0";
    expect_names(refusal(in), {in[0].origin, in[1].origin, "0.1.0", "0.2.0"});
}

// Two results for one pair: refused, or with --prefer-latest the later one kept and said so.
TEST(Merge, ConflictingDuplicates) {
    const auto p = whole();
    auto in = shards(p, 2);
    auto again = shard_file(p, {0, 2});
    again.origin = "rerun.json";
    again.data.env.date = "2026-11-23T10:00:00Z";
    again.data.measurements[0].time->median_ms *= 1.5;
    in.push_back(again);
    const auto message = refusal(in);
    expect_names(message, {in[0].origin, "rerun.json", "--prefer-latest", "cublas at 1024³"});
    const auto r = merge_profiles(in, true);
    ASSERT_EQ(r.notes.size(), 2u);  // the conflict, and the identical rows kept once
    expect_names(r.notes[0], {"rerun.json", "kept rerun.json's"});
    EXPECT_EQ(r.merged.measurements[0].time->median_ms, p.measurements[0].time->median_ms * 1.5);
    EXPECT_EQ(r.merged.measurements.size(), p.measurements.size());
}

// Shards of runs with different --kernels or --sizes do not merge.
TEST(Merge, RefusesDifferentWorkLists) {
    auto other = whole();
    other.measurements.pop_back();
    other.env.work_list->size -= 1;
    const std::vector<merge_input> in = {shard_file(whole(), {0, 2}), shard_file(other, {1, 2})};
    expect_names(refusal(in), {in[0].origin, in[1].origin, "different work lists"});
    // A shard missing a row.
    auto cut = shard_file(whole(), {1, 2});
    cut.data.measurements.pop_back();
    const std::vector<merge_input> short_shard = {shard_file(whole(), {0, 2}), cut};
    expect_names(refusal(short_shard), {cut.origin, "shard 1/2"});
}

// Each shard measured its own peaks: the first file's are kept, and a note says so.
TEST(Merge, DifferentPeaksKeepTheFirst) {
    auto in = shards(whole(), 2);
    in[1].data.peaks.at("dram").measured = 3.1e12;
    const auto r = merge_profiles(in, false);
    ASSERT_EQ(r.notes.size(), 1u);
    expect_names(r.notes[0], {in[0].origin, in[1].origin, "peaks"});
    EXPECT_EQ(r.merged.peaks.at("dram").measured, in[0].data.peaks.at("dram").measured);
}
