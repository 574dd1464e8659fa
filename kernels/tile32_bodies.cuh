#pragma once
// The bodies of the two rungs with 32 × 32 tiles of 1024 threads, naive (02) and smem_tiling
// (03), as device functions: each rung's kernel is one call of its body, and the GPU test that
// times their CTAs (tests/collect/cta_drift_test.cpp) wraps the same body in timestamps, so the
// code it observes is the rung's own.
#include "step_hook.cuh"

namespace tgemm::kernels::tile32 {

constexpr int tile = 32;

// One output per thread, consecutive threads of a warp on consecutive columns.
__device__ __forceinline__ void naive_body(int m, int n, int k, float alpha, const float* a,
                                           const float* b, float beta, float* c) {
    const int col = blockIdx.x * tile + threadIdx.x;  // varies fastest across the warp
    const int row = blockIdx.y * tile + threadIdx.y;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int i = 0; i < k; ++i)
        acc += a[static_cast<long>(row) * k + i] * b[static_cast<long>(i) * n + col];
    const long idx = static_cast<long>(row) * n + col;
    c[idx] = alpha * acc + beta * c[idx];
}

// A 32 × 32 tile of A and of B staged in shared memory per step of K.
template <class Step = no_step_hook>
__device__ __forceinline__ void smem_tiling_body(int m, int n, int k, float alpha, const float* a,
                                                 const float* b, float beta, float* c,
                                                 Step step = {}) {
    __shared__ float as[tile][tile];  // (row, k)
    __shared__ float bs[tile][tile];  // (k, col)
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * tile + ty;
    const int col = blockIdx.x * tile + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < k; k0 += tile) {
        step(k0);
        // Out-of-range elements are staged as zeros, so edge tiles need no special inner loop.
        const int ka = k0 + tx;
        const int kb = k0 + ty;
        as[ty][tx] = (row < m && ka < k) ? a[static_cast<long>(row) * k + ka] : 0.0f;
        bs[ty][tx] = (kb < k && col < n) ? b[static_cast<long>(kb) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < tile; ++i) acc += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n) {
        const long idx = static_cast<long>(row) * n + col;
        c[idx] = alpha * acc + beta * c[idx];
    }
}

}  // namespace tgemm::kernels::tile32
