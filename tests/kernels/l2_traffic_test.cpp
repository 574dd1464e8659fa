// The L2 traffic model (kernels/l2_traffic.hpp, docs/models/l2.md) on hand-computed cases.
#include <gtest/gtest.h>

#include <optional>

#include "l2_traffic.hpp"
#include "model_notes.hpp"
#include "tensor/tma_l2_promotion.hpp"

using namespace tgemm;
using kernels::add_l2_traffic;
using kernels::l2_operands;
using test::has_note;

namespace {
constexpr double mib = 1024.0 * 1024.0;
const shape s2048{2048, 2048, 2048};  // FP32: A, B and C 16 MiB each

// A 2048³ FP32 row whose model reads `reads` from DRAM and stores `stored` at L1 (`distinct` of
// it in distinct sectors, where given), through the L2 traffic model with `partitions`.
refined_model fp32_2048(double reads, double stored, int partitions,
                        std::optional<double> distinct = std::nullopt) {
    refined_model r;
    r.dram_read_bytes = reads;
    r.l1_global_store_bytes = stored;
    r.distinct_store_bytes = distinct;
    add_l2_traffic(r, s2048, l2_operands{4, 4}, partitions);
    return r;
}
}  // namespace

// Whole-sector stores of C once, operands read once: writes 1.5 × C; fabric A + B (the other
// partition brings each line once) + half of C's read and half of its write.
TEST(L2Traffic, TwoPartitionsWholeSectorStores) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 2);
    EXPECT_DOUBLE_EQ(*r.l2_write_bytes, 24 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 32 * mib + 8 * mib + 8 * mib);
    EXPECT_FALSE(r.l2_write_band);
    EXPECT_FALSE(r.l2_fabric_band);
    EXPECT_TRUE(has_note(r, "L2 writes:"));
    EXPECT_TRUE(has_note(r, "L2 fabric:"));
}

// One partition: nothing crosses, each store counted once.
TEST(L2Traffic, OnePartitionHasNoFabric) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 1);
    EXPECT_DOUBLE_EQ(*r.l2_write_bytes, 16 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 0);
}

// Four store requests per sector of C: writes between 1.5 × C (merged) and 1.5 × 4C (not).
TEST(L2Traffic, PartialSectorStoresGiveABand) {
    const auto r = fp32_2048(48 * mib, 64 * mib, 2);
    ASSERT_TRUE(r.l2_write_band);
    EXPECT_DOUBLE_EQ(r.l2_write_band->low, 24 * mib);
    EXPECT_DOUBLE_EQ(r.l2_write_band->high, 96 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_write_bytes, 96 * mib);
    ASSERT_TRUE(r.l2_fabric_band);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->low, 32 * mib + 8 * mib + 8 * mib);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->high, 32 * mib + 8 * mib + 32 * mib);
    EXPECT_TRUE(has_note(r, "L2 band:"));
}

// A and B read from DRAM twice over: a refill may serve only the partition that missed, so the
// low end crosses half of them.
TEST(L2Traffic, ReReadOperandsLowerTheFabricsLowEnd) {
    const auto r = fp32_2048(80 * mib, 16 * mib, 2);  // A and B 64 MiB, C 16
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 64 * mib + 16 * mib);
    ASSERT_TRUE(r.l2_fabric_band);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->low, 32 * mib + 16 * mib);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->high, 64 * mib + 16 * mib);
}

// TMA loads through the ladder's maps, which promote L2 fills to 256 bytes
// (tensor/tma_l2_promotion.hpp): A's and B's DRAM reads cross once more for half of them. No
// band: whole-sector stores, A and B read once.
TEST(L2Traffic, TmaLoadsThroughPromotedMapsAddHalfTheOperandReads) {
    static_assert(tensor::tma_l2_promotion_bytes == 256);
    const shape s{2048, 2048, 2048};
    refined_model r;
    r.dram_read_bytes = 24 * mib;  // BF16: A, B, C 8 MiB each
    r.tma_load_bytes = 256 * mib;
    r.l2_requested_bytes = 264 * mib;
    r.l1_global_store_bytes = 8 * mib;
    add_l2_traffic(r, s, l2_operands{2, 2}, 2);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 16 * mib + 8 * mib + 8 * mib);
    EXPECT_FALSE(r.l2_fabric_band);
    EXPECT_TRUE(has_note(r, "L2 fabric:"));
}

