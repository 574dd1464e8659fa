#pragma once
// smem_register's kernel body and the constants its launch shares, as a device function: the rung's
// kernel is one call of it, and the GPU test that times each CTA (tests/collect/cta_drift_test.cpp)
// wraps the same body.
#include "step_hook.cuh"

namespace tgemm::kernels::smem_register {

constexpr int l = 64;        // the seed's L: C tile per CTA is L×L
constexpr int s_depth = 8;   // the seed's S: depth of a staged slice of K
constexpr int v = 4;         // the seed's V: C block per thread is V×V
constexpr int side = l / v;  // threads along each side of the CTA
constexpr int threads = side * side;
// sA holds the slice of A transposed, k-major like the seed's sA[S][L], so a thread's V rows are
// one float4. Its rows are padded by 4 words: the transposing stores of a warp (4 rows of A ×
// 8 k) then land on 32 different banks, and rows stay 16-byte aligned for the float4 reads.
constexpr int sa_pitch = l + 4;
constexpr int smem_bytes = (s_depth * sa_pitch + s_depth * l) * 4;
// Four CTAs per SM: ptxas (nvcc 13.0, sm_90a) takes 63 of the 64 registers that leaves (51
// unbounded; five CTAs would need 48). The DRAM model's CTAs in flight follow from these numbers
// (check with ncu's launch__registers_per_thread).
constexpr int min_ctas_per_sm = 4;

template <class Step = no_step_hook>
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* a,
                                     const float* b, float beta, float* c, Step step = {}) {
    __shared__ __align__(16) float sa[s_depth][sa_pitch];  // (k, row of the CTA tile)
    __shared__ __align__(16) float sb[s_depth][l];         // (k, column of the CTA tile)
    const int tid = threadIdx.x;
    const int tx = tid % side;  // column block of the thread
    const int ty = tid / side;  // row block of the thread
    const int tile_row = blockIdx.y * l;
    const int tile_col = blockIdx.x * l;
    // Cooperative fetching: consecutive threads take consecutive words of a row of A (along K)
    // or of B (along N), so each warp request reads whole 32-byte sectors.
    constexpr int a_rows_per_pass = threads / s_depth;  // 32
    constexpr int b_rows_per_pass = threads / l;        // 4
    const int a_k = tid % s_depth;
    const int a_r = tid / s_depth;
    const int b_c = tid % l;
    const int b_k = tid / l;

    float acc[v][v] = {};
    // Every thread runs K rounded up to S; words beyond the edges are staged as zeros.
    for (int k0 = 0; k0 < k; k0 += s_depth) {
        step(k0);
#pragma unroll
        for (int p = 0; p < s_depth * l / threads; ++p) {
            const int r = a_r + p * a_rows_per_pass;
            const int row = tile_row + r;
            const int kx = k0 + a_k;
            sa[a_k][r] = (row < m && kx < k) ? a[static_cast<long>(row) * k + kx] : 0.0f;
        }
#pragma unroll
        for (int p = 0; p < s_depth * l / threads; ++p) {
            const int kr = b_k + p * b_rows_per_pass;
            const int col = tile_col + b_c;
            const int kx = k0 + kr;
            sb[kr][b_c] = (kx < k && col < n) ? b[static_cast<long>(kx) * n + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int ki = 0; ki < s_depth; ++ki) {
            const float4 av = *reinterpret_cast<const float4*>(&sa[ki][ty * v]);
            const float4 bv = *reinterpret_cast<const float4*>(&sb[ki][tx * v]);
            const float ar[v] = {av.x, av.y, av.z, av.w};
            const float br[v] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
            for (int i = 0; i < v; ++i)
#pragma unroll
                for (int j = 0; j < v; ++j) acc[i][j] = fmaf(ar[i], br[j], acc[i][j]);
        }
        __syncthreads();
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard.
#pragma unroll
    for (int i = 0; i < v; ++i) {
#pragma unroll
        for (int j = 0; j < v; ++j) {
            const int row = tile_row + ty * v + i;
            const int col = tile_col + tx * v + j;
            if (row < m && col < n) {
                const long idx = static_cast<long>(row) * n + col;
                const float scaled_c = beta * c[idx];
                c[idx] = fmaf(alpha, acc[i][j], scaled_c);
            }
        }
    }
}

}  // namespace tgemm::kernels::smem_register
