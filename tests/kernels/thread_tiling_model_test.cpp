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
    // 48 registers → 5 CTAs per SM, which drift apart: one CTA per SM stays in step, so the
    // 4096 CTAs cross K in 32 groups of 132 (31 full, the last holds ids 4092–4095). A full
    // group covers 132/32 = 4.1 tile rows → 5 strips of A (32 rows, 512 KiB) and every column
    // of B (64 MiB); the last one strip 127 and columns 28–31 (4 × 2 MiB). No group fits in
    // 25 MiB, so nothing is found again: A 31·5 + 1 = 156 strips, B 31 × 64 MiB + 8 MiB, C
    // once = 2.24 GB (H100: 2.02 GB read, B 28 times). 192 MiB touched: C is written during
    // the kernel.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes),
                     156.0 * 524288 + 31.0 * 67108864 + 8388608 + 67108864);
    // Writes: the last two groups of 132 CTAs (4096 = 31·132 + 4: 4 + 132 tiles of 16 KiB) stay
    // dirty in L2; every earlier tile has all of B behind it (64 MiB, over half the L2): written.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 136 * 16384.0);
}

TEST(ThreadTilingModel, WriteBandWhenTheWholeGridIsResident) {
    // 1536×1536×4096: 12 × 48 = 576 CTAs of 32×128 (16 KiB of C each), 5 per SM: 660 slots, so
    // the whole grid is one resident wave. Value, the groups of 132 as sequential waves: groups
    // 0–3 (528 tiles) each have a later group's strips behind them (all of B, 24 MiB, and 11
    // strips of A, 5.5 MiB: over half the L2, 25 MiB), so they are written; group 4 (48 tiles)
    // stays dirty. Low end, the groups finishing together as they start: no strip is read after
    // the one wave's tiles, so nothing is written (the H100 wrote 0.03 MB, the H200 0.07 MB).
    const auto r = model_of(shape{1536, 1536, 4096}).refined;
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 528 * 16384.0);
    const auto* band = r.band(keys::dram_write_bytes);
    ASSERT_NE(band, nullptr);
    EXPECT_DOUBLE_EQ(band->low, 0);
    EXPECT_GE(band->high, 528 * 16384.0);
    EXPECT_NE(band->reason.find("finish together"), std::string::npos) << band->reason;
}
