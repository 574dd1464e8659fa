#include "tile_model.hpp"
#include "wave_dram.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "gpu_context.hpp"

using namespace tgemm;
using namespace tgemm::kernels::tile_model;
using tgemm::kernels::launch_order_waves;
using tgemm::kernels::wave_dram_reads;

namespace {

lane_addresses from(auto f) {
    lane_addresses a{};
    for (int l = 0; l < 32; ++l) a[l] = f(l);
    return a;
}

}  // namespace

TEST(SmemWavefronts, ThirtyTwoBitAccesses) {
    // 32 consecutive words: one per bank.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 4 * l; }), 4, smem_op::load), 1);
    // Everyone on one word: a broadcast.
    EXPECT_EQ(warp_wavefronts(from([](int) { return 0; }), 4, smem_op::load), 1);
    // Stride of 2 words: lanes l and l + 16 share a bank.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 8 * l; }), 4, smem_op::load), 2);
    // Stride of 32 words: all 32 lanes in bank 0.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 128 * l; }), 4, smem_op::store), 32);
}

TEST(SmemWavefronts, OneHundredTwentyEightBitLoads) {
    // 512 contiguous bytes: 4 quarter-warp passes, no conflicts.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 16 * l; }), 16, smem_op::load), 4);
    // Lanes n and n^1 share an address: packed into 2 passes.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 16 * (l / 2); }), 16, smem_op::load), 2);
    // Lanes n and n^2 share an address: packed too.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 16 * ((l & 1) | (l >> 2) << 1); }), 16,
                              smem_op::load),
              2);
    // Lanes 16 apart share an address, but no neighbour pairs: 4 passes.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 16 * (l % 16); }), 16, smem_op::load), 4);
    // 16 lanes 32 bytes apart (seed 000's B fragment): within a quarter lanes t and t + 4 fall
    // in the same bank group, 2 wavefronts per quarter.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 32 * (l % 16); }), 16, smem_op::load), 8);
    // Stores are never packed.
    EXPECT_EQ(warp_wavefronts(from([](int l) { return 16 * (l / 2); }), 16, smem_op::store), 4);
}

TEST(SmemWavefronts, PublicLadderWarptilingMatchesNsightCompute) {
    // siboehm's warptiling kernel, 128×128×16, WM = WN = 64, WNITER = 4, TM = 8, TN = 4, 128
    // threads: per warp per k, 2 LDS.128 of A (8 rows 32 bytes apart, 4 lanes each) and 4 of B
    // (4 lanes 16 bytes apart, 8 lanes each). Nsight Compute on the H100 at 4096³: 0.34 G
    // wavefronts (docs/anchors.md).
    const auto a = from([](int l) { return 32 * (l / 4); });
    const auto b = from([](int l) { return 16 * (l % 4); });
    EXPECT_EQ(warp_wavefronts(a, 16, smem_op::load), 2);
    EXPECT_EQ(warp_wavefronts(b, 16, smem_op::load), 4);
    const double per_warp_k = 2 * 2 + 4 * 4;  // 20
    const double total = 1024.0 /*CTAs*/ * 4 /*warps*/ * 4096 /*k*/ * per_warp_k;
    EXPECT_NEAR(total / 0.34e9, 1.0, 0.02);
}

TEST(GlobalSectors, ContiguousSegments) {
    // A 4096-float row read 128 floats per request, float4 per lane: 16 sectors per request.
    EXPECT_EQ(strided_sectors(1, 4096, 128, 32, 4, 4, 0), 512);
    // Lanes 32 bytes apart reading 16 bytes: every sector touched, half of it used.
    EXPECT_EQ(strided_sectors(1, 4096, 128, 16, 8, 4, 0), 512);
    // Rows 4 floats off a sector boundary (N = 4100): a 64-byte segment spans 3 sectors when it
    // starts 16 bytes into one.
    EXPECT_EQ(strided_sectors(2, 4100, 16, 4, 4, 4, 0),
              /*row 0*/ 257 * 2 - 1 + /*row 1: 16 B off*/ (256 * 3 + 1));
    // Guarded lanes past the row end issue nothing: a 10-float row, 8-float segments.
    EXPECT_EQ(strided_sectors(1, 10, 8, 2, 4, 4, 0), 1 + 1);
}

TEST(DramWaves, FitsInL2MeansCompulsory) {
    const shape s{1024, 1024, 1024};
    const auto w =
        wave_dram_reads(s, 4, 128, 128, launch_order_waves(8, 8, 264), test::h100().l2_bytes);
    EXPECT_DOUBLE_EQ(w.total(), 3.0 * 4 * 1024 * 1024);
}

