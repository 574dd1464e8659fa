#pragma once
// The model shared by the rungs that stage a 128×128 block tile with float4 loads, A transposed
// into shared memory: 09 vectorized (seed 000 section 5, BK = 8, 256 threads) and the
// warp-tiling rungs 10 and 11 (seed 003 kernels 05 and 06, BK = 16, 128 threads). Their models
// differ only in the launch (K depth, threads, registers), in how a lane's outputs are laid out
// (which sets the L1 sectors of C), in the shared-memory wavefronts each rung counts from its
// own indexing, and in five notes. Host-only C++; derivations in docs/models/09_vectorized.md,
// 10_warptiling.md and 11_warptiling_sub.md.
#include <cstdint>
#include <string>

#include "core/shape.hpp"
#include "launch_info.hpp"
#include "model/rung_model.hpp"
#include "reg_tiling_model.hpp"
#include "tile_model.hpp"

namespace tgemm::kernels::vec_tile_model {

// Shared-memory wavefronts of one CTA for one K step.
struct smem_per_step {
    double loads = 0;
    double stores = 0;
};

struct config {
    // The rung's launch: tile, outputs per lane (thread_m × thread_n), threads, shared memory
    // (the two tiles of a K step) and registers.
    launch_info launch;
    // C: the lanes sharing a row of C cover `c_seg` columns per instruction, each owning `tn`
    // consecutive columns of it.
    int c_seg = 0;
    int tn = 0;
    // The notes that differ between the rungs.
    const char* flops_note = "";
    const char* l1_vec_note = "";  // the float4 path's L1 pattern of A and B
    const char* c_note = "";
    const char* smem_store_note = "";
    const char* smem_load_note = "";
};

// The shared textbook formula spells out the 128×128 tile.
[[nodiscard]] constexpr bool notes_hold(const config& c) {
    return c.launch.tile_m == 128 && c.launch.tile_n == 128;
}

[[nodiscard]] inline rung_model predict(const shape& s, const model_context& mc, const config& c,
                                        const smem_per_step& w) {
    namespace tmod = tile_model;
    const auto& l = c.launch;
    const int bm = l.tile_m, bn = l.tile_n, bk = l.tile_k;
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = tmod::block_tiled_bytes(s, bm, bn);
    m.textbook.formula =
        "(MNK/BN + MNK/BM + 2MN)·4 B, BM = BN = 128: A re-read N/128 times, "
        "B M/128 times, C read and written once";
    m.textbook.loads_per_output = double(s.k) / bn + double(s.k) / bm;
    m.textbook.smem_accesses = double(s.m) * s.n * s.k * (1.0 / l.thread_m + 1.0 / l.thread_n);

    auto& r = m.refined;
    const std::int64_t gm = model::ceil_div(s.m, bm);
    const std::int64_t gn = model::ceil_div(s.n, bn);
    const std::int64_t steps = model::ceil_div(s.k, bk);
    r.flops = tmod::padded_flops(s, bm, bn, bk);

    const bool vec = s.n % 4 == 0 && s.k % 4 == 0;
    const auto pattern = [&](std::int64_t rows, std::int64_t cols, std::int64_t seg, int lanes,
                             int stride, int width) {
        return tmod::owned_columns_sectors(vec, rows, cols, seg, lanes, stride, width);
    };
    // A: four lanes per row of the 128×16 tile; B: a warp per row of the 16×128 tile.
    const double a_sectors = pattern(s.m, s.k, bk, bk / 4, 4, 4) * double(gn);
    const double b_sectors = pattern(s.k, s.n, bn, bn / 4, 4, 4) * double(gm);
    const double c_sectors = pattern(s.m, s.n, c.c_seg, c.c_seg / c.tn, c.tn, c.tn);
    r.l1_global_load_bytes = double(sector_bytes) * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = double(sector_bytes) * c_sectors;

    const double ctas = double(gm) * double(gn);
    r.smem_load_wavefronts = ctas * double(steps) * w.loads;
    r.smem_store_wavefronts = ctas * double(steps) * w.stores;

    const int per_sm = resident_ctas_per_sm(mc.limits, l.cta());
    const auto dram = ::tgemm::kernels::reg_tiling::estimate_wave_dram(s, bm, bn, per_sm, mc);
    r.dram_read_bytes = dram.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, dram, mc.l2_bytes);
    ::tgemm::kernels::set_wave_dram_writes(r, dram);
    ::tgemm::kernels::set_l2_requests(r, s, 4, bm, bn, per_sm, mc.sm_count,
                                      ::tgemm::kernels::sm_sharing::in_step);

    r.notes.push_back(c.flops_note);
    r.notes.push_back(vec ? c.l1_vec_note
                          : "L1: scalar fallback (N or K not a multiple of 4): four 4-byte loads "
                            "per float4, lanes 16 bytes apart, each load its own sectors");
    r.notes.push_back(c.c_note);
    r.notes.push_back(c.smem_store_note);
    r.notes.push_back(c.smem_load_note);
    r.notes.push_back("DRAM: " + model::ctas(per_sm) + " per SM (" + std::to_string(l.registers) +
                      " registers × " + std::to_string(l.threads) + " threads), so " +
                      std::to_string(dram.waves) +
                      " waves; each wave reads the strips of A and B it touches once, " +
                      ::tgemm::kernels::strip_reuse_note + "; C read once");
    return m;
}

}  // namespace tgemm::kernels::vec_tile_model
