// 1D block tiling (seeds 000/001, seed 003's "1D coarsening"): a CTA stages BM×BK of A and
// BK×BN of B in shared memory per step of K, and each thread computes a column of TM outputs,
// so one word of B read from shared memory serves TM outputs.
#include <string>

#include "07_blocktiling_1d.cuh"
#include "blocktile_model.hpp"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

using namespace kernels::blocktiling_1d;  // the kernel's constants (07_blocktiling_1d.cuh)

constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = bk,
                                    .thread_m = tm,
                                    .thread_n = 1,
                                    .threads = threads,
                                    .smem_bytes = smem_bytes,
                                    .registers = 64};
static_assert(bm % tm == 0, "a thread's column of TM outputs must fit in the tile");
static_assert(threads == bm * bk && threads == bk * bn,
              "each thread stages exactly one word of A and one of B per slice");
static_assert(bn == 64 && bk == 8,
              "the fetch maps a warp to 4 rows × 8 words of A and to 32 "
              "words of one row of B");
static_assert(bk % 4 == 0, "a thread reads its rows of As as float4s along K");
// The registers are ptxas's for sm_90a, so the check is against compute capability 9.0.
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= min_ctas_per_sm,
              "the register budget must admit the CTAs per SM the launch bounds ask for");

__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    blocktiling_1d_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                          float beta, float* c) {
    kernels::blocktiling_1d::body(m, n, k, alpha, a, b, beta, c);
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, bn)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, bm)));
    blocktiling_1d_kernel<<<grid, threads, 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

constexpr kernels::blocktile_model::config model_config{
    .launch = info,
    // Global, per output: K/BN words of A and K/BM of B (each staged word serves a tile row or
    // column). Shared, per output: K of B and K/TM of A.
    .formula = "(MNK/BN + MNK/BM)·4 B, BM = BN = 64: K/32 loads per output",
    // C is read and written in 32-word rows.
    .c_tile_cols = 32,
    .c_stride = 1,
    // Shared, per warp and slice. Stores: one STS of 32 adjacent words into As and one into
    // Bs, 2 wavefronts. Loads: TM·BK/4 = 16 LDS.128 of As that every lane of the warp reads at
    // the same address (lanes pair up: 2 wavefronts each) and BK = 8 LDS.32 of 32 adjacent
    // words of Bs (1 each): 40, with no bank conflicts.
    .smem_stores = 2,
    .smem_loads = tm * bk / 4 * 2 + bk,
    .smem_load_conflicts = 0,
    .flops_note =
        "FLOPs: every thread of the padded grid runs TM·K rounded up to BK = 8 "
        "FFMAs (zero-filled slices); the FMUL + FFMA epilogue runs for the M·N real "
        "outputs only",
    .l1_c_note = "L1 C: read once and written once in 32-word rows per warp request",
    .smem_load_note =
        "shared loads: 16 LDS.128 of As at one address per warp (2 wavefronts "
        "each: one register per lane per cycle, lanes paired) + 8 conflict-free "
        "LDS.32 of Bs: 40 per warp per slice",
    .smem_store_note = "shared stores: 2 conflict-free STS per warp per slice",
};
static_assert(kernels::blocktile_model::notes_hold(model_config));

rung_model model_fn(const shape& s, const model_context& mc) {
    return kernels::blocktile_model::predict(s, mc, model_config);
}

rung make() {
    return {.id = "blocktiling_1d",
            .display_name = "1D block tiling 64×64×8, 8 outputs per thread",
            .order = 70,
            .seed = "seeds 000/001 (1D tiling)",
            .params = "BM = BN = 64, BK = 8, TM = 8: 512 threads, each a column of 8 outputs",
            .kernel_symbol = "blocktiling_1d_kernel",
            .config = kernels::with_kernel(info, blocktiling_1d_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
