// Naive GEMM, one thread per output, with consecutive threads of a warp on consecutive
// columns (seed 003 kernel 01): a warp's load of B is one coalesced 128-byte line and its
// load of A is one word broadcast to all 32 threads.
#include <string>

#include "can_run.hpp"
#include "common.cuh"
#include "gpu/occupancy.hpp"
#include "model/textbook.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"
#include "tile32_bodies.cuh"

namespace tgemm {
namespace {

constexpr int block = kernels::tile32::tile;
// One output per thread, K walked an element at a time; ptxas (nvcc 13.0, sm_90a) allocates 32
// registers.
constexpr kernels::launch_info info{
    .tile_m = block, .tile_n = block, .tile_k = 1, .threads = block * block, .registers = 32};

__global__ void naive_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                             float beta, float* c) {
    kernels::tile32::naive_body(m, n, k, alpha, a, b, beta, c);
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, block)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, block)));
    naive_kernel<<<grid, dim3(block, block), 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = textbook::naive_bytes(s);
    m.textbook.formula = "(2MNK + 2MN)·4 B: 2K loads per output, plus C read and written";
    m.textbook.loads_per_output = 2.0 * s.k;
    auto& r = m.refined;
    r.flops = model::executed_flops(s, s.k);
    // Per k step a warp (1 row × 32 columns) asks for A[row][k], one broadcast sector, and
    // B[k][col0..col0+31], the sectors that 32 words span.
    const double warps = double(s.m) * double(model::ceil_div(s.n, block));
    const double a_sectors = warps * s.k;
    const double b_sectors = double(kernels::row_segment_sectors(s.k, s.n, block)) * s.m;
    const double c_sectors = double(kernels::row_segment_sectors(s.m, s.n, block));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;
    r.smem_load_wavefronts = 0;
    r.smem_store_wavefronts = 0;
    // DRAM: 1024 threads per CTA → 2 CTAs per SM on the H100, 264 resident. The whole wave of
    // 264 (2.06 row strips, every column tile) stays in step and streams B once (the measured
    // 4096³ read says so; smem_tiling, same grid, does not: see the DRAM note). A wave's
    // strips are found again by the next one when they fit in half the L2.
    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    const auto d = kernels::reg_tiling::estimate_wave_dram(s, block, block, per_sm, mc);
    r.dram_read_bytes = d.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, d, mc.l2_bytes);
    kernels::set_wave_dram_writes(r, d);
    ::tgemm::kernels::set_l2_requests(r, s, 4, block, block, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::in_step);
    r.notes.push_back(
        "L1: per warp per k, A is one broadcast sector and B the 4 sectors of a "
        "128-byte line: N³/32 · 160 B for a cube");
    r.notes.push_back("DRAM: " + model::ctas(per_sm) + " of 1024 threads per SM; " +
                      std::to_string(d.waves) + " waves of " + std::to_string(d.ctas_per_wave) +
                      " CTAs, each reads the A and B strips it touches, " +
                      kernels::strip_reuse_note);
    r.notes.push_back(
        "DRAM: naive keeps a whole wave in step (4096³: 4.33 GB read = B 62 times, "
        "once per wave of 264 CTAs; the model gives 4.33 GB) while smem_tiling, on the same grid "
        "with the same 2 CTAs per SM, reads 8.49 GB = B 124 times, once per 132 CTAs, as its "
        "two CTAs per SM drift apart. Traced (docs/models/dram-waves.md, \"The schedule seen "
        "directly\"): naive's two CTAs share an SM evenly and end together, smem_tiling's first "
        "ends at 0.7 of the second's end, and from then on its CTAs run half a lifetime apart; "
        "naive's waves stay in step where B exceeds the L2 (4096³, 1024×3072×4096) and drift "
        "apart at most other shapes, which the model does not derive");
    return m;
}

rung make() {
    return {.id = "naive",
            .display_name = "Naive (coalesced B)",
            .order = 20,
            .seed = "seed 003 kernel 01",
            .params = "32×32 threads, one output each, threadIdx.x → column",
            .kernel_symbol = "naive_kernel",
            .config = kernels::with_kernel(info, naive_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::runs_any_shape()};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
