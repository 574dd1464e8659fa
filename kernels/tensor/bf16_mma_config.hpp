#pragma once
// The tile shape and shared-memory layout of the mma.sync kernel (bf16_mma.cuh), apart from the
// kernel so that host code compiles them too: the refined model
// (kernels/tensor/tensor_mma_model.cpp) counts bank conflicts and copy sectors through these very
// functions.
#include "tensor/host_device.hpp"

namespace tgemm::bf16_mma {

template <int BM, int BN, int Stages>
struct config {
    static constexpr int bm = BM;
    static constexpr int bn = BN;
    static constexpr int bk = 32;
    static constexpr int stages = Stages;
    static constexpr int threads = 128;
    static constexpr int wm = BM / 2;  // warp tile
    static constexpr int wn = BN / 2;
    static constexpr int m16 = wm / 16;  // m16 blocks per warp
    static constexpr int n8 = wn / 8;    // n8 blocks per warp
    static_assert(wm % 16 == 0 && wn % 16 == 0, "warp tiles of whole m16 and n16 blocks");
    static constexpr int a_chunks = bk / 8;  // 16-byte chunks per row of A's tile
    static constexpr int b_chunks = BN / 8;  // per row of B's tile
    static_assert(b_chunks % 8 == 0, "B's swizzle permutes chunks in groups of 8");
    static constexpr int a_stage_bytes = BM * bk * 2;
    static constexpr int b_stage_bytes = bk * BN * 2;
    static constexpr int smem_bytes = Stages * (a_stage_bytes + b_stage_bytes);
    static constexpr int a_copies = BM * a_chunks / threads;  // 16-byte copies per thread
    static constexpr int b_copies = bk * b_chunks / threads;
    static_assert(BM * a_chunks % threads == 0 && bk * b_chunks % threads == 0,
                  "copies split evenly among the threads");
    // Where warp `warp` works in the CTA tile: 2×2 warp tiles.
    TGEMM_HD static constexpr int warp_m0(int warp) { return (warp / 2) * wm; }
    TGEMM_HD static constexpr int warp_n0(int warp) { return (warp % 2) * wn; }
};

// Byte offset of chunk `chunk` of row `row` in a stage of A's tile.
TGEMM_HD constexpr int a_chunk_offset(int row, int chunk) {
    return row * 64 + ((chunk ^ ((row >> 1) & 3)) << 4);
}
// Byte offset of chunk `chunk` of row `row` in a stage of B's tile of `bn` columns.
TGEMM_HD constexpr int b_chunk_offset(int row, int chunk, int bn) {
    return row * bn * 2 + ((chunk ^ (row & 7)) << 4);
}

// The row address lane `lane` hands ldmatrix.x4 for m16 block i of a warp tile starting at row
// wm0, k16 step kk: lanes 0-15 give rows 0-15 of chunk 2kk, lanes 16-31 the same rows of chunk
// 2kk + 1 (mma's A fragment a0..a3).
TGEMM_HD constexpr int a_ldsm_offset(int wm0, int i, int kk, int lane) {
    return a_chunk_offset(wm0 + 16 * i + lane % 16, 2 * kk + lane / 16);
}
// The row address for ldmatrix.x4.trans of the n16 block j of a warp tile starting at column
// wn0: lanes 0-7 and 8-15 give k rows 0-7 and 8-15 of the block's first 8 columns, lanes 16-31
// the same of its next 8 (two n8 fragments b0, b1).
TGEMM_HD constexpr int b_ldsm_offset(int wn0, int j, int kk, int lane, int bn) {
    return b_chunk_offset(16 * kk + lane % 8 + 8 * ((lane / 8) % 2), (wn0 + 16 * j) / 8 + lane / 16,
                          bn);
}

}  // namespace tgemm::bf16_mma
