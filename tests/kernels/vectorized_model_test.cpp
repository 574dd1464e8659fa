#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

rung_model model_of(const shape& s) {
    return rung_registry::get().find("vectorized").model(s, test::h100());
}
double at(const rung_model& m, std::string_view key) {
    return m.refined.get(key).value();
}

}  // namespace

TEST(VectorizedModel, TextbookReproducesSeed000) {
    const auto m = model_of({4096, 4096, 4096});
    EXPECT_DOUBLE_EQ(m.textbook.flops, 2.0 * 4096.0 * 4096 * 4096 + 2.0 * 4096 * 4096);
    // (2MNK/128 + 2MN)·4 B with BM = BN = 128.
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes,
                     (2.0 * 4096.0 * 4096 * 4096 / 128 + 2.0 * 4096 * 4096) * 4);
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes, 4'429'185'024.0);
    // Seed 000: "Memory accesses per result: K/64 DRAM, K/4 SRAM".
    EXPECT_DOUBLE_EQ(*m.textbook.loads_per_output, 4096.0 / 64);
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses / (4096.0 * 4096), 4096.0 / 4);
}

TEST(VectorizedModel, ExecutedFlopsSquareAndOdd) {
    // 2·FFMA + FMUL = 2MNK + 3MN when the tiles divide the shape.
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::flops), 137'489'285'120.0);
    EXPECT_DOUBLE_EQ(at(model_of({1024, 1024, 1024}), keys::flops),
                     2.0 * 1024 * 1024 * 1024 + 3.0 * 1024 * 1024);
    // 1000×777×333: the padded grid is 1024 × 896 threads' outputs, K runs to 336:
    // 2·1024·896·336 + 3·1000·777 = 616,562,688 + 2,331,000.
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::flops), 618'893'688.0);
}

TEST(VectorizedModel, RefinedL1AndSharedAt4096) {
    const auto m = model_of({4096, 4096, 4096});
    // L1 sectors. 32 × 32 CTAs, 512 K steps.
    //  A: per CTA per step 128 rows × 32 B = 1 sector each; 4096 rows × 512 steps × 32 CTA
    //     columns = 67,108,864 sectors.
    //  B: per CTA per step 8 rows × 512 B = 16 sectors each; every row of B (512 sectors) is
    //     read once per CTA row: 4096 rows × 512 × 32 = 67,108,864 sectors.
    //  C: 16 lanes 32 B apart, float4 each: 16 sectors per instruction, 2 instructions cover a
    //     128-float row segment: 4096 rows × 32 segments × 32 = 4,194,304 sectors.
    //  (67,108,864·2 + 4,194,304)·32 B = 4,429,185,024 B (Nsight Compute on the public
    //  vectorized kernel: 4.43 GB).
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_load_bytes), 4'429'185'024.0);
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_store_bytes), 4'194'304.0 * 32);
    // Shared loads, per warp per k: A 2 LDS.128 × 2 wavefronts (lanes 0–15 one address, 16–31
    // another: packed) + B 2 LDS.128 × 8 (quarters of 8 lanes 32 B apart, lanes t and t+4 in one
    // bank group) = 20. 1024 CTAs × 8 warps × 4096 k × 20 = 671,088,640 (Nsight Compute on the
    // public vectorized kernel: 0.67 G).
    EXPECT_DOUBLE_EQ(at(m, keys::smem_load_wavefronts), 671'088'640.0);
    // Shared stores, per warp per K step: A 4 STS.32 × 2 (16 rows in 16 banks, two words each)
    // + B 1 STS.128 × 4 = 12. 1024 × 8 × 512 × 12 = 50,331,648.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_store_wavefronts), 50'331'648.0);
}

TEST(VectorizedModel, DramWavesAt4096) {
    // 110 registers × 256 threads: 2 CTAs per SM, 264 per wave, 4 waves. A: 35 row strips of
    // 2 MiB; B: 4 waves × 32 column strips of 2 MiB; C 64 MiB.
    const auto m = model_of({4096, 4096, 4096});
    EXPECT_DOUBLE_EQ(at(m, keys::dram_read_bytes), (35.0 + 128.0 + 32.0) * 2 * 1024 * 1024);
}

TEST(VectorizedModel, ScalarFallbackCostsMoreSectors) {
    // N = 777 is not a multiple of 4: four 4-byte loads per float4.
    const auto odd = model_of({1000, 777, 333});
    const auto even = model_of({1000, 776, 332});
    EXPECT_GT(at(odd, keys::l1_global_load_bytes), at(even, keys::l1_global_load_bytes));
    // Shared traffic does not depend on the path: same tiles, same stores and loads.
    EXPECT_DOUBLE_EQ(at(odd, keys::smem_load_wavefronts), at(even, keys::smem_load_wavefronts));
}
