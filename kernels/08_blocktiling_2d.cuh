#pragma once
// blocktiling_2d's kernel body and the constants its launch shares, as a device function: the
// rung's kernel is one call of it, and the GPU test that times each CTA
// (tests/collect/cta_drift_test.cpp) wraps the same body.
#include "step_hook.cuh"

namespace tgemm::kernels::blocktiling_2d {

constexpr int bm = 128;                       // C tile rows per CTA
constexpr int bn = 128;                       // C tile columns per CTA
constexpr int bk = 8;                         // depth of a staged slice of K
constexpr int tm = 8;                         // outputs per thread down a column
constexpr int tn = 8;                         // outputs per thread along a row
constexpr int threads = bm * bn / (tm * tn);  // 256
constexpr int thread_cols = bn / tn;          // 16: a warp is two thread rows of 16
constexpr int smem_bytes = (bm * bk + bk * bn) * 4;
// Two CTAs per SM fit when ptxas stays within 128 registers, which it does without spilling
// (nvcc 13.0, sm_90a). The DRAM model's CTAs in flight follow from these numbers (check with
// ncu's launch__registers_per_thread).
constexpr int min_ctas_per_sm = 2;

// As keeps A's layout, row-major BM×BK, and a thread reads each of its TM rows as BK/4 float4s
// along K; Bs is BK×BN and a thread reads its TN columns of a k as TN/4 float4s. Each staged
// word is used TM (or TN) times from registers, which is the point of the rung.
template <class Step = no_step_hook>
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* a,
                                     const float* b, float beta, float* c, Step step = {}) {
    __shared__ __align__(16) float as[bm * bk];  // (row, k)
    __shared__ __align__(16) float bs[bk * bn];  // (k, column)
    const int tid = threadIdx.x;
    const int tc = tid % thread_cols;  // outputs columns tc·TN … + TN − 1
    const int tr = tid / thread_cols;  // outputs rows tr·TM … + TM − 1
    const int tile_row = blockIdx.y * bm;
    const int tile_col = blockIdx.x * bn;
    constexpr int a_rows_per_pass = threads / bk;  // 32
    constexpr int b_rows_per_pass = threads / bn;  // 2
    const int a_k = tid % bk;
    const int a_r = tid / bk;
    const int b_c = tid % bn;
    const int b_k = tid / bn;

    float acc[tm][tn] = {};
    // Every thread runs K rounded up to BK; words beyond the edges are staged as zeros.
    for (int k0 = 0; k0 < k; k0 += bk) {
        step(k0);
#pragma unroll
        for (int p = 0; p < bm / a_rows_per_pass; ++p) {
            const int r = a_r + p * a_rows_per_pass;
            const int row = tile_row + r;
            const int kx = k0 + a_k;
            as[r * bk + a_k] = (row < m && kx < k) ? a[static_cast<long>(row) * k + kx] : 0.0f;
        }
#pragma unroll
        for (int p = 0; p < bk / b_rows_per_pass; ++p) {
            const int kr = b_k + p * b_rows_per_pass;
            const int kx = k0 + kr;
            const int cx = tile_col + b_c;
            bs[kr * bn + b_c] = (kx < k && cx < n) ? b[static_cast<long>(kx) * n + cx] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k4 = 0; k4 < bk; k4 += 4) {
            float ar[tm][4];
#pragma unroll
            for (int i = 0; i < tm; ++i) {
                const float4 a4 = *reinterpret_cast<const float4*>(&as[(tr * tm + i) * bk + k4]);
                ar[i][0] = a4.x;
                ar[i][1] = a4.y;
                ar[i][2] = a4.z;
                ar[i][3] = a4.w;
            }
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                float br[tn];
#pragma unroll
                for (int j = 0; j < tn; j += 4) {
                    const float4 b4 =
                        *reinterpret_cast<const float4*>(&bs[(k4 + q) * bn + tc * tn + j]);
                    br[j] = b4.x;
                    br[j + 1] = b4.y;
                    br[j + 2] = b4.z;
                    br[j + 3] = b4.w;
                }
#pragma unroll
                for (int i = 0; i < tm; ++i)
#pragma unroll
                    for (int j = 0; j < tn; ++j) acc[i][j] = fmaf(ar[i][q], br[j], acc[i][j]);
            }
        }
        __syncthreads();
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard.
#pragma unroll
    for (int i = 0; i < tm; ++i) {
#pragma unroll
        for (int j = 0; j < tn; ++j) {
            const int row = tile_row + tr * tm + i;
            const int cx = tile_col + tc * tn + j;
            if (row < m && cx < n) {
                const long idx = static_cast<long>(row) * n + cx;
                const float scaled_c = beta * c[idx];
                c[idx] = fmaf(alpha, acc[i][j], scaled_c);
            }
        }
    }
}

}  // namespace tgemm::kernels::blocktiling_2d
