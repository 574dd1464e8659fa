#pragma once
// vectorized's kernel body, the constants its launch shares and its indexing (which the model
// counts bank conflicts with), as device functions: the rung's kernel is one call of the body, and
// the GPU test that times each CTA (tests/collect/cta_drift_test.cpp) wraps the same body.
#include "step_hook.cuh"
#include "tile_io.cuh"

namespace tgemm::kernels::vectorized {

// Seed 000's tile shape, so the only change from the 2D tiling rung is the access width.
constexpr int bm = 128;
constexpr int bn = 128;
constexpr int bk = 8;
constexpr int tm = 8;
constexpr int tn = 8;
constexpr int threads = bm * bn / (tm * tn);
static_assert(threads == 256, "seed 000: 128·128/(8·8) = 256 threads");
static_assert(bm * bk == 4 * threads, "one float4 of A per thread per K step");
static_assert(bk * bn == 4 * threads, "one float4 of B per thread per K step");
static_assert(tm % 4 == 0 && tn % 4 == 0, "thread tiles are read as float4");

// The kernel's indexing, shared with the model, which counts the bank conflicts of the very
// addresses the kernel uses. Where thread `tid` works: in stage 1 its float4 of A (two threads
// per row of the 128×8 tile) and of B (a warp per row of the 8×128 tile), in stage 2 its 8×8
// outputs (row and column of thread tiles).
struct placement {
    int a_row, a_col, b_row, b_col;
    int row, col;
};
__host__ __device__ constexpr placement place(int tid) {
    return {tid / (bk / 4),     tid % (bk / 4) * 4, tid / (bn / 4),
            tid % (bn / 4) * 4, tid / (bn / tn),    tid % (bn / tn)};
}
// Offsets in floats into the shared tiles: stage 1 stores element q of the thread's float4 of A
// transposed and its float4 of B; stage 2, step kk, loads the float4s at row i of A's tile and
// column j of B's.
__host__ __device__ constexpr int a_store(const placement& p, int q) {
    return (p.a_col + q) * bm + p.a_row;
}
__host__ __device__ constexpr int b_store(const placement& p) {
    return p.b_row * bn + p.b_col;
}
__host__ __device__ constexpr int a_load(const placement& p, int kk, int i) {
    return kk * bm + p.row * tm + i;
}
__host__ __device__ constexpr int b_load(const placement& p, int kk, int j) {
    return kk * bn + p.col * tn + j;
}

template <bool Vec, class Step = no_step_hook>
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* __restrict__ a,
                                     const float* __restrict__ b, float beta, float* __restrict__ c,
                                     Step step = {}) {
    __shared__ alignas(16) float as[bk * bm];  // (k, m): A transposed
    __shared__ alignas(16) float bs[bk * bn];  // (k, n)
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * bm;
    const int col0 = blockIdx.x * bn;
    const placement p = place(tid);

    float acc[tm][tn] = {};
    for (int k0 = 0; k0 < k; k0 += bk) {
        step(k0);
        const float4 av = kernels::load4_guarded<Vec>(a, m, k, row0 + p.a_row, k0 + p.a_col);
        as[a_store(p, 0)] = av.x;
        as[a_store(p, 1)] = av.y;
        as[a_store(p, 2)] = av.z;
        as[a_store(p, 3)] = av.w;
        *reinterpret_cast<float4*>(&bs[b_store(p)]) =
            kernels::load4_guarded<Vec>(b, k, n, k0 + p.b_row, col0 + p.b_col);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < bk; ++kk) {
            float ra[tm];
            float rb[tn];
#pragma unroll
            for (int i = 0; i < tm; i += 4)
                *reinterpret_cast<float4*>(&ra[i]) =
                    *reinterpret_cast<const float4*>(&as[a_load(p, kk, i)]);
#pragma unroll
            for (int j = 0; j < tn; j += 4)
                *reinterpret_cast<float4*>(&rb[j]) =
                    *reinterpret_cast<const float4*>(&bs[b_load(p, kk, j)]);
#pragma unroll
            for (int i = 0; i < tm; ++i)
#pragma unroll
                for (int j = 0; j < tn; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < tm; ++i)
#pragma unroll
        for (int j = 0; j < tn; j += 4)
            kernels::update4_guarded<Vec>(
                c, m, n, row0 + p.row * tm + i, col0 + p.col * tn + j, alpha, beta,
                make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

}  // namespace tgemm::kernels::vectorized
