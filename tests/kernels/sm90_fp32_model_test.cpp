#include <gtest/gtest.h>

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

// These expectations are for rung_config = 128×256×16, warp tile 64×64, 8×16 per lane, 3
// stages, 256 threads (kernels/sm90_fp32.cuh).

namespace {

rung_model model_of(const shape& s) {
    return rung_registry::get().find("sm90_fp32").model(s, model_context{});
}
double at(const rung_model& m, std::string_view key) {
    return m.refined.get(key).value();
}

}  // namespace

TEST(Sm90Fp32Model, Textbook) {
    const auto m = model_of({4096, 4096, 4096});
    EXPECT_DOUBLE_EQ(m.textbook.flops, 2.0 * 4096.0 * 4096 * 4096 + 2.0 * 4096 * 4096);
    // (MNK/256 + MNK/128 + 2MN)·4 B.
    const double mnk = 4096.0 * 4096 * 4096;
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes, (mnk / 256 + mnk / 128 + 2.0 * 4096 * 4096) * 4);
    EXPECT_DOUBLE_EQ(*m.textbook.loads_per_output, 4096.0 / 256 + 4096.0 / 128);
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses, mnk * (1.0 / 8 + 1.0 / 16));
}

TEST(Sm90Fp32Model, ExecutedFlopsSquareAndOdd) {
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::flops), 137'489'285'120.0);
    // 1000×777×333: padded to 1024 rows (8 × 128), 1024 columns (4 × 256), K to 336.
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::flops),
                     2.0 * 1024 * 1024 * 336 + 3.0 * 1000 * 777);
}

TEST(Sm90Fp32Model, RefinedL1AndSharedAt4096) {
    const auto m = model_of({4096, 4096, 4096});
    // L1 op_ld sees only C (A and B come by cp.async): 4 lanes × float4 = 64 contiguous bytes
    // per row per instruction, 2 sectors; 4096 rows × 256 groups × 2 = 2,097,152 sectors.
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_load_bytes), 2'097'152.0 * 32);
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_store_bytes), 2'097'152.0 * 32);
    // cp.async bytes: 16 × 32 = 512 CTAs × 256 K tiles × (128·16 + 16·256)·4 B = 3,221,225,472.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_ldgsts_bytes), 3'221'225'472.0);
    // Shared loads per warp per K tile: A 4 k-quads × 8 rows = 32 LDS.128, B 16 k × 4 column
    // groups = 64 LDS.128, each packed into 2 wavefronts: 192. 512 × 256 × 8 warps × 192 =
    // 201,326,592.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_load_wavefronts), 201'326'592.0);
    EXPECT_DOUBLE_EQ(at(m, keys::smem_store_wavefronts), 0.0);
}

TEST(Sm90Fp32Model, DramWavesAt4096) {
    // One CTA per SM: 132 per wave over 512 tiles (32 × 16), 4 waves. A: 9 + 9 + 9 + 8 = 35
    // row strips of 2 MiB; B: 4 waves × 16 column strips of 4 MiB; C 64 MiB.
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::dram_read_bytes),
                     35.0 * 2 * 1024 * 1024 + 64.0 * 4 * 1024 * 1024 + 64.0 * 1024 * 1024);
}
