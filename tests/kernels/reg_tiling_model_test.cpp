// The arithmetic shared by rungs 04–08 (kernels/reg_tiling_model.hpp), checked on cases small
// enough to count by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_context.hpp"

#include "reg_tiling_model.hpp"

using namespace tgemm;
namespace rt = tgemm::kernels::reg_tiling;

TEST(RegTilingModel, LoadsPerOutputReproduceTheSeedFigure) {
    // Seeds 000/001: a dot product of depth 8 (one BK = 8 slice), four results per thread.
    EXPECT_DOUBLE_EQ(rt::loads_per_output(8, 1, 1), 17);  // one result per thread
    EXPECT_DOUBLE_EQ(rt::loads_per_output(8, 4, 1), 11);  // 1D tiling, a column of 4
    EXPECT_DOUBLE_EQ(rt::loads_per_output(8, 2, 2), 9);   // 2D tiling, 2×2
}

TEST(RegTilingModel, SectorsOfAlignedCoalescedRows) {
    // 32 words of a row starting at byte 0: 4 sectors.
    EXPECT_EQ(rt::strided_row_sectors(1, 32, 32, 1), 4);
    // 4096 rows × 128 pieces × 4 sectors.
    EXPECT_EQ(rt::strided_row_sectors(4096, 4096, 32, 1), 2097152);
    // 4-row × 8-word requests: 1024 groups × 512 tiles × 4 sectors, the same bytes.
    EXPECT_EQ(rt::strided_row_sectors(4096, 4096, 8, 1, 4), 2097152);
}

TEST(RegTilingModel, SectorsOfMisalignedRows) {
    // Rows of 9 words in 8-word pieces. Row 0: bytes 0–31 (1 sector), byte 32 (1). Row 1
    // starts at byte 36: bytes 36–67 (sectors 1 and 2), byte 68 (1). 5 in all.
    EXPECT_EQ(rt::strided_row_sectors(2, 9, 8, 1), 5);
    // 35 words per row in 32-word pieces: row r starts at byte 140·r. Row 0: 0–127 (4), 128–139
    // (1). Row 1: 140–267 (5: sectors 4–8), 268–279 (1). 11 in all.
    EXPECT_EQ(rt::strided_row_sectors(2, 35, 32, 1), 11);
}

TEST(RegTilingModel, RowsOfOneRequestShareSectors) {
    // Two rows of 3 words lie in sector 0 together: 2 as separate requests, 1 as one.
    EXPECT_EQ(rt::strided_row_sectors(2, 3, 8, 1, 1), 2);
    EXPECT_EQ(rt::strided_row_sectors(2, 3, 8, 1, 2), 1);
    // A partial last group: 5 rows of 8 words in groups of 4 → 4 + 1 sectors.
    EXPECT_EQ(rt::strided_row_sectors(5, 8, 8, 1, 4), 5);
}

TEST(RegTilingModel, SectorsOfStridedStores) {
    // A thread owning 8 adjacent outputs of a 128-column tile stores them one at a time: each
    // of the 8 requests has 16 lanes 32 B apart, 16 sectors: 128 for the row.
    EXPECT_EQ(rt::strided_row_sectors(1, 128, 128, 8), 128);
    // 4 adjacent outputs of a 64-column tile: lanes 16 B apart, 8 sectors per request, 4
    // requests: 32 for the row, each sector touched 4 times.
    EXPECT_EQ(rt::strided_row_sectors(1, 64, 64, 4), 32);
}

TEST(RegTilingModel, WaveDramOfThe2dAnchor) {
    // 4096³ in 128×128 tiles, 2 CTAs per SM on 132 SMs: 1024 CTAs in waves of 264, so 4
    // waves. Each wave's footprint (≥ 64 MiB of B) exceeds half of 50 MiB: no reuse across
    // waves. Strips of A (128 rows = 2 MiB) per wave: CTAs 0–263 → rows 0–8 (9), 264–527 →
    // 8–16 (9), 528–791 → 16–24 (9), 792–1023 → 24–31 (8): 35. B (64 MiB) 4 times. C once.
    const auto d = rt::estimate_wave_dram(shape{4096, 4096, 4096}, 128, 128, 2, test::h100());
    EXPECT_EQ(d.waves, 4);
    EXPECT_EQ(d.ctas_per_wave, 264);
    EXPECT_FALSE(d.reuse_across_waves);
    EXPECT_DOUBLE_EQ(d.a_bytes, 35.0 * 2097152);
    EXPECT_DOUBLE_EQ(d.b_bytes, 4.0 * 67108864);
    EXPECT_DOUBLE_EQ(d.read_bytes(), 408944640);  // Nsight Compute: 0.43 GB for that kernel
}

