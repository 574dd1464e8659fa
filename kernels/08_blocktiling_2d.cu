// 2D block tiling (seeds 000/001, seed 003's "2D coarsening"): a CTA stages BM×BK of A and
// BK×BN of B in shared memory per step of K, and each thread computes a TM×TN block of C as
// outer products, so one word read from shared memory serves TM or TN outputs.
#include <string>

#include "08_blocktiling_2d.cuh"
#include "blocktile_model.hpp"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

using namespace kernels::blocktiling_2d;  // the kernel's constants (08_blocktiling_2d.cuh)

constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = bk,
                                    .thread_m = tm,
                                    .thread_n = tn,
                                    .threads = threads,
                                    .smem_bytes = smem_bytes,
                                    .registers = 128};
static_assert(bm % tm == 0 && bn % tn == 0, "whole thread blocks per tile");
static_assert(threads % 32 == 0 && 32 % thread_cols == 0, "a warp covers whole thread rows");
static_assert(bm * bk % threads == 0 && bk * bn % threads == 0,
              "every thread stages the same number of words of A and of B");
static_assert(threads % bk == 0 && threads % bn == 0 && 32 % bk == 0,
              "the fetch maps a warp to 4 rows × 8 words of A and to 32 words of one row of B");
static_assert(bk % 4 == 0 && tn % 4 == 0, "thread rows of As and of Bs are read as float4s");
// The registers are ptxas's for sm_90a, so the check is against compute capability 9.0.
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= min_ctas_per_sm,
              "the register budget must admit the CTAs per SM the launch bounds ask for");

__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    blocktiling_2d_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                          float beta, float* c) {
    kernels::blocktiling_2d::body(m, n, k, alpha, a, b, beta, c);
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, bn)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, bm)));
    blocktiling_2d_kernel<<<grid, threads, 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

constexpr kernels::blocktile_model::config model_config{
    .launch = info,
    // Seed 000: per thread K/8 slices × 2 operands × 4 loads, 64 outputs → K/64 per output;
    // shared K/8 × 8 × 2 × 8 per thread → K/4 per output.
    .formula = "(MNK/BN + MNK/BM)·4 B, BM = BN = 128: K/64 loads per output (seed 000)",
    // The epilogue's request (i, j) has lanes 8 words apart, one sector each: every element of
    // C is its own sector, read and written.
    .c_tile_cols = bn,
    .c_stride = tn,
    // Shared, per warp and slice. Stores: 4 STS into As and 4 into Bs, 32 adjacent words each:
    // 8 wavefronts. Loads: TM·BK/4 = 16 LDS.128 of As with one address per half-warp (lanes
    // pair up: 2 wavefronts each) and BK·TN/4 = 16 LDS.128 of Bs whose 16 distinct float4s sit
    // 32 bytes apart: 4 passes of 8 lanes, each pass 2 float4s on every second group of 4
    // banks → 8 wavefronts, 4 of them bank conflicts. 32 + 128 = 160 wavefronts, 64 conflicts.
    .smem_stores = 8,
    .smem_loads = tm * bk / 4 * 2 + bk * tn / 4 * 8,
    .smem_load_conflicts = bk * tn / 4 * 4,
    .flops_note =
        "FLOPs: every thread of the padded grid runs TM·TN·K rounded up to BK = 8 "
        "FFMAs (zero-filled slices); the FMUL + FFMA epilogue runs for the M·N real "
        "outputs only",
    .l1_c_note =
        "L1 C: a thread's 8 adjacent outputs are 8 requests with lanes 32 B apart: "
        "one sector per element, MN sectors read and MN written",
    .smem_load_note =
        "shared loads: 16 LDS.128 of As (2 wavefronts, lanes paired) + 16 LDS.128 "
        "of Bs (8 wavefronts: thread columns 32 B apart hit every second group of "
        "4 banks, 4 conflicts): 160 per warp per slice, 64 of them conflicts",
    .smem_store_note = "shared stores: 8 conflict-free STS per warp per slice",
};
static_assert(kernels::blocktile_model::notes_hold(model_config));

rung_model model_fn(const shape& s, const model_context& mc) {
    return kernels::blocktile_model::predict(s, mc, model_config);
}

rung make() {
    return {.id = "blocktiling_2d",
            .display_name = "2D block tiling 128×128×8, 8×8 per thread",
            .order = 80,
            .seed = "seeds 000/001 (2D tiling); seed 003 kernel 03 (2D thread coarsening)",
            .params = "BM = BN = 128, BK = 8, TM = TN = 8: 256 threads, each an 8×8 block",
            .kernel_symbol = "blocktiling_2d_kernel",
            .config = kernels::with_kernel(info, blocktiling_2d_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
