#pragma once
// thread_tiling's kernel body and the constants its launch shares, as a device function: the rung's
// kernel is one call of it, and the GPU test that times each CTA (tests/collect/cta_drift_test.cpp)
// wraps the same body.
namespace tgemm::kernels::thread_tiling {

constexpr int v = 4;           // outputs per thread along each side (the seed's V)
constexpr int kc = 4;          // words of an A row held in registers at a time
constexpr int threads_x = 32;  // a warp spans one row of threads: its loads of B coalesce
constexpr int threads_y = 8;
constexpr int threads = threads_x * threads_y;
constexpr int bm = threads_y * v;  // 32 rows of C per CTA
constexpr int bn = threads_x * v;  // 128 columns of C per CTA
// Five CTAs per SM: ptxas (nvcc 13.0, sm_90a) fills the 48 registers that leaves without
// spilling (40 unbounded; asking for six CTAs makes it spill). The DRAM model's CTAs in flight
// follow from these numbers (check with ncu's launch__registers_per_thread).
constexpr int min_ctas_per_sm = 5;

// Thread (tx, ty) owns rows row0 + i (i < V, adjacent, as in the seed) and columns col0 + 32·j
// (j < V). The columns are a warp-width apart instead of adjacent so that, for each j, the 32
// lanes of a warp read 32 adjacent words of B; the number of loads, and so the seed's formula,
// is the same either way.
__device__ __forceinline__ void body(int m, int n, int k, float alpha, const float* a,
                                     const float* b, float beta, float* c) {
    const int row0 = blockIdx.y * bm + threadIdx.y * v;
    const int col0 = blockIdx.x * bn + threadIdx.x;
    float acc[v][v] = {};
#pragma unroll
    for (int i = 0; i < v; ++i) {
        const int row = row0 + i;
        const bool row_ok = row < m;
        const float* a_row = a + static_cast<long>(row) * k;
        // Every thread walks K rounded up to KC whatever its position, so the FFMA count is
        // the same for all threads; out-of-range words load as zero.
        for (int k0 = 0; k0 < k; k0 += kc) {
            float a_chunk[kc];
#pragma unroll
            for (int kk = 0; kk < kc; ++kk)
                a_chunk[kk] = (row_ok && k0 + kk < k) ? a_row[k0 + kk] : 0.0f;
#pragma unroll
            for (int j = 0; j < v; ++j) {
                const int col = col0 + j * threads_x;
                const bool col_ok = col < n;
#pragma unroll
                for (int kk = 0; kk < kc; ++kk) {
                    const int kx = k0 + kk;
                    const float bv = (col_ok && kx < k) ? b[static_cast<long>(kx) * n + col] : 0.0f;
                    acc[i][j] = fmaf(a_chunk[kk], bv, acc[i][j]);
                }
            }
        }
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard, so
    // threads of the padded edge add nothing to the count.
#pragma unroll
    for (int i = 0; i < v; ++i) {
#pragma unroll
        for (int j = 0; j < v; ++j) {
            const int row = row0 + i;
            const int col = col0 + j * threads_x;
            if (row < m && col < n) {
                const long idx = static_cast<long>(row) * n + col;
                const float scaled_c = beta * c[idx];
                c[idx] = fmaf(alpha, acc[i][j], scaled_c);
            }
        }
    }
}

}  // namespace tgemm::kernels::thread_tiling
