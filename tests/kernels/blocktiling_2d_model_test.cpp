// Rung 08, 2D block tiling (kernels/08_blocktiling_2d.cu): BM = BN = 128, BK = TM = TN = 8,
// 256 threads. Derivations in docs/models/08_blocktiling_2d.md.
#include <gtest/gtest.h>

#include <string>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
rung_model model_of(const shape& s) {
    return rung_registry::get().find("blocktiling_2d").model(s, test::h100());
}
}  // namespace

TEST(Blocktiling2dModel, TextbookIsSeed000) {
    // Seed 000: per result K/64 DRAM and K/4 SMEM accesses.
    for (const std::int64_t k : {512, 4096}) {
        const auto m = model_of(shape{4096, 4096, k});
        const double outputs = 4096.0 * 4096;
        EXPECT_DOUBLE_EQ(m.textbook.global_bytes / 4 / outputs, k / 64.0);
        EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses / outputs, k / 4.0);
    }
    // The seeds' 9 loads per output for 2D tiling: depth 8, a 2×2 block of results.
    EXPECT_DOUBLE_EQ(kernels::reg_tiling::loads_per_output(8, 2, 2), 9);
    // This rung's 8×8 block: K/8 + K/8 + 1 = K/4 + 1.
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).textbook.loads_per_output, 1025);
}

TEST(Blocktiling2dModel, FlopsAreWhatTheKernelExecutes) {
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).refined.get(keys::flops),
                     137438953472.0 + 50331648.0);
    // 1000×777×333: 1024 × 896 outputs in the grid, K rounded up to 8 = 336.
    EXPECT_DOUBLE_EQ(*model_of(shape{1000, 777, 333}).refined.get(keys::flops),
                     2.0 * 1024 * 896 * 336 + 2331000.0);
}

TEST(Blocktiling2dModel, L1SharedAndDramAt4096) {
    const auto r = model_of(shape{4096, 4096, 4096}).refined;
    // A: 32 CTA columns × 4096 rows × 512 pieces × 1 sector = 67,108,864; B: 32 CTA rows ×
    // 4096 × 128 × 4 = 67,108,864; C: one sector per element, 16,777,216, read and written.
    // Nsight Compute measured 4.83 GB for the public kernel of the same tiles (docs/anchors.md).
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_load_bytes),
                     32.0 * (67108864.0 + 67108864.0 + 16777216.0));
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_store_bytes), 32.0 * 16777216);
    // 1024 CTAs × 8 warps × 512 slices = 4,194,304 warp-slices. Loads: 16 LDS.128 of As × 2
    // + 16 LDS.128 of Bs × 8 = 160 wavefronts, 16 × 4 = 64 of them conflicts. Stores: 8.
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_wavefronts), 4194304.0 * 160);  // 0.67 G
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_bank_conflicts), 4194304.0 * 64);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_store_wavefronts), 4194304.0 * 8);
    // 2 CTAs per SM → 4 waves of 264: strips of A (128 rows, 2 MiB) 9 + 9 + 9 + 8 = 35, B 4
    // times, C once (0.43 GB measured for the public kernel). Writes: the last wave's 232 tiles
    // of 64 KiB stay dirty (nothing touched after them), the earlier ones have all of B behind
    // them (64 MiB, over half the L2) and are written.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes), 35.0 * 2097152 + 4.0 * 67108864 + 67108864);
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 232 * 65536.0);
}

TEST(Blocktiling2dModel, CtasAloneOnAnSmMayFinishFirstInAPartFilledWave) {
    // 1024×3072×4096: 8 × 24 = 192 tiles of 128 × 128 (64 KiB of C each), 2 CTAs per SM: one
    // wave, tile j on SM j mod 132, so SMs 0–59 hold two CTAs and SMs 60–131 one. Nothing is read
    // after the wave's tiles: the value writes none (warptiling and sm90_fp32 measured 0.02 MB).
    // A CTA alone on its SM may finish after half the wave (its SM's share of the busiest SMs'
    // work): its tile then has behind it half of what the 120 CTAs on the busiest SMs read (all
    // 24 strips of B and 6 of A, rows 0–2 and 5–7, 2 MiB each, by their readers' share, halved:
    // 29 MiB) and 3/4 of their 7.5 MiB of C, past the measured edge of half the L2 (25 MiB): the
    // 72 lone tiles are written at the high end. Measured 2.9 MB (H100) and 1.7 MB (H200); the
    // traces have the lone CTAs end at 0.70–0.72 of the others' lifetime.
    const auto r = model_of(shape{1024, 3072, 4096}).refined;
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 0);
    const auto* band = r.band(keys::dram_write_bytes);
    ASSERT_NE(band, nullptr);
    EXPECT_DOUBLE_EQ(band->high, 72 * 65536.0);
    EXPECT_NE(band->reason.find("finish first"), std::string::npos) << band->reason;
}
