#pragma once
// The tile shape and the indexing of the WMMA kernel (bf16_wmma.cuh), apart from the kernel so
// that host code compiles them too: the refined model (kernels/tensor/tensor_wmma_model.cpp)
// counts sectors and wavefronts through these very functions.
#include "tensor/host_device.hpp"

namespace tgemm::bf16_wmma {

struct config {
    static constexpr int bm = 128;
    static constexpr int bn = 128;
    static constexpr int bk = 32;
    static constexpr int threads = 256;
    static constexpr int wm = 32;
    static constexpr int wn = 64;
    static constexpr int lda = bk + 8;  // bf16 per row of A's tile, padded
    static constexpr int ldb = bn + 8;
    static constexpr int ldc = wn + 4;  // floats per row of a warp's accumulator tile
    static constexpr int a_bytes = bm * lda * 2;
    static constexpr int b_bytes = bk * ldb * 2;
    static constexpr int c_bytes = threads / 32 * wm * ldc * 4;
    static constexpr int smem_bytes = (a_bytes + b_bytes) > c_bytes ? (a_bytes + b_bytes) : c_bytes;
};

// Where warp `warp` works in the CTA tile: 4 rows of 2 warp tiles of 32×64.
TGEMM_HD constexpr int warp_m0(int warp) {
    return (warp / 2) * config::wm;
}
TGEMM_HD constexpr int warp_n0(int warp) {
    return (warp % 2) * config::wn;
}
// The copies of one K step: copy idx (two per thread, tid and tid + threads) moves 16 bytes,
// 8 bf16; A's 128×32 tile is 128 rows × 4 chunks, B's 32×128 tile 32 rows × 16 chunks.
TGEMM_HD constexpr int a_copy_row(int idx) {
    return idx / 4;
}
TGEMM_HD constexpr int a_copy_col(int idx) {
    return idx % 4 * 8;
}
TGEMM_HD constexpr int b_copy_row(int idx) {
    return idx / 16;
}
TGEMM_HD constexpr int b_copy_col(int idx) {
    return idx % 16 * 8;
}

}  // namespace tgemm::bf16_wmma
