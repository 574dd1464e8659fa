// The L2's totals (kernels/l2_totals.hpp, docs/models/l2.md "The totals") on hand-computed cases.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "l2_totals.hpp"
#include "l2_traffic.hpp"
#include "model/levels.hpp"
#include "model_notes.hpp"

using namespace tgemm;
using kernels::add_l2_totals;
using kernels::add_l2_traffic;
using kernels::l2_operands;
using test::has_note;

namespace {
constexpr double mib = 1024.0 * 1024.0;
const shape s2048{2048, 2048, 2048};  // FP32: A, B and C 16 MiB each

// A 2048³ FP32 row that reads `reads` from DRAM, stores `stored` at L1 (`distinct` of it in
// distinct sectors, where given) and whose L1 forwards `requested` to the L2, through the L2
// traffic and totals models of a two-partition L2 whose coalescer serves at most `fanout`
// requests per response (4: Hopper's; 0: not known).
refined_model fp32_2048(double reads, double stored, std::optional<double> requested,
                        std::optional<double> distinct = std::nullopt, int fanout = 4) {
    refined_model r;
    r.dram_read_bytes = reads;
    r.l1_global_store_bytes = stored;
    r.distinct_store_bytes = distinct;
    r.l2_requested_bytes = requested;
    const l2_operands e{4, 4};
    add_l2_traffic(r, s2048, e, 2);
    add_l2_totals(r, s2048, e, 2, fanout);
    return r;
}
}  // namespace

// smem_tiling's 32 × 32 tiles at 2048³: 4096 CTAs, each forwarding its strips of A and B
// (32 × 2048 × 4 B each) and its tile of C, 2064 MiB. Reads: that (none merged) plus the fabric's
// reads, the fabric (A + B once, half of C's read and half of its store: 48 MiB) less its store
// part (half of C, 8 MiB); all bytes add the writes (1.5 × C). Low end: a response serves at most
// 4 requests for its sector, so at least a quarter of the 2064 MiB reach the L2, 516 MiB (more
// than the 48 MiB of distinct sectors of A, B and C).
TEST(L2Totals, SmemTilingAt2048) {
    const double requested = 4096 * (2 * 32 * 2048 * 4.0 + 32 * 32 * 4.0);
    ASSERT_DOUBLE_EQ(requested, 2064 * mib);
    const auto r = fp32_2048(48 * mib, 16 * mib, requested);
    EXPECT_DOUBLE_EQ(*r.l2_fabric_bytes, 48 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_read_bytes, 2064 * mib + 40 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_bytes, 2064 * mib + 40 * mib + 24 * mib);
    ASSERT_TRUE(r.l2_read_band);
    EXPECT_DOUBLE_EQ(r.l2_read_band->low, 516 * mib + 40 * mib);
    EXPECT_DOUBLE_EQ(r.l2_read_band->high, *r.l2_read_bytes);
    ASSERT_TRUE(r.l2_band);
    EXPECT_DOUBLE_EQ(r.l2_band->low, 516 * mib + 40 * mib + 24 * mib);
    EXPECT_DOUBLE_EQ(r.l2_band->high, *r.l2_bytes);
    EXPECT_FALSE(r.l2_coalesced_bytes);  // the merges themselves: no value
    EXPECT_TRUE(has_note(r, "L2 totals:"));
}

// Partial-sector stores (4 requests per sector of C): the ends of the write band carry into the
// totals, and the fabric's reads are the same at both ends (its store part moves with the
// writes).
TEST(L2Totals, PartialStoresWidenTheBand) {
    const auto r = fp32_2048(48 * mib, 64 * mib, 2064 * mib);
    ASSERT_TRUE(r.l2_write_band);
    ASSERT_TRUE(r.l2_fabric_band);
    // Fabric: A + B + half of C's read, 40 MiB, at both ends; the store part 8 … 32 MiB.
    EXPECT_DOUBLE_EQ(*r.l2_read_bytes, 2064 * mib + 40 * mib);
    EXPECT_DOUBLE_EQ(r.l2_read_band->low, 516 * mib + 40 * mib);
    EXPECT_DOUBLE_EQ(*r.l2_bytes, 2064 * mib + 40 * mib + 96 * mib);
    EXPECT_DOUBLE_EQ(r.l2_band->low, 516 * mib + 40 * mib + 24 * mib);
    EXPECT_NE(r.l2_band->reason.find("bands of the requests, writes and fabric"),
              std::string::npos);
}

// A GPU whose coalescer's fan-out is not known (the A100's, the RTX 5070 Ti's): the low end lets
// it merge every request but one per distinct sector of A, B and C (48 MiB).
TEST(L2Totals, UnknownFanoutMergesAllButOnePerSector) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 2064 * mib, std::nullopt, 0);
    EXPECT_DOUBLE_EQ(r.l2_read_band->low, 48 * mib + 40 * mib);
    EXPECT_NE(r.l2_read_band->reason.find("all but one per distinct sector"), std::string::npos);
}

// Where requests / fanout is less than the distinct sectors (a grid of few tiles, each strip read
// by fewer CTAs than the fan-out), the distinct sectors are the low end: 64 MiB asked for, a
// quarter of it 16 MiB, the distinct sectors 48 MiB.
TEST(L2Totals, LowEndAtLeastTheDistinctSectors) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 64 * mib);
    EXPECT_DOUBLE_EQ(r.l2_read_band->low, 48 * mib + 40 * mib);
}

// Where L1 forwards less than the distinct sectors (a model that counts the requests of part of
// the traffic), the low end is that count, not more than the value.
TEST(L2Totals, LowEndNeverAboveTheRequests) {
    const auto r = fp32_2048(48 * mib, 16 * mib, 32 * mib);
    EXPECT_DOUBLE_EQ(r.l2_read_band->low, *r.l2_read_bytes);
}

// A rung with no model of what its L1 forwards gets no totals, and says so.
TEST(L2Totals, NoRequestModelNoTotals) {
    const auto r = fp32_2048(48 * mib, 16 * mib, std::nullopt);
    EXPECT_FALSE(r.l2_read_bytes);
    EXPECT_FALSE(r.l2_bytes);
    EXPECT_FALSE(r.band(keys::l2_bytes));
    EXPECT_TRUE(has_note(r, "L2 totals: not modelled"));
}

// A GPU whose L2 partitions are not known: no fabric, so no totals either.
TEST(L2Totals, UnknownPartitionsNoTotals) {
    refined_model r;
    r.dram_read_bytes = 48 * mib;
    r.l1_global_store_bytes = 16 * mib;
    r.l2_requested_bytes = 2064 * mib;
    add_l2_traffic(r, s2048, l2_operands{4, 4}, 0);
    add_l2_totals(r, s2048, l2_operands{4, 4}, 0, 4);
    EXPECT_FALSE(r.l2_bytes);
}
