// Vectorized 2D block tiling (seed 000 section 5, seed 003 kernel 04): the 128×128×8 tiling of
// seed 000 with each thread fetching its part of a tile as one float4, and A transposed on its
// way into shared memory so that a thread's 8 values of A, like its 8 values of B, come in two
// 128-bit shared loads.

#include "can_run.hpp"
#include "common.cuh"
#include "rung.hpp"
#include "tile_io.cuh"
#include "tile_model.hpp"
#include "vec_tile_model.hpp"

namespace tgemm {
namespace {

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
// The two tiles, A transposed and B, are 8 KB; ptxas (nvcc 13.0, sm_90a) allocates 110 registers
// to the float4 kernel (121 to the scalar fallback): 2 CTAs per SM on the H100.
constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = bk,
                                    .thread_m = tm,
                                    .thread_n = tn,
                                    .threads = threads,
                                    .smem_bytes = (bk * bm + bk * bn) * 4,
                                    .registers = 110};

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

template <bool Vec>
__global__ void __launch_bounds__(threads)
    vectorized_kernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                      const float* __restrict__ b, float beta, float* __restrict__ c) {
    __shared__ alignas(16) float as[bk * bm];  // (k, m): A transposed
    __shared__ alignas(16) float bs[bk * bn];  // (k, n)
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * bm;
    const int col0 = blockIdx.x * bn;
    const placement p = place(tid);

    float acc[tm][tn] = {};
    for (int k0 = 0; k0 < k; k0 += bk) {
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

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, bn)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, bm)));
    const int m = static_cast<int>(g.size.m);
    const int n = static_cast<int>(g.size.n);
    const int k = static_cast<int>(g.size.k);
    if (kernels::float4_rows(n, k, g.a_as<float>(), g.b_as<float>(), g.c_as<float>()))
        vectorized_kernel<true><<<grid, info.threads, info.dynamic_smem_bytes, ctx.stream>>>(
            m, n, k, g.alpha, g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
    else
        vectorized_kernel<false><<<grid, info.threads, info.dynamic_smem_bytes, ctx.stream>>>(
            m, n, k, g.alpha, g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

// Shared-memory wavefronts of one CTA for one K step: the stores of stage 1 and the loads of
// the eight dot-product steps, warp by warp, at the kernel's own addresses.
kernels::vec_tile_model::smem_per_step smem_wavefronts_per_step() {
    using kernels::tile_model::smem_op;
    using kernels::tile_model::warp_wavefronts;
    kernels::vec_tile_model::smem_per_step w;
    for (int warp = 0; warp < threads / 32; ++warp) {
        const auto tid = [&](int lane) { return warp * 32 + lane; };
        for (int q = 0; q < 4; ++q)  // A transposed: four 32-bit stores
            w.stores += warp_wavefronts(4, smem_op::store, [&](int l) {
                return std::int64_t(4) * a_store(place(tid(l)), q);
            });
        w.stores += warp_wavefronts(
            16, smem_op::store, [&](int l) { return std::int64_t(4) * b_store(place(tid(l))); });
        for (int kk = 0; kk < bk; ++kk) {
            for (int i = 0; i < tm; i += 4)
                w.loads += warp_wavefronts(16, smem_op::load, [&](int l) {
                    return std::int64_t(4) * a_load(place(tid(l)), kk, i);
                });
            for (int j = 0; j < tn; j += 4)
                w.loads += warp_wavefronts(16, smem_op::load, [&](int l) {
                    return std::int64_t(4) * b_load(place(tid(l)), kk, j);
                });
        }
    }
    return w;
}

constexpr kernels::vec_tile_model::config model_config{
    .launch = info,
    // C: 16 lanes per row, each owning 8 consecutive columns, move 4 of them per instruction.
    .c_seg = bn,
    .tn = tn,
    .flops_note =
        "FLOPs: every thread of the padded grid runs K rounded up to 8 (zero-filled "
        "edge tiles): 2·⌈M⌉₁₂₈·⌈N⌉₁₂₈·⌈K⌉₈ + 3MN",
    .l1_vec_note =
        "L1: float4 path (N, K multiples of 4): per row of A 32 contiguous "
        "bytes per K step, per row of B 512, so A and B cost their bytes once "
        "per reuse",
    .c_note =
        "L1: C is read and written as float4 by 16 lanes 32 bytes apart: each "
        "instruction touches half of every sector, so C costs twice its bytes",
    .smem_store_note =
        "shared: per warp per K step 4 transposed 32-bit stores of A (2-way "
        "conflict: two lanes per bank) and one 128-bit store of B (4 wavefronts)",
    .smem_load_note =
        "shared: per warp per k, 2 LDS.128 of A (two addresses, lanes paired: 2 "
        "wavefronts each) and 2 of B (16 lanes 32 bytes apart: 8 wavefronts each)",
};
static_assert(kernels::vec_tile_model::notes_hold(model_config));

rung_model model_fn(const shape& s, const model_context& mc) {
    return kernels::vec_tile_model::predict(s, mc, model_config, smem_wavefronts_per_step());
}

rung make() {
    return {.id = "vectorized",
            .display_name = "Vectorized 2D tiling 128×128×8",
            .order = 90,
            .seed = "seed 000 section 5; seed 003 kernel 04",
            .params =
                "BM=128 BN=128 BK=8 TM=8 TN=8, 256 threads; float4 global loads, A "
                "transposed into shared memory",
            .kernel_symbol = "vectorized_kernel",
            .config = kernels::with_kernel(info, vectorized_kernel<true>),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::int_indices_and_grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
