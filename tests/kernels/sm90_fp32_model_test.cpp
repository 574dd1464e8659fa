#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

// These expectations are for rung_config = 128×256×64, warp tile 32×128, 8×16 per lane, 2
// stages, 256 threads, pipe 0 (kernels/sm90_fp32.cuh). The L1 counting rules were measured with
// Nsight Compute on the H100 for BK = 16 and BK = 32 (docs/models/12_sm90_fp32.md).

namespace {

rung_model model_of(const shape& s) {
    return rung_registry::get().find("sm90_fp32").model(s, test::h100());
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
    // 1000×777×333: padded to 1024 rows (8 × 128), 1024 columns (4 × 256), K to 384 (6 × 64).
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::flops),
                     2.0 * 1024 * 1024 * 384 + 3.0 * 1000 * 777);
}

TEST(Sm90Fp32Model, RefinedL1At4096) {
    const auto m = model_of({4096, 4096, 4096});
    // The 16-byte copies count one unit per (128-byte source line, 32-byte shared granule) pair
    // of a warp request. A: a request is 2 rows × 256 bytes (2 source lines each); the rows are
    // 272 bytes apart in shared memory, so the odd one starts 16 bytes into a granule and each of
    // its lines lands in 5 granules: 8 + 10 = 18 units, 64 requests per CTA per K tile. B: 512
    // contiguous, equally aligned bytes, 16 units, 128 requests. (1152 + 2048) × 512 CTAs × 64 K
    // tiles = 104,857,600 units, plus C's float4 reads: 4096 rows × 128 segments of 128 bytes ×
    // 4 sectors = 2,097,152. The same 106,954,752 sectors were measured on the H100 for the
    // BK = 32 configuration, whose 128-byte rows give the same 9 units per 8 sectors.
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_load_bytes), 106'954'752.0 * 32);
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_store_bytes), 2'097'152.0 * 32);
    // cp.async bytes: 16 × 32 = 512 CTAs × 64 K tiles × (128·64 + 64·256)·4 B = 3,221,225,472.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_ldgsts_bytes), 3'221'225'472.0);
}

TEST(Sm90Fp32Model, RefinedL1OddShapes) {
    // 1000×776×332 takes the float4 path with zero-filled edge tiles (A's rows are 1328 bytes
    // apart, so source and destination shift alike and every unit is a sector); 1000×777×333 the
    // 4-byte path, which counts distinct source sectors. For BK = 32 the same rules gave exactly
    // the measured 542,632 and 2,264,772 sectors; BK = 64 reads the same bytes in fewer, wider
    // K tiles: 532,632 and 2,224,772.
    EXPECT_DOUBLE_EQ(at(model_of({1000, 776, 332}), keys::l1_global_load_bytes), 532'632.0 * 32);
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::l1_global_load_bytes), 2'224'772.0 * 32);
    // C alone for the stores: 4-byte stores, lanes 16 bytes apart.
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::l1_global_store_bytes), 438'500.0 * 32);
}

TEST(Sm90Fp32Model, RefinedSharedAt4096) {
    const auto m = model_of({4096, 4096, 4096});
    // Shared loads per warp per K tile: A 16 k-quads × 8 rows = 128 LDS.128, B 64 k × 4 column
    // groups = 256 LDS.128, each packed into 2 wavefronts: 768. 512 × 64 × 8 warps × 768 =
    // 201,326,592 (measured on the H100 for BK = 32, the same count per k).
    EXPECT_DOUBLE_EQ(at(m, keys::smem_load_wavefronts), 201'326'592.0);
    EXPECT_DOUBLE_EQ(at(m, keys::smem_store_wavefronts), 0.0);
}

TEST(Sm90Fp32Model, DramWavesAt4096) {
    // One CTA per SM: 132 per wave over 512 tiles (32 × 16), 4 waves. A: 9 + 9 + 9 + 8 = 35
    // row strips of 2 MiB; B: 4 waves × 16 column strips of 4 MiB; C 64 MiB.
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::dram_read_bytes),
                     35.0 * 2 * 1024 * 1024 + 64.0 * 4 * 1024 * 1024 + 64.0 * 1024 * 1024);
}