TEST(RegTilingModel, WaveDramWhenAWaveFitsInL2) {
    // 2048³ in 64×64 tiles (strips of 0.5 MiB), 2 CTAs per SM: 4 waves of 264 CTAs (the last
    // 232) touch 9 strips of A and all of B, with 3/4 of their 264 C tiles of 16 KiB (3.09 MiB).
    // A partition holds a strip r CTAs read less (1/2)^(r+1) of it: wave 0 reads A strips 0–7
    // with 32 CTAs each and strip 8 with 8, B columns 0–7 with 9 and 8–31 with 8; wave 1 A 8 (24),
    // 9–15 (32), 16 (16), B 0–7 (8), 8–15 (9), 16–31 (8); wave 2 A 16 (16), 17–23 (32), 24 (24),
    // B 0–15 (8), 16–23 (9), 24–31 (8). So each lies about 0.9426 × half the L2 (25 MiB) behind
    // the strips it shares with the next (0.94375 if every strip were held whole), where the H100
    // has lost 0.005 + 0.183 × (x − 0.9) / 0.1 of such lines
    // (docs/validation/h100-l2-capacity.log). Each later wave shares B and one A strip with the one
    // before and reads that share again. (Measured: 55.2 MB.)
    const auto d = rt::estimate_wave_dram(shape{2048, 2048, 2048}, 64, 64, 2, test::h100());
    EXPECT_TRUE(d.reuse_across_waves);
    const auto held = [](int readers) { return 1 - std::ldexp(1.0, -(readers + 1)); };
    const double strips[3] = {
        8 * held(32) + held(8) + 8 * held(9) + 24 * held(8),
        held(24) + 7 * held(32) + held(16) + 8 * held(8) + 8 * held(9) + 16 * held(8),
        held(16) + 7 * held(32) + held(24) + 16 * held(8) + 8 * held(9) + 8 * held(8)};
    double reread = 0;
    for (const double held_strips : strips) {
        const double x = (0.5 * held_strips + 0.75 * 264 * 16 / 1024.0) / 25;
        EXPECT_NEAR(x, 0.9426, 1e-4);
        reread += (0.005 + 0.183 * (x - 0.9) / 0.1) * 16.5 * 1048576;
    }
    EXPECT_NEAR(d.read_bytes(), 3.0 * 16777216 + reread, 1e-3);
    // Kept up to the edge's end (1.25): everything once.
    EXPECT_DOUBLE_EQ(d.edge_low_bytes, 3.0 * 16777216);
}

TEST(RegTilingModel, WaveDramJustOutsideHalfTheL2) {
    // 2048³ in 32×128 tiles, 5 CTAs per SM: 1024 CTAs in waves of 660 (2 waves). The first
    // wave touches 42 strips of 32 rows (wave ids 0–659 → strips 0–41, 10.5 MiB) and all of B
    // (16 MiB): 26.5 MiB, just over half of 50 MiB, so the second wave reads B again and
    // strip 41 again (ids 660–1023 → strips 41–63, 23 strips).
    const auto d = rt::estimate_wave_dram(shape{2048, 2048, 2048}, 32, 128, 5, test::h100());
    EXPECT_EQ(d.waves, 2);
    EXPECT_FALSE(d.reuse_across_waves);
    EXPECT_DOUBLE_EQ(d.a_bytes, (42.0 + 23.0) * 32 * 2048 * 4);
    EXPECT_DOUBLE_EQ(d.b_bytes, 2.0 * 16777216);
}