TEST(DramWaves, EachWaveRereadsItsStrips) {
    // 4096³, 128×128 tiles, 264 CTAs per wave: 4 waves over 32 columns of tiles each; A rows
    // touched 9 + 9 + 9 + 8 = 35 strips of 2 MiB, B 4 × 32 strips of 2 MiB, C once.
    const shape s{4096, 4096, 4096};
    const auto w =
        wave_dram_reads(s, 4, 128, 128, launch_order_waves(32, 32, 264), test::h100().l2_bytes);
    EXPECT_EQ(w.waves, 4);
    EXPECT_DOUBLE_EQ(w.a_bytes, 35.0 * 2 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(w.b_bytes, 128.0 * 2 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(w.c_bytes, 64.0 * 1024 * 1024);
}

// docs/models/dram-waves.md's hand check: vectorized's 128×128 tiles at 4096×2048×1024 on the
// H100, 264 CTAs per wave, 2 waves. Wave 0 touches A strips 0–16 and all 16 B strips (0.5 MiB
// each) and 264 C tiles of 64 KiB (16.5 MiB, 3/4 of it in a partition). A partition holds a strip
// r CTAs read less (1/2)^(r+1) of it (the lines homed on the other partition that none of its SMs
// read; "How many SMs read a line"): A strips 0–15 have 16 readers, strip 16 has 8; B strips 0–7
// have 17, 8–15 have 16. So 28.874 MiB lie behind its strips when wave 1 reuses them (28.875 if
// every strip were held whole), 1.155 × half the L2 (25 MiB), where the H100 has lost 0.675 +
// 0.325 × (x − 1.1) / 0.15 of such lines (docs/validation/h100-l2-capacity.log). Wave 1 reads A
// strips 17–31 and that share of the 17 strips it shares: 0.5 MiB × (33 + 15 + 17e) + C.
// The swept curve of readers that move (gpu/l2_retention.hpp) is for strips one or two CTAs of a
// wave read, and only where it loses more than the share rule. H200 (half the L2 31,457,280 B),
// 128×128 tiles, 8 × 16 of them at K = 4096: waves of 16 are one row each, so every strip of B
// (2 MiB) has one reader and every wave reads all of B again. Between two uses lie B (32 MiB), one
// strip of A (2 MiB, 16 readers) and 16 C tiles (1 MiB): held as a partition holds them 26.75 MiB,
// 0.8917 × the half, where the read-again curve has lost 0.007 × 0.917; whole 35 MiB, 1.1667 ×,
// where one reader that moves loses 0.076 + 0.0667 / 0.15 × 0.060 = 0.1027 a pass. Waves of 48
// give every strip of B three readers: the swept curves do not apply.
TEST(DramWaves, SweptCurveOnlyForStripsOfOneOrTwoReaders) {
    const double mib = 1024.0 * 1024, half = 31457280.0;
    const auto h200 = tgemm::l2_retention_curves_of("h200");
    const tgemm::l2_retention_curves share_only{h200.read_again, {}, {}};
    const auto l2 = test::context_of("h200").l2_bytes;
    const shape s{1024, 2048, 4096};
    const auto one = launch_order_waves(8, 16, 16);
    const double x_share = (24 * mib + 2 * mib * (1 - std::ldexp(1.0, -17)) + 0.75 * mib) / half;
    const double x_whole = 35 * mib / half;
    const double e_share = 0.007 * (x_share - 0.8) / 0.1;
    const double e_swept = 0.076 + (x_whole - 1.1) / 0.15 * (0.136 - 0.076);
    const auto reads = [&](double e) { return 16 * mib + 32 * mib * (1 + 7 * e) + 8 * mib; };
    EXPECT_NEAR(wave_dram_reads(s, 4, 128, 128, one, l2, share_only).total(), reads(e_share), 1.0);
    EXPECT_NEAR(wave_dram_reads(s, 4, 128, 128, one, l2, h200).total(), reads(e_swept), 1.0);
    const auto three = launch_order_waves(8, 16, 48);
    EXPECT_DOUBLE_EQ(wave_dram_reads(s, 4, 128, 128, three, l2, h200).total(),
                     wave_dram_reads(s, 4, 128, 128, three, l2, share_only).total());
}

TEST(DramWaves, SharedStripsFollowTheMeasuredRetention) {
    const shape s{4096, 2048, 1024};
    const double mib = 1024.0 * 1024;
    const auto waves = launch_order_waves(32, 16, 264);
    const auto l2 = test::h100().l2_bytes;
    const auto w =
        wave_dram_reads(s, 4, 128, 128, waves, l2, tgemm::l2_retention_curves_of("h100"));
    const auto held = [](int readers) { return 1 - std::ldexp(1.0, -(readers + 1)); };
    const double behind =
        0.5 * (16 * held(16) + held(8) + 8 * held(17) + 8 * held(16)) + 0.75 * 16.5;
    const double x = behind / 25;
    EXPECT_NEAR(x, 1.155, 1e-4);
    const double e = 0.675 + 0.325 * (x - 1.1) / 0.15;
    EXPECT_NEAR(w.total(), 0.5 * mib * (48 + 17 * e) + 32 * mib, 1e-3);
    // The edge's ends as steps: all 17 kept (1.155 < 1.25), all 17 read again (> 0.9); without a
    // measured curve the step at 1 reads them again too.
    EXPECT_DOUBLE_EQ(w.edge_low_bytes, 56 * mib);
    EXPECT_DOUBLE_EQ(w.edge_high_bytes, 64.5 * mib);
    EXPECT_DOUBLE_EQ(wave_dram_reads(s, 4, 128, 128, waves, l2).total(), 64.5 * mib);
    refined_model r;
    tgemm::kernels::add_l2_residency_band(r, w, l2);
    ASSERT_TRUE(r.dram_read_band);
    EXPECT_DOUBLE_EQ(r.dram_read_band->low, 56 * mib);
    EXPECT_DOUBLE_EQ(r.dram_read_band->high, 64.5 * mib);
    // Where every wave's strips and C fit well inside the edge (1024³: 8 × 8 tiles, waves of 32),
    // no band.
    const auto small =
        wave_dram_reads({1024, 1024, 1024}, 4, 128, 128, launch_order_waves(8, 8, 32), l2,
                        tgemm::l2_retention_curves_of("h100"));
    refined_model quiet;
    tgemm::kernels::add_l2_residency_band(quiet, small, l2);
    EXPECT_FALSE(quiet.dram_read_band);
}

// DRAM writes on a grid small enough to follow by hand (docs/models/dram-waves.md, "DRAM
// writes"): an L2 of 8 MiB (4 MiB per partition), 1024×1024×256 in 128×128 tiles (strips of A
// and B 128 KiB, C tiles 64 KiB), 8 × 8 tiles in 4 waves of 16 (two tile rows each). A partition
// holds a strip r CTAs read less (1/2)^(r+1) of it. Behind wave 3 nothing; behind wave 2 its
// strips (A 6–7, 8 readers each; all 8 of B, 2 readers each) and 3/4 of its C (0.75 MiB): under
// 2 MiB; behind wave 1 A 4–7, B with 4 readers and 1.5 MiB of C, plus its own 0.75 MiB: under
// 4 MiB, stays; behind wave 0 A 2–7 (8 readers), B with 6 readers and 2.25 MiB of C: 3.9907 MiB,
// and with its own 0.75 MiB 4.7407: the part past 4 MiB is written, 98.8 % of its 1 MiB (all of
// it if every strip were held whole: 4 MiB behind it exactly). The low end has lines leave as
// late as the clean ones every SM reads (all gone by 1.25 × the half, 5 MiB): wave 0 stays. The
// high end (dirty lines leave from 0.64 of the half on) writes more than the value.
TEST(DramWaves, CWrittenWhereMoreThanHalfTheL2LiesBehindIt) {
    const double mib = 1024.0 * 1024;
    const auto w = wave_dram_reads({1024, 1024, 256}, 4, 128, 128, launch_order_waves(8, 8, 16),
                                   std::int64_t(8 * mib));
    const auto held = [](int readers) { return 1 - std::ldexp(1.0, -(readers + 1)); };
    const double behind = 0.125 * (6 * held(8) + 8 * held(6)) + 2.25;
    EXPECT_NEAR(w.c_written_bytes, mib * (behind + 0.75 - 4) / 0.75, 1e-6);
    EXPECT_NEAR(w.c_written_bytes / mib, 0.9876, 1e-4);
    EXPECT_DOUBLE_EQ(w.c_written_low, 0);
    EXPECT_GT(w.c_written_high, w.c_written_bytes);
    EXPECT_LE(w.c_written_high, w.c_bytes);
    // A grid of one wave: nothing touched after its tiles but themselves (3/4 of 4 MiB), so
    // C stays, even at the high end (3 MiB = 0.75 of the half, where 14.7 % of dirty lines leave).
    const auto one = wave_dram_reads({1024, 1024, 256}, 4, 128, 128, launch_order_waves(8, 8, 64),
                                     std::int64_t(8 * mib));
    EXPECT_EQ(one.c_written_bytes, 0);
    EXPECT_GT(one.c_written_high, 0);
}
