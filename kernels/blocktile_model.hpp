#pragma once
// The model shared by the block-tiling rungs 07 (1D) and 08 (2D): both stage BM×BK of A and
// BK×BN of B per slice with one word per thread per pass (a warp reads 4 rows × 8 words of A
// and 32 adjacent words of one row of B), run K rounded up to BK = 8, and finish with a guarded
// FMUL + FFMA epilogue. Their models differ only in the tile constants, the L1 pattern of C, the
// shared-memory wavefronts per warp and slice, and four notes. Host-only C++; derivations in
// docs/models/07_blocktiling_1d.md and 08_blocktiling_2d.md.
#include <string>

#include "core/shape.hpp"
#include "launch_info.hpp"
#include "model/rung_model.hpp"
#include "reg_tiling_model.hpp"

namespace tgemm::kernels::blocktile_model {

struct config {
    // The rung's launch: its tile (tile_m, tile_n, tile_k), outputs per thread (thread_m ×
    // thread_n), threads, shared memory and registers.
    launch_info launch;
    const char* formula = "";  // the textbook formula
    // C's epilogue requests, as reg_tiling::strided_row_sectors(M, N, c_tile_cols, c_stride).
    int c_tile_cols = 0;
    int c_stride = 0;
    // Shared-memory wavefronts per warp and slice.
    int smem_stores = 0;
    int smem_loads = 0;
    int smem_load_conflicts = 0;
    // The notes that differ between the rungs.
    const char* flops_note = "";
    const char* l1_c_note = "";
    const char* smem_load_note = "";
    const char* smem_store_note = "";
};

// The shared notes spell out BK = 8 and a warp's 4 rows × 8 words of A.
[[nodiscard]] constexpr bool notes_hold(const config& c) {
    return c.launch.tile_k == 8;
}

[[nodiscard]] inline rung_model predict(const shape& s, const model_context& mc, const config& c) {
    namespace rt = reg_tiling;
    const auto& l = c.launch;
    const int bm = l.tile_m, bn = l.tile_n, bk = l.tile_k, tm = l.thread_m, tn = l.thread_n;
    rung_model m;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = (mnk / bn + mnk / bm) * model::fp32_bytes;
    m.textbook.formula = c.formula;
    m.textbook.loads_per_output = rt::loads_per_output(double(s.k), tm, tn);
    m.textbook.smem_accesses = mnk / tn + mnk / tm;

    auto& r = m.refined;
    const auto mp = model::round_up(s.m, bm);
    const auto np = model::round_up(s.n, bn);
    const auto kp = model::round_up(s.k, bk);
    r.flops = 2.0 * double(mp) * double(np) * double(kp) + 3.0 * double(s.m) * s.n;

    // L1. Per slice a warp reads 4 rows × 8 words of A and 32 adjacent words of one row of B:
    // over the grid, every row of A in 8-word pieces once per CTA column and every row of B in
    // 32-word pieces once per CTA row.
    const double gx = double(model::ceil_div(s.n, bn));
    const double gy = double(model::ceil_div(s.m, bm));
    const double a_sectors = gx * double(rt::strided_row_sectors(s.m, s.k, bk, 1, 32 / bk));
    const double b_sectors = gy * double(rt::strided_row_sectors(s.k, s.n, 32, 1));
    const double c_sectors = double(rt::strided_row_sectors(s.m, s.n, c.c_tile_cols, c.c_stride));
    r.l1_global_load_bytes = sector_bytes * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = sector_bytes * c_sectors;

    const double warp_slices = gx * gy * (l.threads / 32) * double(kp / bk);
    r.smem_store_wavefronts = warp_slices * c.smem_stores;
    r.smem_load_wavefronts = warp_slices * c.smem_loads;
    r.smem_load_bank_conflicts = warp_slices * c.smem_load_conflicts;

    const int per_sm = resident_ctas_per_sm(mc.limits, l.cta());
    const auto d = rt::estimate_wave_dram(s, bm, bn, per_sm, mc);
    r.dram_read_bytes = d.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, d, mc.l2_bytes);
    ::tgemm::kernels::set_wave_dram_writes(r, d);
    ::tgemm::kernels::set_l2_requests(r, s, 4, bm, bn, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::in_step);

    r.notes.push_back(c.flops_note);
    r.notes.push_back(
        "L1 A: 4 sectors per warp request (4 rows × 8 words), every row of A once "
        "per CTA column");
    r.notes.push_back("L1 B: 32 adjacent words per warp request, every row of B once per CTA row");
    r.notes.push_back(c.l1_c_note);
    r.notes.push_back(c.smem_load_note);
    r.notes.push_back(c.smem_store_note);
    r.notes.push_back(
        "DRAM: " + std::to_string(l.registers) + " registers × " + std::to_string(l.threads) +
        " threads → " + model::ctas(per_sm) + " per SM; " + std::to_string(d.waves) + " waves of " +
        std::to_string(d.ctas_per_wave) + " CTAs, each wave reads the A and B strips it touches, " +
        ::tgemm::kernels::strip_reuse_note);
    return m;
}

}  // namespace tgemm::kernels::blocktile_model
