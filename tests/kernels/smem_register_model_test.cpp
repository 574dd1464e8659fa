// Rung 06, shared memory + register tiling (kernels/06_smem_register.cu): L = 64, S = 8,
// V = 4, 256 threads. Derivations in docs/models/06_smem_register.md.
#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
rung_model model_of(const shape& s) {
    return rung_registry::get().find("smem_register").model(s, test::h100());
}
}  // namespace

TEST(SmemRegisterModel, TextbookIsTheSeedsFormula) {
    // Lecture 004 v3 at N = 1024, L = 64, V = 4: global 2N³/L = 33,554,432 loads; shared
    // 2N³/V = 536,870,912 accesses.
    const auto m = model_of(shape{1024, 1024, 1024});
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes, 33554432.0 * 4);
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses, 536870912.0);
    EXPECT_NE(m.textbook.formula.find("2N³/L"), std::string::npos);
    EXPECT_DOUBLE_EQ(*model_of(shape{64, 64, 8}).textbook.loads_per_output, 5);
}

TEST(SmemRegisterModel, FlopsAreWhatTheKernelExecutes) {
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).refined.get(keys::flops),
                     137438953472.0 + 50331648.0);
    // 1000×777×333: 1024 × 832 outputs in the grid (64×64 tiles), K rounded up to 8 = 336.
    EXPECT_DOUBLE_EQ(*model_of(shape{1000, 777, 333}).refined.get(keys::flops),
                     2.0 * 1024 * 832 * 336 + 2331000.0);
}

TEST(SmemRegisterModel, L1SharedAndDramAt4096) {
    const auto r = model_of(shape{4096, 4096, 4096}).refined;
    // A: every row in 8-word pieces (1 sector each) once per CTA column: 64 · 4096 · 512.
    // B: every row in 32-word pieces (4 sectors) once per CTA row: 64 · 4096 · 128 · 4.
    // C: per row, 64 tiles × 4 requests × 8 sectors = 2048; 4096 rows: 8,388,608, read and
    //    written.
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_load_bytes),
                     32.0 * (134217728.0 + 134217728.0 + 8388608.0));  // 8.86 GB
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_store_bytes), 32.0 * 8388608);
    // 4096 CTAs × 8 warps × 512 slices = 16,777,216 warp-slices; 48 load and 4 store
    // wavefronts each.
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_wavefronts), 16777216.0 * 48);  // 0.81 G
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_store_wavefronts), 16777216.0 * 4);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_bank_conflicts), 0);
    // 63 registers → 4 CTAs per SM, taken to drift apart: 32 groups of 132 CTAs (the last
    // holds ids 4092–4095). A full group covers 132/64 = 2.06 tile rows → 3 strips of A (64
    // rows, 1 MiB) and all of B; the last one strip and columns 60–63 (4 MiB). A 31·3 + 1 = 94
    // strips, B 31 × 64 MiB + 4 MiB, C once: 2.25 GB: the high end of the read band.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes),
                     94.0 * 1048576 + 31.0 * 67108864 + 4194304 + 67108864);
    // The low end: the whole wave of 4 × 132 = 528 CTAs in step. Wave w holds ids 528w …
    // 528w + 527, 8.25 tile rows of 64: 9 strips of A (1 MiB) for waves 0-6, 7 for the last
    // (ids 3696-4095, rows 57-63); every wave touches all of B (64 MiB); a wave's 73 MiB exceed
    // half the L2, so none survives to the next; C once. The H100 reads 1.52 GB, in between.
    ASSERT_TRUE(r.dram_read_band);
    EXPECT_DOUBLE_EQ(r.dram_read_band->high, *r.get(keys::dram_read_bytes));
    EXPECT_DOUBLE_EQ(r.dram_read_band->low, (9.0 * 7 + 7) * 1048576 + 8.0 * 67108864 + 67108864);
    // Writes: the last two groups of 132 CTAs (4096 = 31·132 + 4: 4 + 132 tiles of 16 KiB) stay
    // dirty in L2; every earlier tile has all of B behind it (64 MiB, over half the L2): written.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 136 * 16384.0);
}

TEST(SmemRegisterModel, ReadBandAt2048SpansTheNoReuseLimit) {
    // 2048³: 32 × 32 = 1024 CTAs. Low end: a wave of 528 CTAs touches 17 strips of A (8.5 MiB),
    // all of B (16 MiB) and 528 C tiles of 16 KiB (3/4 of 8.25 MiB): 1.23 × half the L2, inside
    // the edge's end (1.25), so with strips kept that far A, B, C are read once: 3 × 16 MiB. High
    // end: groups of 132 CTAs (ids 132g …), none keeping a strip in L2 for the next: groups 0-6
    // cover 5 tile rows each, group 7 (ids 924-1023) 4, so 39 strips of A of 64 rows × 2048 × 4 B =
    // 0.5 MiB; B (16 MiB) once per group, 8 times; C once.
    const auto r = model_of(shape{2048, 2048, 2048}).refined;
    ASSERT_TRUE(r.dram_read_band);
    EXPECT_DOUBLE_EQ(r.dram_read_band->low, 3.0 * 16777216);
    EXPECT_DOUBLE_EQ(r.dram_read_band->high, 39.0 * 524288 + 8.0 * 16777216 + 16777216);
}

TEST(SmemRegisterModel, TheModelLiesInsideItsBandAtShapesNotShipped) {
    for (const auto s : {shape{1000, 777, 333}, shape{6000, 5000, 3000}, shape{16384, 512, 4096},
                         shape{333, 9000, 2048}}) {
        const auto r = model_of(s).refined;
        const double reads = *r.get(keys::dram_read_bytes);
        // Every strip read at least once: A, B and C once is the floor of every limit.
        const double compulsory = 4.0 * (double(s.m) * s.k + double(s.k) * s.n + double(s.m) * s.n);
        EXPECT_GE(reads, compulsory * (1 - 1e-12)) << to_arg(s);
        if (!r.dram_read_band) continue;  // the two limits agree there
        EXPECT_LE(r.dram_read_band->low, reads) << to_arg(s);
        EXPECT_GE(r.dram_read_band->high, reads) << to_arg(s);
        EXPECT_LT(r.dram_read_band->low, r.dram_read_band->high) << to_arg(s);
    }
}

// The DRAM write band's low end counted back from the last CTA (kernels/reg_tiling_model.hpp,
// estimate_drifting_dram): at 8192×768×2048 the grid is 128 × 12 tiles of 64 × 64 (16 KiB of C
// each) in 1536 CTAs, 4 to an SM. The last 528 dispatched are the ones left at the end and stay
// dirty; each earlier tile has at least the last 528's strips behind it (44 strips of A, 22 MiB,
// all 6 MiB of B, 3/4 of 8.25 MiB of C: 34.2 MiB, past 1.25 × the half, 31.25 MiB), so it is
// written: C less 528 tiles, 16.5 MB. The waves counted from the first CTA leave the last 480
// dirty (17.3 MB), the value (groups of one CTA per SM in turn) 18.9 MB. The H100 measured 17.0 MB
// (profiles/h100.json).
TEST(SmemRegisterModel, WriteBandFromTheLastResidentWave) {
    const auto r = model_of(shape{8192, 768, 2048}).refined;
    const auto* band = r.band(keys::dram_write_bytes);
    ASSERT_NE(band, nullptr);
    EXPECT_DOUBLE_EQ(band->low, 8192.0 * 768 * 4 - 528 * 16384.0);
    EXPECT_GT(*r.get(keys::dram_write_bytes), 18.8e6);
}
