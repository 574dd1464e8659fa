// Rung 07, 1D block tiling (kernels/07_blocktiling_1d.cu): BM = BN = 64, BK = 8, TM = 8,
// 512 threads. Derivations in docs/models/07_blocktiling_1d.md.
#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
rung_model model_of(const shape& s) {
    return rung_registry::get().find("blocktiling_1d").model(s, test::h100());
}
}  // namespace

TEST(Blocktiling1dModel, TextbookIsTheSeedsCount) {
    const auto m = model_of(shape{4096, 4096, 4096});
    // Global per output K/BN + K/BM = K/32 = 128 loads; shared per output K + K/TM = 4608.
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes / (4.0 * 4096 * 4096), 128);
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses / (4096.0 * 4096), 4608);
    // The seeds' 11 loads per output for 1D tiling: depth 8, a column of 4 results.
    EXPECT_DOUBLE_EQ(kernels::reg_tiling::loads_per_output(8, 4, 1), 11);
    // This rung's column of TM = 8 at the same depth: 8 + 1 + 1.
    EXPECT_DOUBLE_EQ(*model_of(shape{64, 64, 8}).textbook.loads_per_output, 10);
}

TEST(Blocktiling1dModel, FlopsAreWhatTheKernelExecutes) {
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).refined.get(keys::flops),
                     137438953472.0 + 50331648.0);
    // 1000×777×333: 1024 × 832 outputs in the grid, K rounded up to 8 = 336.
    EXPECT_DOUBLE_EQ(*model_of(shape{1000, 777, 333}).refined.get(keys::flops),
                     2.0 * 1024 * 832 * 336 + 2331000.0);
}

TEST(Blocktiling1dModel, L1SharedAndDramAt4096) {
    const auto r = model_of(shape{4096, 4096, 4096}).refined;
    // A: 64 CTA columns × 4096 rows × 512 pieces × 1 sector; B: 64 CTA rows × 4096 rows ×
    // 128 pieces × 4 sectors; C: 2,097,152 read and written. Nsight Compute measured 8.66 GB
    // for the public kernel of the same tiles (docs/anchors.md).
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_load_bytes),
                     32.0 * (134217728.0 + 134217728.0 + 2097152.0));
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_store_bytes), 32.0 * 2097152);
    // 4096 CTAs × 16 warps × 512 slices = 33,554,432 warp-slices; 16 LDS.128 × 2 + 8 LDS.32
    // = 40 load wavefronts and 2 store wavefronts each (1.34 G measured for the public kernel).
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_wavefronts), 33554432.0 * 40);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_store_wavefronts), 33554432.0 * 2);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_bank_conflicts), 0);
    // 2 CTAs per SM → 16 waves of 264. Strips of A (64 rows, 1 MiB): 5 per wave for 15 waves,
    // 3 in the last: 78. B 16 times; C once (1.22 GB measured for the public kernel). Writes:
    // after the last wave's 136 tiles (4096 = 15·264 + 136) nothing is touched, so they stay
    // dirty in L2 (0.75 × 136 × 16 KiB, under half the L2); behind every earlier tile lies all of
    // B (64 MiB, over half the L2 of 25 MiB), so those are written: C less 136 tiles of 16 KiB.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes), 78.0 * 1048576 + 16.0 * 67108864 + 67108864);
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 136 * 16384.0);
}
