#pragma once
// outer_product's kernel body and the constants its launch shares, as a device function: the rung's
// kernel is one call of it, and the GPU test that times each CTA (tests/collect/cta_drift_test.cpp)
// wraps the same body.
namespace tgemm::kernels::outer_product {

constexpr int v = 4;           // the seed's V
constexpr int threads_x = 32;  // a warp spans one row of threads: its loads of B coalesce
constexpr int threads_y = 8;
constexpr int threads = threads_x * threads_y;
constexpr int bm = threads_y * v;  // 32 rows of C per CTA
constexpr int bn = threads_x * v;  // 128 columns of C per CTA
// Five CTAs per SM fit when ptxas stays within 48 registers, which it does without spilling
// (nvcc 13.0, sm_90a). The DRAM model's CTAs in flight follow from these two numbers (check with
// ncu's launch__registers_per_thread and launch__occupancy_limit_registers).
constexpr int min_ctas_per_sm = 5;

// Thread (tx, ty) owns rows row0 + i (adjacent, as in the seed) and columns col0 + 32·j: the
// columns are a warp-width apart so that the warp's load of b[j] is 32 adjacent words. The
// seed's loads per thread (2V per k) do not depend on that choice.
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* a,
                                     const float* b, float beta, float* c) {
    const int row0 = blockIdx.y * bm + threadIdx.y * v;
    const int col0 = blockIdx.x * bn + threadIdx.x;
    bool row_ok[v];
    bool col_ok[v];
#pragma unroll
    for (int t = 0; t < v; ++t) {
        row_ok[t] = row0 + t < m;
        col_ok[t] = col0 + t * threads_x < n;
    }
    const float* a_col = a + static_cast<long>(row0) * k;  // A[row0][0]
    const float* b_row = b + col0;                         // B[0][col0]
    float acc[v][v] = {};
    // Threads past the edges still run the loop on zeros, so every thread issues V²·K FFMAs.
    for (int kx = 0; kx < k; ++kx) {
        float av[v];
        float bv[v];
#pragma unroll
        for (int t = 0; t < v; ++t) {
            av[t] = row_ok[t] ? a_col[static_cast<long>(t) * k + kx] : 0.0f;
            bv[t] = col_ok[t] ? b_row[static_cast<long>(kx) * n + t * threads_x] : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < v; ++i)
#pragma unroll
            for (int j = 0; j < v; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard.
#pragma unroll
    for (int i = 0; i < v; ++i) {
#pragma unroll
        for (int j = 0; j < v; ++j) {
            if (row_ok[i] && col_ok[j]) {
                const long idx = static_cast<long>(row0 + i) * n + col0 + j * threads_x;
                const float scaled_c = beta * c[idx];
                c[idx] = fmaf(alpha, acc[i][j], scaled_c);
            }
        }
    }
}

}  // namespace tgemm::kernels::outer_product
