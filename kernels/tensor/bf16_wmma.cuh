#pragma once
// BF16 GEMM with the WMMA API (rung 13, bf16_wmma): seed 003's first tensor-core step, 16×16×16
// fragments loaded from shared-memory tiles with wmma::load_matrix_sync (PTX wmma.load). Runs
// on sm_80 and later.
//
// Per CTA a 128×128 tile, 8 warps in a 4×2 grid of 32×64 warp tiles (2×4 fragments). Each K
// step of 32 is copied into shared memory with 16-byte loads and stores (one stage, two
// barriers per step, as the seed's kernel does); rows are padded by 8 bf16 so that wmma.load's
// 16-byte row reads do not all start in one bank group. The accumulators go through shared
// memory (wmma::store_matrix_sync) to the α/β epilogue.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>

#include "tensor/bf16_wmma_config.hpp"
#include "tensor/problem.hpp"

namespace tgemm::bf16_wmma {

// The kernel reads the problem as the launchers hold it: all three operands through pointers.
using params = tensor::problem;

__global__ void __launch_bounds__(config::threads) bf16_wmma_kernel(const params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    using cfg = config;
    extern __shared__ __align__(128) std::uint8_t smem[];
    auto* as = reinterpret_cast<__nv_bfloat16*>(smem);
    auto* bs = reinterpret_cast<__nv_bfloat16*>(smem + cfg::a_bytes);
    const int tid = threadIdx.x;
    const int warp = tid / 32;
    const int wm0 = warp_m0(warp);
    const int wn0 = warp_n0(warp);
    const int m0 = blockIdx.y * cfg::bm;
    const int n0 = blockIdx.x * cfg::bn;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < p.k; k0 += cfg::bk) {
        // A: 128 rows × 4 chunks of 8; B: 32 rows × 16 chunks. Two of each per thread. K and N
        // are multiples of 8, so a chunk is wholly inside or wholly outside the matrix.
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int idx = tid + i * cfg::threads;
            const int r = a_copy_row(idx), c = a_copy_col(idx);
            uint4 v = make_uint4(0, 0, 0, 0);
            if (m0 + r < p.m && k0 + c < p.k)
                v = *reinterpret_cast<const uint4*>(p.a + static_cast<std::size_t>(m0 + r) * p.k +
                                                    k0 + c);
            *reinterpret_cast<uint4*>(as + r * cfg::lda + c) = v;
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int idx = tid + i * cfg::threads;
            const int r = b_copy_row(idx), c = b_copy_col(idx);
            uint4 v = make_uint4(0, 0, 0, 0);
            if (k0 + r < p.k && n0 + c < p.n)
                v = *reinterpret_cast<const uint4*>(p.b + static_cast<std::size_t>(k0 + r) * p.n +
                                                    n0 + c);
            *reinterpret_cast<uint4*>(bs + r * cfg::ldb + c) = v;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < cfg::bk; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[4];
#pragma unroll
            for (int i = 0; i < 2; ++i)
                wmma::load_matrix_sync(fa[i], as + (wm0 + 16 * i) * cfg::lda + kk, cfg::lda);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                wmma::load_matrix_sync(fb[j], bs + kk * cfg::ldb + wn0 + 16 * j, cfg::ldb);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }

    // Each warp parks its 32×64 accumulators in shared memory and writes its rows of C.
    float* cs = reinterpret_cast<float*>(smem) + warp * cfg::wm * cfg::ldc;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
            wmma::store_matrix_sync(cs + 16 * i * cfg::ldc + 16 * j, acc[i][j], cfg::ldc,
                                    wmma::mem_row_major);
    __syncwarp();
    const int lane = tid % 32;
    for (int r = 0; r < cfg::wm; ++r) {
        const int row = m0 + wm0 + r;
        const int col = n0 + wn0 + 2 * lane;
        if (row >= p.m || col >= p.n) continue;
        auto* out =
            reinterpret_cast<__nv_bfloat162*>(p.c + static_cast<std::size_t>(row) * p.n + col);
        float x = p.alpha * cs[r * cfg::ldc + 2 * lane];
        float y = p.alpha * cs[r * cfg::ldc + 2 * lane + 1];
        if (p.beta != 0.0f) {
            const float2 old = __bfloat1622float2(*out);
            x = fmaf(p.beta, old.x, x);
            y = fmaf(p.beta, old.y, y);
        }
        *out = __floats2bfloat162_rn(x, y);
    }
#else
    (void)p;
    __trap();
#endif
}

}  // namespace tgemm::bf16_wmma
