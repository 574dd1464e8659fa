// Vectorized 2D block tiling (seed 000 section 5, seed 003 kernel 04): the 128×128×8 tiling of
// seed 000 with each thread fetching its part of a tile as one float4, and A transposed on its
// way into shared memory so that a thread's 8 values of A, like its 8 values of B, come in two
// 128-bit shared loads.

#include "09_vectorized.cuh"
#include "can_run.hpp"
#include "common.cuh"
#include "rung.hpp"
#include "tile_io.cuh"
#include "tile_model.hpp"
#include "vec_tile_model.hpp"

namespace tgemm {
namespace {

using namespace kernels::vectorized;  // the kernel's constants and indexing (09_vectorized.cuh)

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

template <bool Vec>
__global__ void __launch_bounds__(threads)
    vectorized_kernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                      const float* __restrict__ b, float beta, float* __restrict__ c) {
    kernels::vectorized::body<Vec>(m, n, k, alpha, a, b, beta, c);
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
