// Shared memory plus register tiling (lecture 004, v3): a CTA computes an L×L block of C, stages
// S-deep slices of A and B in shared memory by cooperative fetching, and each thread computes a
// V×V block from them as outer products. Each word fetched from global memory serves L outputs
// of the CTA, each word read from shared memory serves V outputs of the thread.
#include <algorithm>
#include <string>

#include "06_smem_register.cuh"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

using namespace kernels::smem_register;  // the kernel's constants (06_smem_register.cuh)

constexpr kernels::launch_info info{.tile_m = l,
                                    .tile_n = l,
                                    .tile_k = s_depth,
                                    .thread_m = v,
                                    .thread_n = v,
                                    .threads = threads,
                                    .smem_bytes = smem_bytes,
                                    .registers = 63};
static_assert(v == 4, "a thread reads its V rows of sA and V columns of sB as one float4 each");
static_assert(l % v == 0 && threads % 32 == 0, "whole threads per side and whole warps");
static_assert(side == 16, "a warp must span one thread row pair: lanes 0-15 and 16-31");
static_assert(l * s_depth % threads == 0, "every thread fetches the same number of words");
static_assert(threads % s_depth == 0 && threads % l == 0 && 32 % s_depth == 0,
              "the fetch maps a warp to whole rows of the A slice and one row piece of B");
// The registers are ptxas's for sm_90a, so the check is against compute capability 9.0.
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= min_ctas_per_sm,
              "the register budget must admit the CTAs per SM the launch bounds ask for");
static_assert(sa_pitch % 4 == 0, "sA rows must stay 16-byte aligned for float4 reads");

