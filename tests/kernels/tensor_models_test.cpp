// The refined models of the tensor-core rungs 13–17 at shapes worked out by hand in the
// comments (docs/models/13_17_tensor.md has the same derivations). The calibration against
// Nsight Compute is tensor_calibration_test.cpp.
#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/tensor_traffic.hpp"
#include "tensor/ws_schedule.hpp"

using namespace tgemm;
using namespace tgemm::kernels::tensor_model;

namespace {

using test::h100;
constexpr double mib = 1024.0 * 1024.0;

}  // namespace

TEST(TensorModels, WmmaRaggedShapeByHand) {
    // 1000×776×328: 8 × 7 CTAs of 128×128 (M padded to 1024, N to 896), 11 K steps of 32 (352).
    const auto c = model_bf16_wmma({1000, 776, 328}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 2.0 * 1024 * 896 * 352);
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 645'922'816.0);
    EXPECT_DOUBLE_EQ(*c.refined.ffma,
                     776'000.0);  // guarded epilogue: one FMUL and one FFMA per output
    EXPECT_DOUBLE_EQ(*c.refined.fmul, 776'000.0);
    EXPECT_DOUBLE_EQ(*c.refined.fadd, 0.0);
    // Shared loads. Per warp and K step 2 k16 × 6 fragments × four 32-bit loads, each one
    // wavefront (rows 80 bytes = 20 words apart: 20g mod 32 + t covers all 32 banks; B's rows
    // 272 bytes = 68 words: 4g + t): 48. 56 CTAs × 11 × 8 warps × 48 = 236,544. Epilogue: one
    // 64-bit load per warp and row, 2 wavefronts for 32 lanes; per row of C 6 full column tiles
    // × 2 warps × 2 + the last tile's 8 columns (lanes 0-3 of one warp: 1) = 25; 1000 rows:
    // 25,000.
    EXPECT_DOUBLE_EQ(*c.refined.smem_load_wavefronts, 236'544.0 + 25'000.0);
    // Shared stores. Per warp and K step: A 2 × 16-byte stores, 4 quarter-warp passes of two
    // 64-byte rows 80 bytes apart, which share 4 banks: 2 wavefronts each, 16; B 2 × 4 passes of
    // 128 contiguous bytes, 8. 56 × 11 × 8 × 24 = 118,272. Accumulators: 8 fragments × four
    // 64-bit stores × 2 half-warp passes × 2 (rows of 68 floats: lanes 4 apart meet): 128 per
    // warp, 56 × 8 × 128 = 57,344.
    EXPECT_DOUBLE_EQ(*c.refined.smem_store_wavefronts, 118'272.0 + 57'344.0);
    EXPECT_DOUBLE_EQ(*c.refined.smem_ldsm_wavefronts, 0.0);
    // L1 sectors. A's rows are 656 bytes apart (16 mod 32): a full K step's 64 bytes of a row
    // cost 2 sectors on even rows and 3 on odd ones; 10 full steps and a last one of 16 bytes (1):
    // 26 per row on average, × 1000 rows × 7 column tiles = 182,000. B's rows 1552 bytes apart:
    // per k row 6 column tiles of 256 bytes (8 or 9 sectors) + 16 bytes (1) = 52 on average, ×
    // 328 rows × 8 row tiles = 136,448. C: per row 12 segments of 128 bytes (4 or 5) + 16 bytes
    // (1): 55 on average, 55,000.
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_load_bytes, (182'000.0 + 136'448.0 + 55'000.0) * 32);
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_store_bytes, 55'000.0 * 32);
    // Everything fits in L2: A, B and C once, no write-back.
    EXPECT_DOUBLE_EQ(*c.refined.dram_read_bytes, 2.0 * (1000.0 * 328 + 328.0 * 776 + 1000.0 * 776));
    EXPECT_DOUBLE_EQ(*c.refined.dram_write_bytes, 0.0);
}

TEST(TensorModels, MmaAt2048ByHand) {
    // 16 × 16 CTAs of 128×128, 64 K tiles of 32, 4 warps of 64×64.
    const auto c = model_bf16_mma({2048, 2048, 2048}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 2.0 * 2048 * 2048 * 2048);
    // Per warp and K tile 2 k16 × (4 ldmatrix.x4 of A + 4 .x4.trans of B), 4 wavefronts each
    // through the swizzles: 64. 256 × 64 × 4 × 64 = 4,194,304, no conflicts.
    EXPECT_DOUBLE_EQ(*c.refined.smem_ldsm_wavefronts, 4'194'304.0);
    EXPECT_DOUBLE_EQ(*c.refined.smem_ldsm_bank_conflicts, 0.0);
    EXPECT_DOUBLE_EQ(*c.refined.smem_load_wavefronts, 4'194'304.0);
    EXPECT_DOUBLE_EQ(*c.refined.smem_store_wavefronts, 0.0);
    // cp.async: 256 CTAs × 64 K tiles × (128·32 + 32·128)·2 B.
    EXPECT_DOUBLE_EQ(*c.refined.smem_ldgsts_bytes, 268'435'456.0);
    // L1: A and B 128 rows × 64 bytes = 256 units per CTA and K tile each (the swizzle moves whole
    // 32-byte granules), 256 × 64 × 256 = 4,194,304 each; C read as 8 rows × 64 bytes per request
    // (a quad's lanes 16 bytes each, acc_store.cuh), rows 4096 bytes apart: whole sectors,
    // 2048·2048·2/32 = 262,144.
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_load_bytes, (2 * 4'194'304.0 + 262'144.0) * 32);
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_store_bytes, 262'144.0 * 32);
    EXPECT_DOUBLE_EQ(*c.refined.distinct_store_bytes, 8 * mib);
    // L2 sees A and B's sectors and C's 8 MiB once.
    EXPECT_DOUBLE_EQ(*c.refined.l2_requested_bytes, 2 * 4'194'304.0 * 32 + 8 * mib);
    // A + B = 16 MiB fit in half the L2: A, B, C read once; 24 MiB in all: no write-back.
    EXPECT_DOUBLE_EQ(*c.refined.dram_read_bytes, 24 * mib);
    EXPECT_DOUBLE_EQ(*c.refined.dram_write_bytes, 0.0);
}

TEST(TensorModels, MmaDramWavesAt4096) {
    // 242 registers × 128 threads: 2 CTAs per SM, 264 per wave; 32 × 32 tiles in 4 waves of
    // 8.25 rows of tiles: A 9 + 9 + 9 + 8 = 35 strips of 1 MiB, B 4 × 32 strips of 1 MiB, C 32 MiB.
    // Writes: the last wave's 232 tiles of 32 KiB stay dirty in L2; every earlier one has all of
    // B (32 MiB, over half the L2) behind it and is written.
    const auto c = model_bf16_mma({4096, 4096, 4096}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.dram_read_bytes, (35 + 128 + 32) * mib);
    EXPECT_DOUBLE_EQ(*c.refined.dram_write_bytes, 32 * mib - 232 * 32768.0);
}

TEST(TensorModels, SwizzleIsWhatRemovesLdmatrixConflicts) {
    // One ldmatrix.x4 of A through the kernel's swizzle: 4 wavefronts. The same reads from
    // unswizzled 64-byte rows put each phase's 8 rows in 2 bank groups: 4-way, 16 wavefronts.
    lane_addresses swizzled{}, plain{};
    for (int l = 0; l < 32; ++l) {
        swizzled[l] = bf16_mma::a_ldsm_offset(0, 0, 0, l);
        plain[l] = 64 * (l % 16) + 16 * (l / 16);
    }
    EXPECT_EQ(matrix_x4_wavefronts(swizzled), 4);
    EXPECT_EQ(matrix_x4_wavefronts(plain), 16);
}

TEST(TensorModels, TmaBoxRule) {
    // A 3 × 24 bf16 matrix: rows 48 bytes apart. A 4 × 16 box at (0, 0): rows 0-2 have their 32
    // bytes inside, at 0, 48 and 96: 1, 2 and 1 sectors; row 3 is outside: its 32-byte zero fill.
    // The L2 is asked for the sectors of every box row where it would lie, row 3 (144-175: 2
    // sectors) included: 6.
    tma_matrix m(3, 24);
    const tma_traffic whole = m.box(0, 0, 4, 16);
    EXPECT_EQ(whole.delivered, 32 + 64 + 32 + 32);
    EXPECT_EQ(whole.requested_sectors, 1 + 2 + 1 + 2);
    EXPECT_EQ(whole.stored, 128);
    // At (0, 16) only 8 columns (16 bytes) of each row are inside: one sector each plus the
    // row's zero fill, 32 + 32 per row, and row 3 again 32. Requested: the box rows at 32, 80, 128
    // and 176, 32 bytes each: 1, 2, 1 and 2 sectors.
    const tma_traffic edge = m.box(0, 16, 4, 16);
    EXPECT_EQ(edge.delivered, 3 * 64 + 32);
    EXPECT_EQ(edge.requested_sectors, 1 + 2 + 1 + 2);
    EXPECT_EQ(edge.stored, 96);
}

TEST(TensorModels, WgmmaRaggedShapeByHand) {
    // 1000×776×328: 8 × 7 CTAs of 128×128, 6 K tiles of 64 (384).
    const auto c = model_bf16_wgmma({1000, 776, 328}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 2.0 * 1024 * 896 * 384);
    // Per CTA and K tile 4 k16 × 2 m64 × (64·16 + 16·128)·2 B = 49,152; 56 × 6 × 49,152.
    EXPECT_DOUBLE_EQ(*c.refined.smem_gmma_wavefronts * gmma_wavefront_bytes, 16'515'072.0);
    // TMA. A (rows 656 bytes apart, 16 mod 32) per column tile: 24 rows past M × 6 K tiles × 128
    // (zero fill) = 18,432; 1000 rows × 5 full K tiles × (128 on even, 160 on odd rows) =
    // 720,000; the last K tile's 16 bytes, 1 sector + 128 of fill = 160 per row: 160,000; 898,432
    // per column tile, × 7. B (rows 1552 bytes apart) per row tile: 56 k rows past K × 13 boxes ×
    // 128 = 93,184; 328 rows × 12 full boxes × (128 or 160) = 566,784; the 13th box's 16 bytes,
    // 160 per row: 52,480; 712,448, × 8. The 14th box of the last column tile lies wholly past N:
    // 8 row tiles × 6 K tiles × 8,192 of fill.
    EXPECT_DOUBLE_EQ(*c.refined.tma_load_bytes, 7 * 898'432.0 + 8 * 712'448.0 + 48 * 8'192.0);
    EXPECT_DOUBLE_EQ(*c.refined.tma_load_bytes, 12'381'824.0);
    // C from the registers, 64 bytes of a row per request: rows 1552 bytes apart start at 0 and 16
    // mod 32 in turn. An even row's 24 groups of 32 columns are 2 sectors each, its last 8 columns
    // 1: 49; an odd row's groups straddle 3 sectors each, its last 16 bytes 1: 73. 500 × 122.
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_load_bytes, 61'000.0 * 32);
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_store_bytes, 61'000.0 * 32);
    EXPECT_DOUBLE_EQ(*c.refined.smem_load_wavefronts, 0.0);
}

TEST(TensorModels, WsAt2048ByHand) {
    // Rung 16: 16 × 8 = 128 tiles of 128×256 < 132 SMs: 128 clusters of one CTA, 32 k-tiles.
    const auto c = model_bf16_ws({2048, 2048, 2048}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 2.0 * 2048 * 2048 * 2048);
    // Per k-tile one 128×64 box of A (16 KiB) and 4 of B (8 KiB each).
    EXPECT_DOUBLE_EQ(*c.refined.tma_load_bytes, 128.0 * 32 * (16'384 + 4 * 8'192));
    EXPECT_DOUBLE_EQ(*c.refined.tma_multicast_bytes, 0.0);
    EXPECT_DOUBLE_EQ(*c.refined.tma_store_bytes, 0.0);
    // Per k-tile 2 consumers × 4 × (64·16 + 16·256)·2 B = 81,920.
    EXPECT_DOUBLE_EQ(*c.refined.smem_gmma_wavefronts * gmma_wavefront_bytes, 128.0 * 32 * 81'920);
    EXPECT_DOUBLE_EQ(*c.refined.ffma, 2048.0 * 2048);
    // Direct epilogue: C read and written 64 bytes per row per request, whole sectors: its size.
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_load_bytes, 8 * mib);
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_store_bytes, 8 * mib);
    EXPECT_DOUBLE_EQ(*c.refined.smem_load_wavefronts, 0.0);
    EXPECT_DOUBLE_EQ(*c.refined.fadd, 0.0);
}

TEST(TensorModels, ClusterAt2048ByHand) {
    // Rung 17: 8 × 8 = 64 cluster tiles of 256×256 ≤ 66: 64 clusters of 2 CTAs, 32 k-tiles.
    const auto c = model_bf16_cluster({2048, 2048, 2048}, h100());
    // A: 128 CTAs × 32 × 16 KiB. B: per cluster and k-tile 4 boxes of 8 KiB, each CTA loading 2
    // and multicasting them: delivered at 2 SMs. C: 128 CTAs × 8 boxes of 8 KiB.
    const double a = 128.0 * 32 * 16'384, b = 64.0 * 32 * 4 * 8'192, cc = 128.0 * 8 * 8'192;
    EXPECT_DOUBLE_EQ(*c.refined.tma_multicast_bytes, 2 * b);
    EXPECT_DOUBLE_EQ(*c.refined.tma_load_bytes, a + 2 * b + cc);
    EXPECT_DOUBLE_EQ(*c.refined.tma_load_bytes, 209'715'200.0);
    EXPECT_DOUBLE_EQ(*c.refined.tma_store_bytes, cc);
    EXPECT_DOUBLE_EQ(*c.refined.l2_requested_bytes,
                     a + b + cc);  // a multicast box is requested once
    // Per CTA tile 2 consumers × 4 warps × 16 ldmatrix.x4 (and stmatrix.x4) × 4 wavefronts.
    EXPECT_DOUBLE_EQ(*c.refined.smem_ldsm_wavefronts, 128.0 * 512);
    EXPECT_DOUBLE_EQ(*c.refined.smem_stsm_wavefronts, 128.0 * 512);
    EXPECT_DOUBLE_EQ(*c.refined.ffma, 128.0 * 128 * 256);
    EXPECT_DOUBLE_EQ(*c.refined.l1_global_load_bytes, 0.0);
}

TEST(TensorModels, TmaEpilogueComputesPaddedTiles) {
    // 1000×776: 4 × 4 cluster tiles of 256×256 → 1024 × 1024 elements through the unguarded TMA
    // epilogue, against 1000 × 776 through the guarded direct one.
    EXPECT_DOUBLE_EQ(*model_bf16_cluster({1000, 776, 328}, h100()).refined.ffma, 1024.0 * 1024);
    EXPECT_DOUBLE_EQ(*model_bf16_ws({1000, 776, 328}, h100()).refined.ffma, 1000.0 * 776);
}

TEST(TensorModels, PersistentDramWavesAt4096) {
    // Rung 16: 512 tiles of 128×256 row-major; 132 clusters are resident, but 512 tiles take 4
    // waves on 132 as on 128, so the grid is 128 (tensor::grid_clusters): 4 waves of 128 tiles
    // (8 rows of 16): A 4 × 8 = 32 strips of 1 MiB, B 4 × 16 strips of 2 MiB, C 32 MiB.
    EXPECT_DOUBLE_EQ(*model_bf16_ws({4096, 4096, 4096}, h100()).refined.dram_read_bytes,
                     (32 + 128 + 32) * mib);
    // Rung 17: 16 × 16 cluster tiles in groups of 8 rows walked column by column, on 64 of the
    // 66 resident clusters (4 waves either way). Wave 0 (walk steps 0-63): rows 0-7, columns 0-7;
    // wave 1: rows 0-7, columns 8-15; wave 2: rows 8-15, columns 0-7; wave 3: rows 8-15,
    // columns 8-15. A: 4 × 8 cluster strips of 2 MiB = 64 MiB; B: 4 × 8 strips of 2 MiB = 64 MiB;
    // C 32 MiB.
    EXPECT_DOUBLE_EQ(*model_bf16_cluster({4096, 4096, 4096}, h100()).refined.dram_read_bytes,
                     (64 + 64 + 32) * mib);
    // The grid rule itself: whole waves shrink the grid, a stream-K tail keeps every cluster.
    EXPECT_EQ(tensor::grid_clusters(132, 512, 64, false), 128);
    EXPECT_EQ(tensor::grid_clusters(66, 256, 64, true), 64);    // tail 58 of 66: not split
    EXPECT_EQ(tensor::grid_clusters(66, 1024, 128, true), 66);  // tail 34 of 66: stream-K
    EXPECT_EQ(tensor::grid_clusters(66, 16, 64, true), 16);     // fewer tiles than clusters
}

TEST(TensorModels, StreamKFaddFromTheSchedule) {
    // Rung 17 at 8192³: 32 × 32 = 1024 cluster tiles over 66 clusters: 15 whole waves (990) and
    // a tail of 34 tiles, which keeps fewer than 3/4 of the clusters busy, so it is split:
    // 34 × 128 k-iterations, q = ⌈4352/66⌉ = 66 per cluster. Cluster c starts at iteration 66c,
    // on a tile boundary (a multiple of 128) only for c = 0 and c = 64: the other 64 clusters
    // each leave one partial, which its tile's owner adds, one FADD per element of its two
    // CTAs' 128×256 tiles.
    const shape s{8192, 8192, 8192};
    const auto c = model_bf16_cluster(s, h100());
    EXPECT_DOUBLE_EQ(*c.refined.fadd, 64.0 * 2 * 128 * 256);
    // The same from the kernel's schedule.
    const auto sched = tensor::ws_schedule::make(66, 1024, 128, true);
    ASSERT_EQ(sched.sk_share, 66);
    long contributors = 0;
    for (int cl = 0; cl < 66; ++cl)
        for (int i = 0; i < sched.units(cl); ++i) {
            const auto u = sched.unit(cl, i);
            contributors += u.contributors_last - u.contributors_first;
        }
    EXPECT_EQ(contributors, 64);
    // Every tile still has one owner: the epilogue and the tensor work are those of whole tiles.
    EXPECT_DOUBLE_EQ(*c.refined.ffma, 8192.0 * 8192);
    EXPECT_DOUBLE_EQ(*c.refined.tensor_flops, 2.0 * 8192 * 8192 * 8192);
    // At 4096³ the tail (58 of 66 clusters) is kept whole: no partial sums.
    EXPECT_DOUBLE_EQ(*model_bf16_cluster({4096, 4096, 4096}, h100()).refined.fadd, 0.0);
    // Rung 16 never splits.
    EXPECT_DOUBLE_EQ(*model_bf16_ws(s, h100()).refined.fadd, 0.0);
}

TEST(TensorModels, Textbook) {
    // Rung 17 at 4096³: B reused by the 2 CTAs of a cluster, so (MNK/256 + MNK/256)·2 + 4MN;
    // shared: wgmma m64n256 reads A once per 256 columns and B once per 64 rows.
    const double mnk = 4096.0 * 4096 * 4096, mn = 4096.0 * 4096;
    const auto t = model_bf16_cluster({4096, 4096, 4096}, h100()).textbook;
    EXPECT_DOUBLE_EQ(t.global_bytes, (mnk / 256 + mnk / 256) * 2 + 4 * mn);
    EXPECT_DOUBLE_EQ(t.smem_bytes, mnk * (1.0 / 256 + 1.0 / 64) * 2);
    // Rung 13: 128×128 tiles, 32×64 warp tiles.
    const auto w = model_bf16_wmma({4096, 4096, 4096}, h100()).textbook;
    EXPECT_DOUBLE_EQ(w.global_bytes, (mnk / 128 + mnk / 128) * 2 + 4 * mn);
    EXPECT_DOUBLE_EQ(w.smem_bytes, mnk * (1.0 / 64 + 1.0 / 32) * 2);
    EXPECT_DOUBLE_EQ(w.flops, 2 * mnk + 2 * mn);
}

TEST(TensorModels, CublasCompulsory) {
    const auto c = model_cublas_bf16({4096, 4096, 4096}, h100());
    EXPECT_DOUBLE_EQ(*c.refined.dram_read_bytes, 3 * 32 * mib);
    EXPECT_DOUBLE_EQ(*c.refined.dram_write_bytes, 32 * mib);
    EXPECT_FALSE(c.refined.ffma.has_value());
    EXPECT_FALSE(c.refined.l1_global_load_bytes.has_value());
}

TEST(TensorModels, EveryModelExplainsItself) {
    const shape s{1000, 776, 328};
    for (const auto& c :
         {model_bf16_wmma(s, h100()), model_bf16_mma(s, h100()), model_bf16_wgmma(s, h100()),
          model_bf16_ws(s, h100()), model_bf16_cluster(s, h100()), model_cublas_bf16(s, h100())})
        EXPECT_FALSE(c.refined.notes.empty());
}

TEST(TensorModels, WmmaReadBandAt8192) {
    // 64 × 64 tiles of 128×128 in waves of 264 (2 CTAs per SM): a wave covers 4.1 tile rows and
    // all 64 columns, 64 strips of B of 2 MiB: more than half the L2. So the reads are a band:
    // from the per-wave count (the model's value) to every tile streaming its own A and B
    // strips (4096 tiles × (2 MiB + 2 MiB)) plus C (128 MiB).
    const auto c = model_bf16_wmma({8192, 8192, 8192}, h100());
    ASSERT_TRUE(c.refined.dram_read_band);
    EXPECT_DOUBLE_EQ(c.refined.dram_read_band->low, *c.refined.dram_read_bytes);
    EXPECT_DOUBLE_EQ(c.refined.dram_read_band->high, 4096.0 * 4 * mib + 128 * mib);
    // At 4096³ a wave already touches all 32 strips of B of 1 MiB (and 9 or 10 of A): a band.
    EXPECT_TRUE(model_bf16_wmma({4096, 4096, 4096}, h100()).refined.dram_read_band);
    // At 2048³ A and B (16 MiB) fit in half the L2 and are read once: no band.
    EXPECT_FALSE(model_bf16_wmma({2048, 2048, 2048}, h100()).refined.dram_read_band);
}
