#pragma once
// The seeds' element-count formulas (docs/formulas.md), as pure functions, so the
// rungs and the tests use one definition. Element counts; multiply by 4 B for FP32 bytes.
#include "core/shape.hpp"

namespace tgemm::textbook {

// Naive, one thread per output: 2K element loads per output, plus C read and written
// (seed 003). AI = (2MNK + 2MN) / ((2MNK + 2MN)·4 B) = 0.25 FLOP/B for every shape.
[[nodiscard]] inline double naive_bytes(const shape& s) {
    return (2.0 * s.m * s.n * s.k + 2.0 * s.m * s.n) * 4.0;
}
// Lecture 004 v1: every output reads a row of A and a column of B: 2N³ element loads.
[[nodiscard]] inline double naive_loads(const shape& s) {
    return 2.0 * s.m * s.n * s.k;
}

// Seed 003 block tiling: (2MNK/BLOCK_DIM + 2MN)·4 B.
[[nodiscard]] inline double block_tiling_bytes(const shape& s, int block_dim) {
    return (2.0 * s.m * s.n * s.k / block_dim + 2.0 * s.m * s.n) * 4.0;
}

// Seed 002's per-block count for a T×T tile of an N×N product: the block computes T² outputs
// of 2N FLOPs each and loads a T×N strip of A and an N×T strip of B (K multiply-adds only; no
// epilogue, no C traffic). AI = 2T²N / (2TN·4 B) = T/4.
struct block_count {
    double flops;
    double bytes;
    [[nodiscard]] double ai() const { return flops / bytes; }
};
[[nodiscard]] inline block_count seed002_block(std::int64_t n, std::int64_t tile) {
    return {2.0 * tile * tile * n, 2.0 * tile * n * 4.0};
}

}  // namespace tgemm::textbook
