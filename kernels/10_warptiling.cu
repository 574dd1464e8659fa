// Warp tiling (seed 003 kernel 05): the block tile is cut into warp tiles and each warp's tile
// into one TM×TN tile per lane, so the lanes of a warp read neighbouring parts of the shared
// tiles. Stage 1 is the vectorized rung's: float4 global loads, A transposed into shared memory.

#include "can_run.hpp"
#include "common.cuh"
#include "rung.hpp"
#include "tile_io.cuh"
#include "tile_model.hpp"
#include "vec_tile_model.hpp"

namespace tgemm {
namespace {

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
// The two tiles, A transposed and B, are 16 KB; ptxas (nvcc 13.0, sm_90a) allocates 177
// registers to the float4 kernel (193 to the scalar fallback).
constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = bk,
                                    .warp_m = wm,
                                    .warp_n = wn,
                                    .thread_m = tm,
                                    .thread_n = tn,
                                    .threads = threads,
                                    .smem_bytes = (bk * bm + bk * bn) * 4,
                                    .registers = 177};

// Where lane `lane` of warp `warp` works inside the block tile.
struct placement {
    int row;  // first row of its TM×TN tile
    int col;  // first column
};
__host__ __device__ constexpr placement place(int warp, int lane) {
    return {(warp / (bn / wn)) * wm + (lane / (wn / tn)) * tm,
            (warp % (bn / wn)) * wn + (lane % (wn / tn)) * tn};
}

template <bool Vec>
__global__ void __launch_bounds__(threads)
    warptiling_kernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                      const float* __restrict__ b, float beta, float* __restrict__ c) {
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

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, bn)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, bm)));
    const int m = static_cast<int>(g.size.m);
    const int n = static_cast<int>(g.size.n);
    const int k = static_cast<int>(g.size.k);
    if (kernels::float4_rows(n, k, g.a_as<float>(), g.b_as<float>(), g.c_as<float>()))
        warptiling_kernel<true><<<grid, info.threads, info.dynamic_smem_bytes, ctx.stream>>>(
            m, n, k, g.alpha, g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
    else
        warptiling_kernel<false><<<grid, info.threads, info.dynamic_smem_bytes, ctx.stream>>>(
            m, n, k, g.alpha, g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

// Shared-memory wavefronts of one CTA for one K step, warp by warp, from the kernel's indexing.
kernels::vec_tile_model::smem_per_step smem_wavefronts_per_step() {
    using kernels::tile_model::smem_op;
    using kernels::tile_model::warp_wavefronts;
    kernels::vec_tile_model::smem_per_step w;
    for (int warp = 0; warp < warps; ++warp) {
        const auto tid = [&](int lane) { return warp * 32 + lane; };
        for (int l = 0; l < a_loads; ++l)
            for (int q = 0; q < 4; ++q)
                w.stores += warp_wavefronts(4, smem_op::store, [&](int lane) {
                    const int t = tid(lane);
                    const int r = t / (bk / 4) + l * a_row_step;
                    return std::int64_t(4) * ((t % (bk / 4) * 4 + q) * bm + r);
                });
        for (int l = 0; l < b_loads; ++l)
            w.stores += warp_wavefronts(16, smem_op::store, [&](int lane) {
                const int t = tid(lane);
                return std::int64_t(4) * ((t / (bn / 4) + l * b_row_step) * bn + t % (bn / 4) * 4);
            });
        for (int kk = 0; kk < bk; ++kk) {
            for (int i = 0; i < tm; i += 4)
                w.loads += warp_wavefronts(16, smem_op::load, [&](int lane) {
                    return std::int64_t(4) * (kk * bm + place(warp, lane).row + i);
                });
            for (int j = 0; j < tn; j += 4)
                w.loads += warp_wavefronts(16, smem_op::load, [&](int lane) {
                    return std::int64_t(4) * (kk * bn + place(warp, lane).col + j);
                });
        }
    }
    return w;
}

constexpr kernels::vec_tile_model::config model_config{
    .launch = info,
    // C: the 16 lanes sharing a row own 8 consecutive columns each and move 4 at a time.
    .c_seg = wn,
    .tn = tn,
    .flops_note =
        "FLOPs: every thread of the padded grid runs K rounded up to 16 "
        "(zero-filled edge tiles): 2·⌈M⌉₁₂₈·⌈N⌉₁₂₈·⌈K⌉₁₆ + 3MN",
    .l1_vec_note =
        "L1: float4 path: rows of A in 64-byte pieces, rows of B in 512-byte "
        "pieces, each sector used whole",
    .c_note =
        "L1: C moves as float4 by 16 lanes 32 bytes apart: half of each sector per "
        "instruction, so C costs twice its bytes",
    .smem_store_note =
        "shared: per warp per K step 16 transposed 32-bit stores of A (8 rows per "
        "warp land in 8 banks: 4-way conflict) and 4 conflict-free 128-bit stores "
        "of B",
    .smem_load_note =
        "shared: per warp per k, 4 LDS.128 of A (two addresses, lanes paired: 2 "
        "wavefronts) and 2 of B (16 lanes 32 bytes apart, no pairing: 8 wavefronts)",
};
static_assert(kernels::vec_tile_model::notes_hold(model_config));

rung_model model_fn(const shape& s, const model_context& mc) {
    return kernels::vec_tile_model::predict(s, mc, model_config, smem_wavefronts_per_step());
}

rung make() {
    return {.id = "warptiling",
            .display_name = "Warp tiling 128×128×16",
            .order = 100,
            .seed = "seed 003 kernel 05",
            .params = "BM=128 BN=128 BK=16 WM=32 WN=128 TM=16 TN=8, 128 threads (4 warps)",
            .kernel_symbol = "warptiling_kernel",
            .config = kernels::with_kernel(info, warptiling_kernel<true>),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::int_indices_and_grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
