// Rung 04, thread tiling (kernels/04_thread_tiling.cu): V = 4, 32×8 threads, 32×128 C tile,
// A rows in 4-word register chunks. Derivations in docs/models/04_thread_tiling.md.
#include <gtest/gtest.h>

#include <string>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
rung_model model_of(const shape& s) {
    return rung_registry::get().find("thread_tiling").model(s, test::h100());
}
}  // namespace

TEST(ThreadTilingModel, TextbookIsTheSeedsFormula) {
    // Lecture 004 v1.5 at N = 1024, V = 4: N³/V + N³ = 268,435,456 + 1,073,741,824 loads.
    const auto m = model_of(shape{1024, 1024, 1024});
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes, (268435456.0 + 1073741824.0) * 4);
    EXPECT_DOUBLE_EQ(m.textbook.flops, 2.0 * 1073741824 + 2.0 * 1048576);
    EXPECT_NE(m.textbook.formula.find("N³/V + N³"), std::string::npos);
    // Per output K of B, K/V of A, and C itself: at K = 8 the seeds' 1D figure, 11.
    EXPECT_DOUBLE_EQ(*model_of(shape{64, 64, 8}).textbook.loads_per_output, 11);
}

TEST(ThreadTilingModel, FlopsAreWhatTheKernelExecutes) {
    // 4096³: no padding. 2·4096³ + 3·4096².
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).refined.get(keys::flops),
                     137438953472.0 + 50331648.0);
    // 1000×777×333: the grid covers 1024 × 896 outputs (tiles of 32 × 128) and every thread
    // runs K rounded up to 4 = 336: 2·1024·896·336 + 3·1000·777.
    EXPECT_DOUBLE_EQ(*model_of(shape{1000, 777, 333}).refined.get(keys::flops),
                     616562688.0 + 2331000.0);
}

TEST(ThreadTilingModel, L1AndDramAt4096) {
    const auto r = model_of(shape{4096, 4096, 4096}).refined;
    // A: one broadcast sector per (row, CTA column, k): 4096 · 32 · 4096 = 536,870,912.
    // B: 4096 padded rows, each a pass over B in 32-word pieces: 4096 · (4096 · 128 · 4)
    //    = 8,589,934,592. C: 4096 · 128 · 4 = 2,097,152 read, the same written.
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_load_bytes),
                     32.0 * (536870912.0 + 8589934592.0 + 2097152.0));  // 292.1 GB
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_store_bytes), 32.0 * 2097152);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_wavefronts), 0);
    // 48 registers → 5 CTAs per SM, in step (traced), so the 4096 CTAs (128 × 32 tiles) cross K
    // in waves of 660: 6 full and one of 136. Every wave spans whole tile rows, so it reads all
    // 32 strips of B (2 MiB each, 64 MiB), and each CTA walks its strip 4 times (once per row
    // of its thread tile): one walk of the wave's B strips is over 1.25 × half the L2 (25 MiB),
    // so every walk reads B again, and the next wave finds none of it: 7 × 4 × 64 MiB. A: 128
    // strips of 512 KiB, and the 6 split between two waves read twice (the strips of 4 walks of
    // B lie between). C once. (Measured: 2017.4 MB on the H100, 2017.0 on the H200.)
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes), 28.0 * 67108864 + 134.0 * 524288 + 67108864);
    // Writes: the last wave's 136 tiles of 16 KiB stay dirty in L2; every earlier tile has all
    // of B behind it (64 MiB, over half the L2): written.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 136 * 16384.0);
}

TEST(ThreadTilingModel, EachWalkOfBReadsItAgainWhereAWaveOfStripsExceedsTheL2) {
    // 1024×3072×4096: 32 × 24 tiles, 768 CTAs in waves of 660 (rows 0-27, 12 tiles of row 27
    // in the first) and 108 (the rest of row 27, rows 28-31). Each wave reads all 24 strips of B
    // (2 MiB each, 48 MiB, over 1.25 × half the L2 on the H100 and the H200) on each of the 4
    // walks, and the second finds none of the first's: 8 × 48 MiB. A: 32 strips of 512 KiB,
    // strip 27 twice. C: 12 MiB. 432.5 MB; measured 432.8 MB (H100) and 432.7 MB (H200), where
    // groups of one CTA per SM drifting apart (the model until 2026-11-27) gave 332.9 MB.
    for (const auto& gpu : {"h100", "h200"}) {
        const auto r = rung_registry::get()
                           .find("thread_tiling")
                           .model(shape{1024, 3072, 4096}, test::context_of(gpu))
                           .refined;
        EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes), 8.0 * 50331648 + 33.0 * 524288 + 12582912)
            << gpu;
    }
}

TEST(ThreadTilingModel, WriteBandWhenTheWholeGridIsResident) {
    // 1536×1536×4096: 12 × 48 = 576 CTAs of 32×128 (16 KiB of C each), 5 per SM: 660 slots, so
    // the whole grid is one resident wave, in step: no strip is read after its tiles, so nothing
    // is written (the value; the H100 wrote 0.03 MB, the H200 0.07 MB). High end, the waves
    // drifted apart into groups of 132 crossing K one after another: groups 0–3 (528 tiles) each
    // have a later group's strips behind them (all of B, 24 MiB, and 11 strips of A, 5.5 MiB:
    // over half the L2, 25 MiB), so they are written; group 4 (48 tiles) stays dirty.
    const auto r = model_of(shape{1536, 1536, 4096}).refined;
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 0);
    const auto* band = r.band(keys::dram_write_bytes);
    ASSERT_NE(band, nullptr);
    EXPECT_DOUBLE_EQ(band->low, 0);
    EXPECT_GE(band->high, 528 * 16384.0);
    EXPECT_NE(band->reason.find("drift apart"), std::string::npos) << band->reason;
}
