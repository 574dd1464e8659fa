// Warp tiling (seed 003 kernel 05): the block tile is cut into warp tiles and each warp's tile
// into one TM×TN tile per lane, so the lanes of a warp read neighbouring parts of the shared
// tiles. Stage 1 is the vectorized rung's: float4 global loads, A transposed into shared memory.

#include "10_warptiling.cuh"
#include "can_run.hpp"
#include "common.cuh"
#include "rung.hpp"
#include "tile_io.cuh"
#include "tile_model.hpp"
#include "vec_tile_model.hpp"

namespace tgemm {
namespace {

using namespace kernels::warptiling;  // the kernel's constants and indexing (10_warptiling.cuh)

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

template <bool Vec>
__global__ void __launch_bounds__(threads)
    warptiling_kernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                      const float* __restrict__ b, float beta, float* __restrict__ c) {
    kernels::warptiling::body<Vec>(m, n, k, alpha, a, b, beta, c);
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
