#pragma once
// The tile shape of the WMMA kernel (bf16_wmma.cuh), apart from the kernel so that host code (the
// refined model, kernels/tensor/tensor_wmma_model.cpp) compiles it too.
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

}  // namespace tgemm::bf16_wmma