// Multicast TMA loads: the high end has every request for a far line cross (half of what the SMs
// request and store), with the promotion's share.
TEST(L2Traffic, TmaMulticastRaisesTheFabricsHighEnd) {
    const shape s{2048, 2048, 2048};
    refined_model r;
    r.dram_read_bytes = 24 * mib;
    r.tma_load_bytes = 256 * mib;
    r.tma_multicast_bytes = 128 * mib;
    r.l2_requested_bytes = 264 * mib;
    r.l1_global_store_bytes = 8 * mib;
    add_l2_traffic(r, s, l2_operands{2, 2}, 2);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 32 * mib);
    ASSERT_TRUE(r.l2_fabric_band);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->low, 32 * mib);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->high, 0.5 * (264 + 8) * mib + 8 * mib);
}

// Unknown partitions, or no store model (cuBLAS): nothing predicted, never a guess.
TEST(L2Traffic, NothingWithoutPartitionsOrStores) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 0);
    EXPECT_FALSE(r.l2_write_bytes);
    EXPECT_FALSE(r.l2_fabric_bytes);
    EXPECT_TRUE(has_note(r, "L2 traffic: not modelled"));
    refined_model lib;
    lib.dram_read_bytes = 48 * mib;
    add_l2_traffic(lib, s2048, l2_operands{4, 4}, 2);
    EXPECT_FALSE(lib.l2_write_bytes);
    EXPECT_FALSE(lib.l2_fabric_bytes);
}

// A rung that counts the distinct sectors its stores touch sets the write band's low end: C
// stored twice over in half sectors, plus 8 MiB of whole-sector sums (stream-K's) that cannot
// merge: between 1.5 × (C + 8 MiB) and 1.5 × (2C + 8 MiB).
TEST(L2Traffic, DistinctStoresAreTheWriteBandsLowEnd) {
    const auto r = fp32_2048(48 * mib, 40 * mib, 2, 24 * mib);
    ASSERT_TRUE(r.l2_write_band);
    EXPECT_DOUBLE_EQ(r.l2_write_band->low, 36 * mib);
    EXPECT_DOUBLE_EQ(r.l2_write_band->high, 60 * mib);
    // Every store distinct: no band, though more bytes are stored than C holds.
    const auto whole = fp32_2048(48 * mib, 24 * mib, 2, 24 * mib);
    EXPECT_FALSE(whole.l2_write_band);
    EXPECT_DOUBLE_EQ(*whole.l2_write_bytes, 36 * mib);
}

// 8192×768×2048 FP32 in tiles 128 wide: a grid 6 tiles wide, fewer than the shortest run of CTAs
// measured on one partition, so A's share of the operands' DRAM reads (A 64 MiB of the 70 MiB)
// may cross half as often: low end 70 − 0.5 × 64 + 0.5 × (24 + 24) = 62 MiB, value 70 + 24.
// 1024 wide (8 tiles): no band.
TEST(L2Traffic, ANarrowGridLowersTheFabricsLowEnd) {
    static_assert(kernels::shortest_one_side_run == 8);
    const shape s{8192, 768, 2048};
    refined_model r;
    r.dram_read_bytes = 94 * mib;  // A 64, B 6, C 24 MiB, each once
    r.l1_global_store_bytes = 24 * mib;
    add_l2_traffic(r, s, l2_operands{4, 4, 128}, 2);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 70 * mib + 24 * mib);
    ASSERT_TRUE(r.l2_fabric_band);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->low, 70 * mib - 0.5 * 64 * mib + 24 * mib);
    EXPECT_DOUBLE_EQ(r.l2_fabric_band->high, 94 * mib);
    const shape wide{8192, 1024, 2048};
    refined_model w;
    w.dram_read_bytes = (64 + 8 + 32) * mib;
    w.l1_global_store_bytes = 32 * mib;
    add_l2_traffic(w, wide, l2_operands{4, 4, 128}, 2);
    EXPECT_FALSE(w.l2_fabric_band);
}
