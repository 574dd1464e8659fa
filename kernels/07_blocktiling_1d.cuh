#pragma once
// blocktiling_1d's kernel body and the constants its launch shares, as a device function: the
// rung's kernel is one call of it, and the GPU test that times each CTA
// (tests/collect/cta_drift_test.cpp) wraps the same body.
#include "step_hook.cuh"

namespace tgemm::kernels::blocktiling_1d {

constexpr int bm = 64;                 // C tile rows per CTA
constexpr int bn = 64;                 // C tile columns per CTA
constexpr int bk = 8;                  // depth of a staged slice of K
constexpr int tm = 8;                  // outputs per thread, down a column
constexpr int threads = bm * bn / tm;  // 512
constexpr int smem_bytes = (bm * bk + bk * bn) * 4;
// Two CTAs per SM. ptxas (nvcc 13.0, sm_90a) takes the whole budget that leaves, 64 registers
// (54 unbounded); a third CTA would need 40 and spills. The DRAM model's CTAs in flight follow
// from these numbers (check with ncu's launch__registers_per_thread).
constexpr int min_ctas_per_sm = 2;

// As keeps A's layout, row-major BM×BK: one thread's TM rows are TM·BK adjacent words, read as
// float4s; every lane of a warp reads the same ones (the warp shares its rows and spans 32
// columns).
template <class Step = no_step_hook>
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* a,
                                     const float* b, float beta, float* c, Step step = {}) {
    __shared__ __align__(16) float as[bm * bk];  // (row, k)
    __shared__ __align__(16) float bs[bk * bn];  // (k, column)
    const int tid = threadIdx.x;
    const int col = tid % bn;        // output column within the tile
    const int row_group = tid / bn;  // outputs rows row_group·TM … + TM − 1
    const int tile_row = blockIdx.y * bm;
    const int tile_col = blockIdx.x * bn;
    const int a_r = tid / bk;
    const int a_k = tid % bk;
    const int b_k = tid / bn;
    const int b_c = tid % bn;

    float acc[tm] = {};
    // Every thread runs K rounded up to BK; words beyond the edges are staged as zeros.
    for (int k0 = 0; k0 < k; k0 += bk) {
        step(k0);
        {
            const int row = tile_row + a_r;
            const int kx = k0 + a_k;
            as[a_r * bk + a_k] = (row < m && kx < k) ? a[static_cast<long>(row) * k + kx] : 0.0f;
        }
        {
            const int kx = k0 + b_k;
            const int cx = tile_col + b_c;
            bs[b_k * bn + b_c] = (kx < k && cx < n) ? b[static_cast<long>(kx) * n + cx] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k4 = 0; k4 < bk; k4 += 4) {
            float ar[tm][4];
#pragma unroll
            for (int t = 0; t < tm; ++t) {
                const float4 a4 =
                    *reinterpret_cast<const float4*>(&as[(row_group * tm + t) * bk + k4]);
                ar[t][0] = a4.x;
                ar[t][1] = a4.y;
                ar[t][2] = a4.z;
                ar[t][3] = a4.w;
            }
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const float bv = bs[(k4 + q) * bn + col];
#pragma unroll
                for (int t = 0; t < tm; ++t) acc[t] = fmaf(ar[t][q], bv, acc[t]);
            }
        }
        __syncthreads();
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard.
    const int cx = tile_col + col;
#pragma unroll
    for (int t = 0; t < tm; ++t) {
        const int row = tile_row + row_group * tm + t;
        if (row < m && cx < n) {
            const long idx = static_cast<long>(row) * n + cx;
            const float scaled_c = beta * c[idx];
            c[idx] = fmaf(alpha, acc[t], scaled_c);
        }
    }
}

}  // namespace tgemm::kernels::blocktiling_1d
