// Shared-memory block tiling, 32×32 (seed 002, seed 003 kernel 02): each block stages a
// 32×32 tile of A and of B in shared memory per step of K, so each element fetched from
// global memory is used 32 times.
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

constexpr int tile = kernels::tile32::tile;
// Its two tiles are 8 KB of shared memory; ptxas (nvcc 13.0, sm_90a) allocates 31 registers.
constexpr kernels::launch_info info{.tile_m = tile,
                                    .tile_n = tile,
                                    .tile_k = tile,
                                    .threads = tile * tile,
                                    .smem_bytes = 2 * tile * tile * 4,
                                    .registers = 31};

__global__ void smem_tiling_kernel(int m, int n, int k, float alpha, const float* a, const float* b,
                                   float beta, float* c) {
    kernels::tile32::smem_tiling_body(m, n, k, alpha, a, b, beta, c);
}

void launch(const gemm_args& g, const launch_context& ctx) {
    const dim3 grid(static_cast<unsigned>(model::ceil_div(g.size.n, tile)),
                    static_cast<unsigned>(model::ceil_div(g.size.m, tile)));
    smem_tiling_kernel<<<grid, dim3(tile, tile), 0, ctx.stream>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>());
}

rung_model model_fn(const shape& s, const model_context& mc) {
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = textbook::block_tiling_bytes(s, tile);
    m.textbook.formula = "(2MNK/32 + 2MN)·4 B: each staged element serves 32 outputs";
    m.textbook.loads_per_output = 2.0 * s.k / tile;
    m.textbook.smem_accesses = 2.0 * s.m * s.n * s.k;
    auto& r = m.refined;
    // Every thread of the padded grid runs the full inner loop over padded K (zeros beyond
    // the edges); only the epilogue is guarded.
    const auto mp = model::round_up(s.m, tile);
    const auto np = model::round_up(s.n, tile);
    const auto kp = model::round_up(s.k, tile);
    r.flops = 2.0 * mp * np * kp + 3.0 * s.m * s.n;
    const double steps = double(kp / tile);
    const double warps = double(mp / tile) * double(np / tile) * tile;  // warps in the grid
    // Global: per step a warp (one row of the tile) reads 32 consecutive words of A and of B.
    const double a_sectors =
        double(kernels::row_segment_sectors(s.m, s.k, tile)) * double(np / tile);
    const double b_sectors =
        double(kernels::row_segment_sectors(s.k, s.n, tile)) * double(mp / tile);
    const double c_sectors = double(kernels::row_segment_sectors(s.m, s.n, tile));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;
    // Shared: per step a warp stores one conflict-free row of each tile (2 wavefronts), and
    // per i reads as[ty][i] (one broadcast word) and bs[i][0..31] (one conflict-free row).
    // ptxas fuses pairs of consecutive as[ty][i] into one LDS.64: 16 broadcast wavefronts
    // (measured on the H100: 48 load wavefronts per warp per step, not 32 + 8 for LDS.128).
    r.smem_store_wavefronts = warps * steps * 2;
    r.smem_load_wavefronts = warps * steps * (tile / 2 + tile);
    // DRAM: 2 CTAs of 1024 threads per SM on the H100, which drift apart; one CTA per SM stays
    // in step, so groups of 132 consecutive CTAs (1.03 row strips, every column tile) each
    // stream B once, less what L2 still holds of the group before (wave_dram.hpp).
    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    const auto d = kernels::reg_tiling::estimate_drifting_dram(s, tile, tile, per_sm, mc);
    r.dram_read_bytes = d.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, d, mc.l2_bytes);
    kernels::set_wave_dram_writes(r, d);
    ::tgemm::kernels::set_l2_requests(r, s, 4, tile, tile, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::not_in_step);
    r.notes.push_back("L1: per warp per K step, 4 sectors of A and 4 of B: MNK/4 bytes");
    r.notes.push_back("shared: 16 LDS.64 of A (broadcast) + 32 LDS.32 of B per warp per step");
    r.notes.push_back("DRAM: " +
                      (per_sm > 1 ? "the " + model::ctas(per_sm) + " per SM drift apart; "
                                  : std::string("1 CTA per SM; ")) +
                      std::to_string(d.waves) + " groups of " + std::to_string(d.ctas_per_wave) +
                      " CTAs (one per SM) cross K in step, each reads the A and B strips it "
                      "touches, " +
                      ::tgemm::kernels::strip_reuse_note);
    return m;
}

rung make() {
    return {.id = "smem_tiling",
            .display_name = "Shared-memory tiling 32×32",
            .order = 30,
            .seed = "seed 002; seed 003 kernel 02",
            .params = "32×32 tile, 1024 threads, one output each",
            .kernel_symbol = "smem_tiling_kernel",
            .config = kernels::with_kernel(info, smem_tiling_kernel),
            .launch = launch,
            .model = model_fn,
            .can_run = kernels::runs_any_shape()};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
