// Thread tiling without shared memory (lecture 004, v1.5): each thread computes a V×V block of
// C, and each of its outputs still walks its own column of B, while a row of A is fetched once
// and serves the V outputs of that row. The seed keeps the whole row in registers (a[N]); here
// the row arrives in register chunks of KC words, which issues exactly the same loads.
#include <algorithm>
#include <cmath>
#include <string>

#include "04_thread_tiling.cuh"
#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "l2_requests.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

namespace rt = kernels::reg_tiling;

using namespace kernels::thread_tiling;  // the kernel's constants (04_thread_tiling.cuh)

constexpr kernels::launch_info info{.tile_m = bm,
                                    .tile_n = bn,
                                    .tile_k = kc,
                                    .thread_m = v,
                                    .thread_n = v,
                                    .threads = threads,
                                    .registers = 48};
static_assert(threads_x == 32, "a warp must be one row of threads so A is a broadcast");
static_assert(threads % 32 == 0, "whole warps only");
// The registers are ptxas's for sm_90a, so the check is against compute capability 9.0.
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= min_ctas_per_sm,
              "the register budget must admit the CTAs per SM the launch bounds ask for");
static_assert(kc >= 1 && kc <= 16, "the A chunk lives in registers next to V² accumulators");

__global__ void __launch_bounds__(threads, min_ctas_per_sm)
    thread_tiling_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                         float beta, float* c) {
    kernels::thread_tiling::body(m, n, k, alpha, a, b, beta, c);
}

dim3 grid_of(const shape& s) {
    return {static_cast<unsigned>(model::ceil_div(s.n, bn)),
            static_cast<unsigned>(model::ceil_div(s.m, bm))};
}

void launch(const gemm_args& g, const launch_context& ctx) {
    thread_tiling_kernel<<<grid_of(g.size), dim3(threads_x, threads_y), 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    m.textbook.flops = model::seed_flops(s);
    // Per thread K·V words of A and K·V² of B; MN/V² threads.
    m.textbook.global_bytes = (mnk / v + mnk) * model::fp32_bytes;
    m.textbook.formula = "(MNK/V + MNK)·4 B, V = 4: N³/V + N³ loads for a cube (lecture 004 v1.5)";
    m.textbook.loads_per_output = rt::loads_per_output(double(s.k), v, 1);

    auto& r = m.refined;
    const auto mp = model::round_up(s.m, bm);
    const auto np = model::round_up(s.n, bn);
    const auto kp = model::round_up(s.k, kc);
    r.flops = 2.0 * double(mp) * double(np) * double(kp) + 3.0 * double(s.m) * s.n;

    // L1. A: per (warp, i, k) one broadcast sector when the row exists; every row is read by
    // one warp per CTA column. B: per (warp, i, j, k) the sectors of 32 adjacent words; summed
    // over j and the CTA columns that is one pass over row k in 32-word pieces, repeated by
    // each of the mp/V thread rows for each of its V rows, mp passes in all.
    const double gx = double(model::ceil_div(s.n, bn));
    const double a_sectors = double(s.m) * gx * double(s.k);
    const double b_sectors = double(mp) * double(rt::strided_row_sectors(s.k, s.n, 32, 1));
    const double c_sectors = double(rt::strided_row_sectors(s.m, s.n, 32, 1));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;
    r.smem_load_wavefronts = 0;
    r.smem_store_wavefronts = 0;

    // DRAM: the five CTAs of an SM share it evenly and stay in step, and so do whole waves
    // (traced: docs/models/dram-waves.md, "The schedule seen directly"); each CTA walks its strip
    // of B along K once per row of its thread tile (V times), reading a quarter of its A strip
    // each time, so a wave whose B strips leave L2 within one walk reads them V times.
    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    auto d = rt::estimate_wave_dram(s, bm, bn, per_sm, mc, 1, v);
    // The waves stay in step at 4096³ and 1024×3072×4096 but drift partly apart at other shapes
    // (a wave's CTAs start up to 0.4 of a lifetime apart, traced): groups of one CTA per SM
    // crossing K one after another, each CTA still walking B V times, bound that.
    const auto groups = rt::estimate_wave_dram(s, bm, bn, 1, mc, per_sm, v);
    if (groups.c_written_bytes > d.c_written_high) {
        d.c_written_high = groups.c_written_bytes;
        d.c_written_high_drifting = true;
    }
    r.dram_read_bytes = d.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, d, mc.l2_bytes);
    kernels::set_wave_dram_writes(r, d);
    // L2 read requests: every warp walks the CTA's B columns (K × 512 B, more than L1 holds) once
    // per row of its V; the eight warps read the same sectors, so L1 misses each between once per
    // CTA and V times, by how far apart the warps run: measured 2.7-4.0 walks (both shipped
    // profiles, docs/validation/<gpu>-l2-read-path.csv).
    ::tgemm::kernels::set_l2_requests_walked(r, s, 4, bm, bn, v);

    r.notes.push_back(
        "FLOPs: every thread of the padded grid runs V²·K rounded up to 4 FFMAs "
        "(zeros beyond the edges); the FMUL + FFMA epilogue runs for the M·N real "
        "outputs only");
    r.notes.push_back("L1 A: one broadcast sector per warp, row and k: M·⌈N/128⌉·K sectors");
    r.notes.push_back(
        "L1 B: each of V² outputs per thread reads its column; a warp's request is "
        "32 adjacent words (4 sectors when aligned): padded M · K·N/8 sectors");
    r.notes.push_back("L1 C: read once and written once in 32-word rows per warp request");
    r.notes.push_back("DRAM: " + std::to_string(info.registers) + " registers × 256 threads → " +
                      model::ctas(per_sm) + " per SM, in step; " + std::to_string(d.waves) +
                      " waves of " + std::to_string(d.ctas_per_wave) +
                      " CTAs, each CTA walking its B strip along K " + std::to_string(v) +
                      " times (once per row of its thread tile): each wave reads the A and B "
                      "strips it touches, its B strips again on each walk as far as one walk "
                      "of them pushes them out of L2, " +
                      ::tgemm::kernels::strip_reuse_note);
    return m;
}

rung make() {
    return {.id = "thread_tiling",
            .display_name = "Thread tiling 4×4 (no shared memory)",
            .order = 40,
            .seed = "lecture 004 v1.5 (seed 004)",
            .params =
                "V = 4: 4×4 outputs per thread, 32×8 threads, 32×128 C tile per CTA, A row "
                "in 4-word register chunks",
            .kernel_symbol = "thread_tiling_kernel",
            .config = kernels::with_kernel(info, thread_tiling_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::grid_rows_fit(bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
