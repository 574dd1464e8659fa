// Rung 05, outer-product register tiling (kernels/05_outer_product.cu): V = 4, 32×8 threads,
// 32×128 C tile. Derivations in docs/models/05_outer_product.md.
#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
rung_model model_of(const shape& s) {
    return rung_registry::get().find("outer_product").model(s, test::h100());
}
}  // namespace

TEST(OuterProductModel, TextbookIsTheSeedsFormula) {
    // Lecture 004 v2 at N = 1024, V = 4: 2N³/V = 536,870,912 loads, 2,147,483,648 bytes.
    const auto m = model_of(shape{1024, 1024, 1024});
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes, 536870912.0 * 4);
    EXPECT_DOUBLE_EQ(m.textbook.flops, 2.0 * 1073741824 + 2.0 * 1048576);
    EXPECT_NE(m.textbook.formula.find("2N³/V"), std::string::npos);
    // Per output K/V of A, K/V of B and C itself: 8/4 + 8/4 + 1 at K = 8.
    EXPECT_DOUBLE_EQ(*model_of(shape{64, 64, 8}).textbook.loads_per_output, 5);
}

TEST(OuterProductModel, FlopsAreWhatTheKernelExecutes) {
    EXPECT_DOUBLE_EQ(*model_of(shape{4096, 4096, 4096}).refined.get(keys::flops),
                     137438953472.0 + 50331648.0);
    // 1000×777×333: 1024 × 896 outputs in the grid, the loop runs exactly K = 333.
    EXPECT_DOUBLE_EQ(*model_of(shape{1000, 777, 333}).refined.get(keys::flops),
                     2.0 * 1024 * 896 * 333 + 2331000.0);
}

TEST(OuterProductModel, L1AndDramAt4096) {
    const auto r = model_of(shape{4096, 4096, 4096}).refined;
    // A: one broadcast sector per (row, CTA column, k): 536,870,912. B: one pass over B in
    // 32-word pieces per thread row, 4096/4 = 1024 of them: 1024 · 2,097,152 = 2,147,483,648.
    // C: 2,097,152 read and written.
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_load_bytes),
                     32.0 * (536870912.0 + 2147483648.0 + 2097152.0));  // 86.0 GB
    EXPECT_DOUBLE_EQ(*r.get(keys::l1_global_store_bytes), 32.0 * 2097152);
    EXPECT_DOUBLE_EQ(*r.get(keys::smem_load_wavefronts), 0);
    // 48 registers → 5 CTAs per SM, drifting apart: the same 32 groups of 132 CTAs as rung
    // 04, 156 strips of A, B 31 times + 8 MiB, C once (H100: 2.12 GB read, B 30 times).
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_read_bytes),
                     156.0 * 524288 + 31.0 * 67108864 + 8388608 + 67108864);
    // Writes: the last two groups of 132 CTAs (4096 = 31·132 + 4: 4 + 132 tiles of 16 KiB) stay
    // dirty in L2; every earlier tile has all of B behind it (64 MiB, over half the L2): written.
    EXPECT_DOUBLE_EQ(*r.get(keys::dram_write_bytes), 67108864.0 - 136 * 16384.0);
}