__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    smem_register_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                         float beta, float* c) {
    kernels::smem_register::body(m, n, k, alpha, a, b, beta, c);
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, l)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, l)));
    smem_register_kernel<<<grid, threads, 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    m.textbook.flops = model::seed_flops(s);
    // Global: 2·L·K words per CTA, MN/L² CTAs. Shared: 2·V·K words per thread, MN/V² threads.
    m.textbook.global_bytes = 2.0 * mnk / l * model::fp32_bytes;
    m.textbook.formula = "2MNK/L·4 B, L = 64: 2N³/L global loads for a cube (lecture 004 v3)";
    m.textbook.loads_per_output = rt::loads_per_output(double(s.k), v, v);
    m.textbook.smem_accesses = 2.0 * mnk / v;

    auto& r = m.refined;
    const auto mp = model::round_up(s.m, l);
    const auto np = model::round_up(s.n, l);
    const auto kp = model::round_up(s.k, s_depth);
    r.flops = 2.0 * double(mp) * double(np) * double(kp) + 3.0 * double(s.m) * s.n;

    // L1. Per slice a warp reads 4 rows × 8 words of A (twice) and 32 adjacent words of one row
    // of B (twice): over the grid, every row of A in 8-word pieces once per CTA column and every
    // row of B in 32-word pieces once per CTA row. The epilogue's request (i, j) covers two rows
    // of C, 16 lanes each, 4 words apart: 8 sectors per row when aligned, each sector touched by
    // the 4 requests j = 0..3.
    const double gx = double(model::ceil_div(s.n, l));
    const double gy = double(model::ceil_div(s.m, l));
    const double a_sectors =
        gx * double(rt::strided_row_sectors(s.m, s.k, s_depth, 1, 32 / s_depth));
    const double b_sectors = gy * double(rt::strided_row_sectors(s.k, s.n, 32, 1));
    const double c_sectors = double(rt::strided_row_sectors(s.m, s.n, l, v));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;

    // Shared, per warp and slice. Stores: 2 STS of A (transposed, conflict-free thanks to the
    // pad) + 2 STS of B (32 adjacent words) = 4 wavefronts. Loads per ki: the float4 of sA is
    // one address for lanes 0-15 and one for lanes 16-31, so lanes pair up and it takes 2
    // wavefronts; the float4 of sB is 16 adjacent float4s repeated by both half-warps, 4 passes
    // of 8 lanes × 16 B = 4 wavefronts. 6 per ki, 48 per slice, no bank conflicts.
    const double warp_slices = gx * gy * (threads / 32) * double(kp / s_depth);
    r.smem_store_wavefronts = warp_slices * 4;
    r.smem_load_wavefronts = warp_slices * s_depth * (2 + 4);
    r.smem_load_bank_conflicts = 0;

    // DRAM: the CTAs sharing an SM drift apart; one CTA per SM stays in step
    // (reg_tiling_model.hpp, estimate_drifting_dram), the band's high end.
    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    const auto d = rt::estimate_drifting_dram(s, l, l, per_sm, mc);
    r.dram_read_bytes = d.read_bytes();
    kernels::set_wave_dram_writes(r, d);
    ::tgemm::kernels::set_l2_requests(r, s, 4, l, l, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::not_in_step);

    r.notes.push_back(
        "FLOPs: every thread of the padded grid runs V²·K rounded up to S = 8 "
        "FFMAs (zero-filled slices); the FMUL + FFMA epilogue runs for the M·N real "
        "outputs only");
    r.notes.push_back(
        "L1 A: 4 sectors per warp request (4 rows × 8 words), every row of A once "
        "per CTA column");
    r.notes.push_back("L1 B: 32 adjacent words per warp request, every row of B once per CTA row");
    r.notes.push_back(
        "L1 C: a thread's 4 adjacent outputs are 4 requests 16 B apart per lane: "
        "each 32-byte sector of C is touched 4 times, read and written (MN/2 "
        "sectors each for aligned rows)");
    r.notes.push_back(
        "shared loads: LDS.128 of sA pairs up lanes (one address per half-warp) → "
        "2 wavefronts; LDS.128 of sB, 16 distinct float4s → 4 wavefronts; 48 per "
        "warp per slice");
    r.notes.push_back(
        "shared stores: sA rows padded to 68 words make the transposing store "
        "conflict-free; 4 wavefronts per warp per slice");
    r.notes.push_back("DRAM: " + std::to_string(info.registers) + " registers × 256 threads → " +
                      model::ctas(per_sm) + " per SM, which drift apart; " +
                      std::to_string(d.waves) + " groups of " + std::to_string(d.ctas_per_wave) +
                      " CTAs (one per SM) cross K in step, each reads the A and B strips it "
                      "touches, " +
                      ::tgemm::kernels::strip_reuse_note);
    // The 4 CTAs of an SM stay partly in step, and the L2 keeps part of the strips of the
    // group before, neither of which the model derives: the reads lie between the whole wave in
    // step with the L2 reuse between waves (the fewest) and one CTA per SM in step with no strip
    // kept between groups (the most; the same as the model where strips do not fit anyway).
    const auto in_step = rt::estimate_wave_dram(s, l, l, per_sm, mc);
    auto no_reuse_ctx = mc;
    no_reuse_ctx.l2_bytes = 0;
    const auto no_reuse = rt::estimate_drifting_dram(s, l, l, per_sm, no_reuse_ctx);
    // Where a group's strips fit in half the L2 and a wave's do not, the model (groups keeping
    // the group before's strips) reads less than the wave in step: the low end is the fewer,
    // each with the strips kept up to the end of the L2's measured edge (wave_dram.hpp).
    const double low =
        std::min({in_step.read_bytes(), in_step.edge_low_bytes, d.read_bytes(), d.edge_low_bytes});
    if (low < no_reuse.read_bytes())  // equal where every strip is read once
        model::set_dram_read_band(
            r, low, no_reuse.read_bytes(),
            "the fewer of the whole wave of " + std::to_string(in_step.ctas_per_wave) +
                " CTAs in step and one CTA per SM in step (the model), each keeping the strips "
                "of the wave or group before in L2 where they fit, at the low end; one CTA per SM "
                "in step and no strip kept between its groups at the high end; this rung's " +
                std::to_string(per_sm) +
                " CTAs per SM stay partly in step, and the L2 keeps part of a group's strips");
    return m;
}

rung make() {
    return {.id = "smem_register",
            .display_name = "Shared memory + register tiling 64×64, 4×4 per thread",
            .order = 60,
            .seed = "lecture 004 v3 (seed 004)",
            .params =
                "L = 64, S = 8, V = 4: 64×64 C tile per CTA, 8-deep slices, 256 threads of "
                "4×4 outputs, cooperative fetching",
            .kernel_symbol = "smem_register_kernel",
            .config = kernels::with_kernel(info, smem_register_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::grid_rows_fit(l)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
