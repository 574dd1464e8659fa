// Outer-product register tiling (lecture 004, v2): each thread computes a V×V block of C as a
// sum over k of outer products a[0..V) × b[0..V), so every word it loads from A or B serves V
// outputs instead of one. Registers per thread: V² accumulators + 2V operands.
#include <string>

#include "05_outer_product.cuh"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

using namespace kernels::outer_product;  // the kernel's constants (05_outer_product.cuh)

constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = 1,
                                    .thread_m = v,
                                    .thread_n = v,
                                    .threads = threads,
                                    .registers = 48};
static_assert(threads_x == 32, "a warp must be one row of threads so A is a broadcast");
// The registers are ptxas's for sm_90a, so the check is against compute capability 9.0.
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= min_ctas_per_sm,
              "the register budget must admit the CTAs per SM the launch bounds ask for");
static_assert(v * v + 2 * v <= 64, "V² accumulators and 2V operands must fit in registers");

__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    outer_product_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                         float beta, float* c) {
    kernels::outer_product::body(m, n, k, alpha, a, b, beta, c);
}

dim3 grid_of(const shape& s) {
    return {static_cast<unsigned>(model::ceil_div(s.n, bn)),
            static_cast<unsigned>(model::ceil_div(s.m, bm))};
}

void launch(const gemm_args& g, const launch_context& ctx) {
    outer_product_kernel<<<grid_of(g.size), dim3(threads_x, threads_y), 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    m.textbook.flops = model::seed_flops(s);
    // Per thread 2V words per k, K·2V in all; MN/V² threads.
    m.textbook.global_bytes = 2.0 * mnk / v * model::fp32_bytes;
    m.textbook.formula = "2MNK/V·4 B, V = 4: 2N³/V loads for a cube (lecture 004 v2)";
    m.textbook.loads_per_output = rt::loads_per_output(double(s.k), v, v);

    auto& r = m.refined;
    const auto mp = model::round_up(s.m, bm);
    const auto np = model::round_up(s.n, bn);
    r.flops = 2.0 * double(mp) * double(np) * double(s.k) + 3.0 * double(s.m) * s.n;

    // L1. A: per (warp, i, k) one broadcast sector when the row exists. B: per (warp, j, k)
    // the sectors of 32 adjacent words; over j and the CTA columns that is one pass over row k
    // in 32-word pieces, once per thread row of the padded grid (mp/V of them).
    const double gx = double(model::ceil_div(s.n, bn));
    const double a_sectors = double(s.m) * gx * double(s.k);
    const double b_sectors = double(mp / v) * double(rt::strided_row_sectors(s.k, s.n, 32, 1));
    const double c_sectors = double(rt::strided_row_sectors(s.m, s.n, 32, 1));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;
    r.smem_load_wavefronts = 0;
    r.smem_store_wavefronts = 0;

    // DRAM: the CTAs sharing an SM drift apart; one CTA per SM stays in step
    // (reg_tiling_model.hpp, estimate_drifting_dram).
    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    const auto d = rt::estimate_drifting_dram(s, bm, bn, per_sm, mc);
    r.dram_read_bytes = d.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, d, mc.l2_bytes);
    kernels::set_wave_dram_writes(r, d);
    ::tgemm::kernels::set_l2_requests(r, s, 4, bm, bn, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::not_in_step);

    r.notes.push_back(
        "FLOPs: every thread of the padded grid runs V²·K FFMAs (zeros beyond the "
        "edges); the FMUL + FFMA epilogue runs for the M·N real outputs only");
    r.notes.push_back("L1 A: one broadcast sector per warp, row and k: M·⌈N/128⌉·K sectors");
    r.notes.push_back(
        "L1 B: per warp and k, V requests of 32 adjacent words (4 sectors when "
        "aligned): padded M/V · K·N/8 sectors");
    r.notes.push_back("L1 C: read once and written once in 32-word rows per warp request");
    r.notes.push_back("DRAM: " + std::to_string(info.registers) + " registers × 256 threads → " +
                      model::ctas(per_sm) + " per SM, which drift apart; " +
                      std::to_string(d.waves) + " groups of " + std::to_string(d.ctas_per_wave) +
                      " CTAs (one per SM) cross K in step, each reads the A and B strips it "
                      "touches, " +
                      ::tgemm::kernels::strip_reuse_note);
    return m;
}

rung make() {
    return {.id = "outer_product",
            .display_name = "Outer-product register tiling 4×4",
            .order = 50,
            .seed = "lecture 004 v2 (seed 004)",
            .params =
                "V = 4: 4×4 outputs per thread from 4 + 4 operands per k (V² + 2V = 24 "
                "registers of data), 32×8 threads, 32×128 C tile per CTA",
            .kernel_symbol = "outer_product_kernel",
            .config = kernels::with_kernel(info, outer_product_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
