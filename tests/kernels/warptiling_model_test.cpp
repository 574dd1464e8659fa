#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include <string>

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

rung_model model_of(const shape& s) {
    return rung_registry::get().find("warptiling").model(s, test::h100());
}
double at(const rung_model& m, std::string_view key) {
    return m.refined.get(key).value();
}

}  // namespace

TEST(WarptilingModel, SeedThreadCountIdentities) {
    // Seed 003: warps per block = BM·BN/(WM·WN); 32 threads per warp = WM·WN/(TM·TN); its
    // kernel 05 table: 128 threads, WM = 32, WN = 128, TM = 16, TN = 8.
    const auto& c = *rung_registry::get().find("warptiling").config;
    EXPECT_EQ(c.tile_m * c.tile_n / (c.warp_m * c.warp_n), 4);
    EXPECT_EQ(c.warp_m * c.warp_n / (c.thread_m * c.thread_n), 32);
    EXPECT_EQ(c.threads, 32 * c.tile_m * c.tile_n / (c.warp_m * c.warp_n));
    EXPECT_EQ(c.threads, 128);
    EXPECT_EQ(c.warp_m, 32);
    EXPECT_EQ(c.warp_n, 128);
    EXPECT_EQ(c.thread_m, 16);
    EXPECT_EQ(c.thread_n, 8);
}

TEST(WarptilingModel, Textbook) {
    const auto m = model_of({4096, 4096, 4096});
    EXPECT_DOUBLE_EQ(m.textbook.flops, 2.0 * 4096.0 * 4096 * 4096 + 2.0 * 4096 * 4096);
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes,
                     (2.0 * 4096.0 * 4096 * 4096 / 128 + 2.0 * 4096 * 4096) * 4);
    EXPECT_DOUBLE_EQ(*m.textbook.loads_per_output, 4096.0 / 64);
    // Per thread per k: TM + TN = 24 shared loads for TM·TN = 128 outputs.
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses, 4096.0 * 4096 * 4096 * 24 / 128);
}

TEST(WarptilingModel, ExecutedFlopsSquareAndOdd) {
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::flops), 137'489'285'120.0);
    // 1000×777×333: padded to 1024 × 896, K to 336 (21 steps of 16).
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::flops),
                     2.0 * 1024 * 896 * 336 + 3.0 * 1000 * 777);
}

TEST(WarptilingModel, RefinedL1AndSharedAt4096) {
    const auto m = model_of({4096, 4096, 4096});
    // L1: A in 64-byte row pieces (2 sectors per row per K step), B in 512-byte pieces: each
    // costs its 64 MiB once per CTA column/row, 32 × 2,097,152 = 67,108,864 sectors. C: 16 lanes
    // 32 B apart per row: 2 instructions × 16 sectors per 128 floats, 4096 × 1024 sectors.
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_load_bytes), (2 * 67'108'864.0 + 4'194'304) * 32);
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_store_bytes), 4'194'304.0 * 32);
    // Shared loads per warp per k: A 4 LDS.128 × 2 (lanes 0–15 one row, 16–31 another: packed)
    // + B 2 LDS.128 × 8 (16 lanes 32 B apart, no pairs: quarters with a 2-way conflict) = 24.
    // 1024 CTAs × 4 warps × 4096 k × 24 = 402,653,184.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_load_wavefronts), 402'653'184.0);
    // Shared stores per warp per K step: A 16 STS.32 × 4 (8 rows per warp, four words per bank)
    // + B 4 STS.128 × 4 = 80. 1024 × 4 × 256 × 80 = 83,886,080.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_store_wavefronts), 83'886'080.0);
}

TEST(WarptilingModel, DramWavesAt4096) {
    // 177 registers × 128 threads: 2 CTAs per SM, 264 per wave, as for the vectorized rung.
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::dram_read_bytes),
                     (35.0 + 128.0 + 32.0) * 2 * 1024 * 1024);
}
