// Where the L2 write model's one unknown sits (kernels/l2_traffic.hpp, docs/models/l2.md "The
// SMs' stores on their way to L2"): Nsight Compute along the store path of 15 rungs at 2048³ and
// 1000×776×328 (a shape in neither shipped profile), on the H100 and the H200
// (docs/validation/{h100,h200}-l2-store-path.csv). Runs in CI without a GPU.
//
// What it shows, asserted below: the L2 counts exactly what the SMs' L1s forward, once at the
// SM's partition and once more at the line's home for half of it, so the model's (1 + (P-1)/P) ×
// holds to the sector; every partial-sector store that merges does so inside L1, before the
// crossbar; and how many merge differs from rung to rung (none for bf16_mma, most for warptiling),
// which is the L2 write band.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "model/levels.hpp"
#include "model/rung_model.hpp"
#include "shipped_profiles.hpp"
#include "validation_csv.hpp"

using namespace tgemm;

namespace {

constexpr double sector = 32;

struct store_path_row {
    std::string kernel;
    std::string size;
    // Sectors: what LSU stores touch at L1, what L1 sends to the crossbar, what the L2 counts
    // from the SMs, from the other partition, and in all.
    double l1_store = 0, l1_to_xbar = 0, l2_tex_write = 0, l2_fabric_write = 0, l2_write = 0;
};

std::vector<store_path_row> store_path_rows(const std::string& gpu) {
    std::vector<store_path_row> rows;
    for (const auto& r : test::read_validation_csv(gpu + "-l2-store-path.csv"))
        rows.push_back({r.text("kernel"), r.text("size"), r.number("l1_store"),
                        r.number("l1_to_xbar"), r.number("l2_tex_write"),
                        r.number("l2_fabric_write"), r.number("l2_write")});
    return rows;
}

// What a counted window holds beside the kernel's own writes: 0.03 MB on most rows, up to 0.9 MB
// where the kernel writes C back to DRAM within it (naive_uncoalesced at 2048³); the issue's
// floor for small write counts.
constexpr double window_sectors = 1e6 / sector;

}  // namespace

TEST(L2StorePath, TheL2CountsWhatL1ForwardsOnceMoreAtTheHome) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = model_context_for(test::shipped(gpu).gpu);
        const double far = double(mc.l2_partitions - 1) / mc.l2_partitions;
        const auto rows = store_path_rows(gpu);
        ASSERT_EQ(rows.size(), 30u) << gpu;
        for (const auto& row : rows) {
            const auto where = gpu + " " + row.kernel + " at " + row.size;
            const auto pred =
                rung_registry::get().find(row.kernel).model(parse_shape(row.size), mc).refined;
            // The model's stores are what L1 counts (LSU) or what TMA writes (bf16_cluster).
            const double stored = pred.l1_global_store_bytes.value_or(0) / sector;
            const double tma = pred.tma_store_bytes.value_or(0) / sector;
            EXPECT_EQ(row.l1_store, stored) << where;
            // What reaches the L2 from the SMs: L1's forwarded sectors within 2 % (the largest
            // difference, blocktiling_2d at 2048³ on the H100, is 1.55 %), plus the TMA stores.
            const double from_sms = row.l1_to_xbar + tma;
            EXPECT_NEAR(row.l2_tex_write, from_sms, 0.02 * from_sms) << where;
            // The far partition's share: (P - 1) / P of it, within 2 % (a window's few thousand
            // sectors at the small shape).
            EXPECT_NEAR(row.l2_fabric_write, far * row.l2_tex_write, 0.02 * far * row.l2_tex_write)
                << where;
            EXPECT_NEAR(row.l2_write, (1 + far) * row.l2_tex_write, window_sectors) << where;
        }
    }
}

// The L2 write model's band is the L1's merging: its ends are every sector of C once (all
// merged) and every stored sector (none), × (1 + (P-1)/P). Where L1 forwards less than it
// stored, the model gives a band and the measured writes lie in it; where it forwards all, the
// value is exact. The share merged, printed, spans none to most.
TEST(L2StorePath, PartialStoresMergeInsideL1AndOnlyThere) {
    double least = 1, most = 0;
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = model_context_for(test::shipped(gpu).gpu);
        for (const auto& row : store_path_rows(gpu)) {
            if (row.l1_store == 0) continue;  // TMA stores: whole boxes, nothing to merge
            const auto where = gpu + " " + row.kernel + " at " + row.size;
            const auto s = parse_shape(row.size);
            const auto pred = rung_registry::get().find(row.kernel).model(s, mc).refined;
            const double c = double(s.m) * double(s.n) *
                             element_bytes(rung_registry::get().find(row.kernel).types.c) / sector;
            const double measured = row.l2_write * sector;
            ASSERT_TRUE(pred.l2_write_bytes) << where;
            if (const auto* band = pred.band(keys::l2_write_bytes)) {
                EXPECT_GE(measured, 0.98 * band->low) << where;
                EXPECT_LE(measured, 1.02 * band->high) << where;
                const double merged = (row.l1_store - row.l1_to_xbar) / (row.l1_store - c);
                std::printf("%s %-18s %-13s L1 stores %.2f x C, forwarded %.3f x C: %.2f merged\n",
                            gpu.c_str(), row.kernel.c_str(), row.size.c_str(), row.l1_store / c,
                            row.l1_to_xbar / c, merged);
                least = std::min(least, merged);
                most = std::max(most, merged);
            } else {
                EXPECT_NEAR(row.l1_to_xbar, row.l1_store, 0.01 * row.l1_store) << where;
                EXPECT_NEAR(measured, *pred.l2_write_bytes, 0.02 * *pred.l2_write_bytes) << where;
            }
        }
    }
    EXPECT_LT(least, 0.01);  // bf16_mma, bf16_wgmma, bf16_ws, naive_uncoalesced: none merged
    EXPECT_GT(most, 0.9);    // warptiling: 0.93
}
