// 1D block tiling (seeds 000/001, seed 003's "1D coarsening"): a CTA stages BM×BK of A and
// BK×BN of B in shared memory per step of K, and each thread computes a column of TM outputs,
// so one word of B read from shared memory serves TM outputs.
#include <string>

#include "blocktile_model.hpp"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

constexpr int bm = 64;                 // C tile rows per CTA
constexpr int bn = 64;                 // C tile columns per CTA
constexpr int bk = 8;                  // depth of a staged slice of K
constexpr int tm = 8;                  // outputs per thread, down a column
constexpr int threads = bm * bn / tm;  // 512
constexpr int smem_bytes = (bm * bk + bk * bn) * 4;
// Two CTAs per SM. ptxas (nvcc 13.0, sm_90a) takes the whole budget that leaves, 64 registers
// (54 unbounded); a third CTA would need 40 and spills. The DRAM model's CTAs in flight follow
// from these numbers (check with ncu's launch__registers_per_thread).
constexpr int min_ctas_per_sm = 2;
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

// As keeps A's layout, row-major BM×BK: one thread's TM rows are TM·BK adjacent words, read as
// float4s; every lane of a warp reads the same ones (the warp shares its rows and spans 32
// columns).
__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    blocktiling_1d_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                          float beta, float* c) {
    __shared__ __align__(16) float as[bm * bk];  // (row, k)
    __shared__ __align__(16) float bs[bk * bn];  // (k, column)
    const int tid = threadIdx.x;
    const int col = tid % bn;        // output column within the tile
    const int row_group = tid / bn;  // outputs rows row_group·TM … + TM − 1
    const int tile_row = blockIdx.y * bm;
    const int tile_col = blockIdx.x * bn;
    const int a_r = tid / bk;
    const int a_k = tid % bk;
    const int b_k = tid / bn;
    const int b_c = tid % bn;

    float acc[tm] = {};
    // Every thread runs K rounded up to BK; words beyond the edges are staged as zeros.
    for (int k0 = 0; k0 < k; k0 += bk) {
        {
            const int row = tile_row + a_r;
            const int kx = k0 + a_k;
            as[a_r * bk + a_k] = (row < m && kx < k) ? a[static_cast<long>(row) * k + kx] : 0.0f;
        }
        {
            const int kx = k0 + b_k;
            const int cx = tile_col + b_c;
            bs[b_k * bn + b_c] = (kx < k && cx < n) ? b[static_cast<long>(kx) * n + cx] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k4 = 0; k4 < bk; k4 += 4) {
            float ar[tm][4];
#pragma unroll
            for (int t = 0; t < tm; ++t) {
                const float4 a4 =
                    *reinterpret_cast<const float4*>(&as[(row_group * tm + t) * bk + k4]);
                ar[t][0] = a4.x;
                ar[t][1] = a4.y;
                ar[t][2] = a4.z;
                ar[t][3] = a4.w;
            }
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const float bv = bs[(k4 + q) * bn + col];
#pragma unroll
                for (int t = 0; t < tm; ++t) acc[t] = fmaf(ar[t][q], bv, acc[t]);
            }
        }
        __syncthreads();
    }
    // β·C first, then one FMA: an FMUL and an FFMA per output, both behind the guard.
    const int cx = tile_col + col;
#pragma unroll
    for (int t = 0; t < tm; ++t) {
        const int row = tile_row + row_group * tm + t;
        if (row < m && cx < n) {
            const long idx = static_cast<long>(row) * n + cx;
            const float scaled_c = beta * c[idx];
            c[idx] = fmaf(alpha, acc[t], scaled_c);
        }
    }
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
