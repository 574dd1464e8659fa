// The work list (core/work_list.hpp): one deterministic order, and shards that partition it.
#include "core/work_list.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"

using namespace tgemm;

namespace {

const std::vector<work_kernel> kernels = {
    {"cublas", false}, {"naive", false}, {"cublas_bf16", true}, {"wgmma_bf16", true}};
const std::vector<shape> shapes = {{1024, 1024, 1024}, {4096, 2048, 1024}, {8192, 8192, 8192}};
const std::vector<shape> tensor_only = {{8192, 8192, 8192}};

}  // namespace

// Shape-major, kernels in their given order, the tensor-only shape for the tensor kernels only;
// made twice, the same.
TEST(WorkList, IsShapeMajorAndDeterministic) {
    const auto list = make_work_list(kernels, shapes, tensor_only);
    ASSERT_EQ(list.size(), 4u + 4u + 2u);
    EXPECT_EQ(list[0], (work_item{0, shapes[0]}));
    EXPECT_EQ(list[3], (work_item{3, shapes[0]}));
    EXPECT_EQ(list[4], (work_item{0, shapes[1]}));
    EXPECT_EQ(list[8], (work_item{2, shapes[2]}));
    EXPECT_EQ(list[9], (work_item{3, shapes[2]}));
    EXPECT_EQ(make_work_list(kernels, shapes, tensor_only), list);
}

// For every n, the shards together hold every item exactly once, each at the position its
// shard says, and their sizes add up.
TEST(WorkList, ShardsPartitionTheList) {
    const auto list = make_work_list(kernels, shapes, tensor_only);
    for (int n = 1; n <= 13; ++n) {
        std::multiset<std::size_t> seen;
        std::size_t total = 0;
        for (int i = 0; i < n; ++i) {
            const shard s{i, n};
            const auto part = shard_of(list, s);
            EXPECT_EQ(part.size(), s.size_of(list.size())) << i << "/" << n;
            total += part.size();
            for (std::size_t j = 0; j < part.size(); ++j) {
                const auto at = s.position(j);
                ASSERT_LT(at, list.size());
                EXPECT_EQ(part[j], list[at]);
                seen.insert(at);
            }
        }
        EXPECT_EQ(total, list.size()) << n;
        for (std::size_t at = 0; at < list.size(); ++at) EXPECT_EQ(seen.count(at), 1u) << n;
    }
}

TEST(WorkList, ParseShard) {
    EXPECT_EQ(parse_shard("0/1"), (shard{0, 1}));
    EXPECT_EQ(parse_shard("3/8"), (shard{3, 8}));
    EXPECT_EQ(to_string(shard{3, 8}), "3/8");
    EXPECT_TRUE(parse_shard("0/1").whole());
    for (const auto* bad : {"x", "3/2", "2/2", "1/0", "-1/2", "1/", "/2", "1/2/3", "1.5/2", ""}) {
        try {
            (void)parse_shard(bad);
            ADD_FAILURE() << "accepted --shard '" << bad << "'";
        } catch (const error& e) {
            EXPECT_EQ(e.kind(), error_kind::usage) << bad;
            EXPECT_NE(std::string(e.what()).find("--shard"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}
