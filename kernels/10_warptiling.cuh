#pragma once
// warptiling's kernel body, the constants its launch shares and its indexing (which the model
// counts bank conflicts with), as device functions: the rung's kernel is one call of the body, and
// the GPU test that times each CTA (tests/collect/cta_drift_test.cpp) wraps the same body.
#include "step_hook.cuh"
#include "tile_io.cuh"

namespace tgemm::kernels::warptiling {

// Seed 003's kernel 05 configuration: 128 threads, warp tile 32×128, thread tile 16×8.
constexpr int bm = 128;
constexpr int bn = 128;
constexpr int bk = 16;
constexpr int wm = 32;
constexpr int wn = 128;
constexpr int tm = 16;
constexpr int tn = 8;
constexpr int warps = bm * bn / (wm * wn);
constexpr int threads = warps * 32;
static_assert(bm % wm == 0 && bn % wn == 0, "warp tiles cover the block tile");
static_assert(wm * wn / (tm * tn) == 32, "seed 003: 32 threads per warp = WM·WN/(TM·TN)");
static_assert(warps == 4 && threads == 128, "seed 003 kernel 05 runs 128 threads");
static_assert(wm % tm == 0 && wn % tn == 0, "thread tiles cover the warp tile");
static_assert(tm % 4 == 0 && tn % 4 == 0, "thread tiles are read as float4");
static_assert((bm * bk / 4) % threads == 0 && threads % (bk / 4) == 0,
              "the tile of A splits evenly into one float4 per thread per pass");
static_assert((bk * bn / 4) % threads == 0 && threads % (bn / 4) == 0,
              "the tile of B splits evenly into one float4 per thread per pass");
constexpr int a_loads = bm * bk / 4 / threads;  // float4 of A per thread per K step
constexpr int b_loads = bk * bn / 4 / threads;
constexpr int a_row_step = threads / (bk / 4);
constexpr int b_row_step = threads / (bn / 4);

// Where lane `lane` of warp `warp` works inside the block tile.
struct placement {
    int row;  // first row of its TM×TN tile
    int col;  // first column
};
__host__ __device__ constexpr placement place(int warp, int lane) {
    return {(warp / (bn / wn)) * wm + (lane / (wn / tn)) * tm,
            (warp % (bn / wn)) * wn + (lane % (wn / tn)) * tn};
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
    const placement p = place(tid / 32, tid % 32);
    const int a_row = tid / (bk / 4);
    const int a_col = tid % (bk / 4) * 4;
    const int b_row = tid / (bn / 4);
    const int b_col = tid % (bn / 4) * 4;

    float acc[tm][tn] = {};
    for (int k0 = 0; k0 < k; k0 += bk) {
        step(k0);
#pragma unroll
        for (int l = 0; l < a_loads; ++l) {
            const int r = a_row + l * a_row_step;
            const float4 v = kernels::load4_guarded<Vec>(a, m, k, row0 + r, k0 + a_col);
            as[(a_col + 0) * bm + r] = v.x;
            as[(a_col + 1) * bm + r] = v.y;
            as[(a_col + 2) * bm + r] = v.z;
            as[(a_col + 3) * bm + r] = v.w;
        }
#pragma unroll
        for (int l = 0; l < b_loads; ++l) {
            const int r = b_row + l * b_row_step;
            *reinterpret_cast<float4*>(&bs[r * bn + b_col]) =
                kernels::load4_guarded<Vec>(b, k, n, k0 + r, col0 + b_col);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < bk; ++kk) {
            float ra[tm];
            float rb[tn];
#pragma unroll
            for (int i = 0; i < tm; i += 4)
                *reinterpret_cast<float4*>(&ra[i]) =
                    *reinterpret_cast<const float4*>(&as[kk * bm + p.row + i]);
#pragma unroll
            for (int j = 0; j < tn; j += 4)
                *reinterpret_cast<float4*>(&rb[j]) =
                    *reinterpret_cast<const float4*>(&bs[kk * bn + p.col + j]);
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
                c, m, n, row0 + p.row + i, col0 + p.col + j, alpha, beta,
                make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

}  // namespace tgemm::kernels::warptiling
