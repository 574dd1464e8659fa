#include <gtest/gtest.h>

#include "model/rung_model.hpp"
#include "model/textbook.hpp"

using namespace tgemm;

// Seed 003: naive AI = (2MNK + 2MN) / ((2MNK + 2MN)·4) = 0.25 FLOP/B, for any shape.
TEST(Textbook, NaiveIsQuarterFlopPerByte) {
    for (const auto s : {shape{256, 256, 256}, shape{4096, 4096, 4096}, shape{1000, 777, 333}})
        EXPECT_DOUBLE_EQ(model::seed_flops(s) / textbook::naive_bytes(s), 0.25);
    // Seed 002: 512 FLOP / 2048 B = 0.25 for one output at N = 256, i.e. a 1×1 tile of its
    // per-block count.
    const auto one = textbook::seed002_block(256, 1);
    EXPECT_DOUBLE_EQ(one.flops, 512.0);
    EXPECT_DOUBLE_EQ(one.bytes, 2048.0);
    EXPECT_DOUBLE_EQ(one.ai(), 0.25);
}

// Lecture 004 v1: 2N³ element loads.
TEST(Textbook, NaiveLoadsAreTwoNCubed) {
    EXPECT_DOUBLE_EQ(textbook::naive_loads(shape{1024, 1024, 1024}), 2.0 * 1024 * 1024 * 1024);
}

// Seed 003: (2MNK/32 + 2MN)·4 B → ≈ 7.94 FLOP/B at 4096³.
TEST(Textbook, BlockTilingAt4096Is794) {
    const shape s{4096, 4096, 4096};
    const double ai = model::seed_flops(s) / textbook::block_tiling_bytes(s, 32);
    EXPECT_NEAR(ai, 7.94, 0.005);
    EXPECT_DOUBLE_EQ(textbook::block_tiling_bytes(s, 32),
                     (2.0 * 4096 * 4096 * 4096 / 32 + 2.0 * 4096 * 4096) * 4);
}

// Seed 002: 32×32 tiles at N = 256 load 64 KB per block for 524,288 FLOPs: 8.0 FLOP/B, 32×
// the naive 0.25.
TEST(Textbook, Seed002TileIsEightFlopPerByte) {
    const auto b = textbook::seed002_block(256, 32);
    EXPECT_DOUBLE_EQ(b.flops, 524288.0);
    EXPECT_DOUBLE_EQ(b.bytes, 64.0 * 1024);
    EXPECT_DOUBLE_EQ(b.ai(), 8.0);
    EXPECT_DOUBLE_EQ(b.ai() / textbook::seed002_block(256, 1).ai(), 32.0);
}

// The executed count of an α·acc + β·C epilogue: FFMA = MNK + MN, FMUL = MN (docs/anchors.md:
// FFMA = 68,736,253,952 and FMUL = 16,777,216 at 4096³).
TEST(Textbook, ExecutedFlopsMatchTheAnchorCounts) {
    const shape s{4096, 4096, 4096};
    const double ffma = 68736253952.0;
    const double fmul = 16777216.0;
    EXPECT_DOUBLE_EQ(model::executed_flops(s, s.k), 2 * ffma + fmul);
    EXPECT_DOUBLE_EQ(model::seed_flops(s), 2.0 * 4096 * 4096 * 4096 + 2.0 * 4096 * 4096);
}
