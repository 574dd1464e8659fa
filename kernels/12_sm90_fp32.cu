// The best FP32 FFMA SGEMM of the ladder for sm_90: multi-stage cp.async pipeline, padded
// (m, k) tile of A, packed 128-bit shared loads, large per-lane tiles. The kernel template and
// its named configurations live in sm90_fp32.cuh, shared with the tuning sweep (tgemm-tune);
// this file registers `rung_config` and models it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "can_run.hpp"
#include "common.cuh"
#include "core/error.hpp"
#include "gpu/occupancy.hpp"
#include "reg_tiling_model.hpp"
#include "rung.hpp"
#include "sm90_fp32.cuh"
#include "tile_model.hpp"

namespace tgemm {
namespace {

using cfg = sm90_fp32::rung_config;
// All of its shared memory is dynamic (sm90_fp32::launch requests cfg::smem_bytes). ptxas
// (nvcc 13.0, sm_90 and sm_90a) allocates 255 registers to every path (scalar, float4, whole
// tiles) of rung_config's kernel, with no spills: one CTA of 8 warps per SM.
constexpr kernels::launch_info info{.tile_m = cfg::bm,
                                    .tile_n = cfg::bn,
                                    .tile_k = cfg::bk,
                                    .warp_m = cfg::wm,
                                    .warp_n = cfg::wn,
                                    .thread_m = cfg::tm,
                                    .thread_n = cfg::tn,
                                    .threads = cfg::threads,
                                    .stages = cfg::stages,
                                    .smem_bytes = cfg::smem_bytes,
                                    .dynamic_smem_bytes = cfg::smem_bytes,
                                    .registers = 255};
static_assert(ctas_per_sm(sm_limits_cc90, info.cta()) >= cfg::min_ctas_per_sm,
              "update the registers from ptxas -v when rung_config changes");

void launch(const gemm_args& g, const launch_context& ctx) {
    const auto e = sm90_fp32::launch<cfg>(static_cast<int>(g.size.m), static_cast<int>(g.size.n),
                                          static_cast<int>(g.size.k), g.alpha, g.a_as<float>(),
                                          g.b_as<float>(), g.beta, g.c_as<float>(), ctx.stream);
    if (e != cudaSuccess)
        throw error(error_kind::internal,
                    std::string("sm90_fp32 launch failed: ") + cudaGetErrorString(e));
}

// Shared-memory load wavefronts of one CTA for one K tile, from the kernel's fragment indexing.
// The cp.async copies write shared memory through LDGSTS, which the op_st counter leaves out.
double smem_load_wavefronts_per_tile() {
    using kernels::tile_model::smem_op;
    using kernels::tile_model::warp_wavefronts;
    double w = 0;
    for (int warp = 0; warp < cfg::warps; ++warp) {
        for (int k4 = 0; k4 < cfg::bk; k4 += 4)
            for (int i = 0; i < cfg::tm; ++i)
                w += warp_wavefronts(16, smem_op::load, [&](int lane) {
                    const int row = cfg::warp_row0(warp) + cfg::lane_row(lane) + i * cfg::lanes_m;
                    return std::int64_t(4) * (row * cfg::lda + k4);
                });
        for (int kk = 0; kk < cfg::bk; ++kk)
            for (int j = 0; j < cfg::tn / 4; ++j)
                w += warp_wavefronts(16, smem_op::load, [&](int lane) {
                    const int col =
                        cfg::warp_col0(warp) + 4 * cfg::lane_col_group(lane) + 4 * j * cfg::lanes_n;
                    return std::int64_t(4) * (kk * cfg::ldb + col);
                });
    }
    return w;
}

// ---------------------------------------------------------------------------------------------
// L1 global loads (l1tex__t_bytes_pipe_lsu_mem_global_op_ld) of the cp.async copies, counted by
// the rules measured on the H100 (docs/models/12_sm90_fp32.md):
// - 16-byte copies (cp.async.cg, SASS LDGSTS.E.BYPASS.128): one 32-byte unit per distinct pair
//   (128-byte line of the source, 32-byte granule of the shared-memory destination) among the
//   request's lanes. Where the source and the destination are equally aligned modulo 32 this is
//   the request's sector count; A's padded rows (BK + 4 floats) shift every other row's
//   destination by 16 bytes against its source, so such a row lands in one granule more.
// - 4-byte copies (cp.async.ca, LDGSTS.E.32): the request's distinct 32-byte source sectors.
// - Zero-filled pieces (source size 0) read nothing and count nothing.
// Both assume the matrices start on 128-byte boundaries (cudaMalloc gives 256) and the dynamic
// shared memory on a 32-byte boundary.
static_assert(cfg::bm % 32 == 0 && cfg::bn % 32 == 0 && cfg::bk % 8 == 0,
              "tile offsets must keep the 128-byte line structure of every CTA and K tile alike");
static_assert(cfg::a_stage * 4 % 128 == 0 && cfg::b_stage * 4 % 128 == 0,
              "every stage must start on a 128-byte boundary of shared memory");

// Units of all warp requests of one operand's copies of one K tile of one CTA. `a_side` picks A
// (row block at m0) or B (column block at n0); k0 is the tile's first k; `source_grain` pairs
// the destination granule with the source's 128-byte line (L1's units) or 32-byte sector (the
// L2's requests).
std::int64_t tile_copy_units(const shape& s, bool vec, bool a_side, std::int64_t mn0,
                             std::int64_t k0, std::int64_t source_grain) {
    const int copies = a_side ? cfg::a_copies : cfg::b_copies;
    const int pieces = vec ? 1 : 4;  // the scalar path copies a float4 as 4 floats
    // The 4-byte copies' distinct source sectors are the pairs with one destination.
    kernels::tile_model::ldgsts_units pairs(vec ? source_grain : sector_bytes);
    std::int64_t units = 0;
    for (int warp = 0; warp < cfg::warps; ++warp)
        for (int p = 0; p < copies; ++p)
            for (int e = 0; e < pieces; ++e) {
                pairs.clear();
                for (int lane = 0; lane < 32; ++lane) {
                    const int tid = 32 * warp + lane;
                    std::int64_t tile_row = 0, tile_col = 0, row = 0, col = 0, rows = 0, cols = 0,
                                 ld = 0;
                    if (a_side) {
                        tile_row = tid / (cfg::bk / 4) + p * cfg::a_copy_rows;
                        tile_col = tid % (cfg::bk / 4) * 4 + (vec ? 0 : e);
                        row = mn0 + tile_row;
                        col = k0 + tile_col;
                        rows = s.m;
                        cols = s.k;
                        ld = cfg::lda;
                    } else {
                        tile_row = tid / (cfg::bn / 4) + p * cfg::b_copy_rows;
                        tile_col = tid % (cfg::bn / 4) * 4 + (vec ? 0 : e);
                        row = k0 + tile_row;
                        col = mn0 + tile_col;
                        rows = s.k;
                        cols = s.n;
                        ld = cfg::ldb;
                    }
                    if (row >= rows || col >= cols) continue;  // zero-filled
                    const std::int64_t source = 4 * (row * cols + col);
                    const std::int64_t dest = 4 * (tile_row * ld + tile_col);
                    pairs.add(source, vec ? dest : 0);
                }
                units += pairs.count();
            }
    return units;
}

// All units of one operand over the grid: the CTAs of every full row (column) block and every
// full K tile repeat the pattern of the first, except that a K tile's 128-byte line phase
// repeats every 4 tiles (BK·4·4 bytes is a multiple of 128); the last block and the last tile
// are counted on their own.
std::int64_t copy_units(const shape& s, bool vec, bool a_side, std::int64_t source_grain = 128) {
    const std::int64_t blocks = model::ceil_div(a_side ? s.m : s.n, a_side ? cfg::bm : cfg::bn);
    const std::int64_t others = model::ceil_div(a_side ? s.n : s.m, a_side ? cfg::bn : cfg::bm);
    const std::int64_t ktiles = model::ceil_div(s.k, cfg::bk);
    const std::int64_t block_size = a_side ? cfg::bm : cfg::bn;
    const auto per_block = [&](std::int64_t block) {
        std::int64_t units = 0;
        const std::int64_t full = ktiles - 1;  // tiles 0 .. ktiles - 2 are whole
        for (std::int64_t phase = 0; phase < 4 && phase < full; ++phase)
            units +=
                (full - phase + 3) / 4 *
                tile_copy_units(s, vec, a_side, block * block_size, phase * cfg::bk, source_grain);
        return units + tile_copy_units(s, vec, a_side, block * block_size, (ktiles - 1) * cfg::bk,
                                       source_grain);
    };
    std::int64_t total = per_block(blocks - 1);
    if (blocks > 1) total += (blocks - 1) * per_block(0);
    return others * total;
}

rung_model model_fn(const shape& s, const model_context& mc) {
    namespace tmod = kernels::tile_model;
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    m.textbook.global_bytes = tmod::block_tiled_bytes(s, cfg::bm, cfg::bn);
    m.textbook.formula = "(MNK/BN + MNK/BM + 2MN)·4 B, BM = " + std::to_string(cfg::bm) +
                         ", BN = " + std::to_string(cfg::bn) +
                         ": A re-read N/BN times, B M/BM times, C read and written once";
    m.textbook.loads_per_output = double(s.k) / cfg::bn + double(s.k) / cfg::bm;
    m.textbook.smem_accesses = double(s.m) * s.n * s.k * (1.0 / cfg::tm + 1.0 / cfg::tn);

    auto& r = m.refined;
    const std::int64_t gm = model::ceil_div(s.m, cfg::bm);
    const std::int64_t gn = model::ceil_div(s.n, cfg::bn);
    const std::int64_t ktiles = model::ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.flops = tmod::padded_flops(s, cfg::bm, cfg::bn, cfg::bk);

    // Global loads through L1: the cp.async copies of A and B (counted by copy_units) and the
    // epilogue's reads of C, whose lanes sharing a row cover 4·lanes_n consecutive columns per
    // instruction.
    const bool vec = s.n % 4 == 0 && s.k % 4 == 0;
    std::int64_t c_sectors = 0;
    constexpr int group = 4 * cfg::lanes_n;
    if (vec) {
        c_sectors = tmod::strided_sectors(s.m, s.n, group, cfg::lanes_n, 4, 4, 0);
    } else {
        for (int e = 0; e < 4; ++e)
            c_sectors += tmod::strided_sectors(s.m, s.n, group, cfg::lanes_n, 4, 1, e);
    }
    const std::int64_t a_units = copy_units(s, vec, true);
    const std::int64_t b_units = copy_units(s, vec, false);
    r.l1_global_load_bytes = double(sector_bytes) * double(a_units + b_units + c_sectors);
    r.l1_global_store_bytes = double(sector_bytes) * double(c_sectors);
    // Every thread issues its copies for every tile, zero-filled or not.
    r.smem_ldgsts_bytes = ctas * double(ktiles) * 4.0 * (cfg::bm * cfg::bk + cfg::bk * cfg::bn);

    r.smem_load_wavefronts = ctas * double(ktiles) * smem_load_wavefronts_per_tile();
    r.smem_store_wavefronts = 0;

    const int per_sm = resident_ctas_per_sm(mc.limits, info.cta());
    const auto dram =
        ::tgemm::kernels::reg_tiling::estimate_wave_dram(s, cfg::bm, cfg::bn, per_sm, mc);
    r.dram_read_bytes = dram.read_bytes();
    ::tgemm::kernels::add_l2_residency_band(r, dram, mc.l2_bytes);
    ::tgemm::kernels::set_wave_dram_writes(r, dram);
    // L2 read requests (what L1 forwards, the coalescer's input): a 16-byte copy bypasses L1,
    // and the L2 is asked once per distinct (32-byte source sector, 32-byte destination granule)
    // of a warp request, where L1's units pair the granule with the 128-byte source line. So a
    // row whose destination is 16 bytes off its source (A's padded rows, every other one; B's
    // rows where N·4 bytes is not a multiple of 32) asks for each of its sectors twice:
    // measured 1.5 × A's strips + B's + C's at 2048³ (docs/validation/h100-l2-read-path.csv).
    const std::int64_t a_requests = copy_units(s, vec, true, sector_bytes);
    const std::int64_t b_requests = copy_units(s, vec, false, sector_bytes);
    r.l2_requested_bytes = double(sector_bytes) * double(a_requests + b_requests + c_sectors);
    r.notes.push_back(
        "L2 read requests: A " + std::to_string(a_requests) + " and B " +
        std::to_string(b_requests) +
        " sector requests, one per distinct (source sector, shared-memory granule) of a warp's "
        "copies (a row 16 bytes off its destination asks for each sector twice), and C's " +
        std::to_string(c_sectors) + " sectors");

    const std::string bk = std::to_string(cfg::bk);
    r.notes.push_back("FLOPs: every thread of the padded grid runs K rounded up to " + bk +
                      " (zero-filled copies): 2·⌈M⌉·⌈N⌉·⌈K⌉ + 3MN, rounded to the tile");
    if (vec)
        r.notes.push_back(
            "L1 loads: the 16-byte cp.async copies (LDGSTS.BYPASS, counted by op_ld) cost one "
            "32-byte unit per distinct (128-byte source line, 32-byte shared granule) pair per "
            "warp request: A " +
            std::to_string(a_units) + ", B " + std::to_string(b_units) +
            " units (A's padded rows put every other row 16 bytes off its source's sector "
            "grid); C's float4 reads " +
            std::to_string(c_sectors) + " sectors, " + std::to_string(group) +
            " contiguous floats per row per instruction");
    else
        r.notes.push_back(
            "L1 loads: scalar fallback (N or K not a multiple of 4): 4-byte cp.async copies "
            "(LDGSTS through L1) cost their distinct source sectors per warp request, A " +
            std::to_string(a_units) + ", B " + std::to_string(b_units) +
            "; C is read as four 4-byte loads per float4, lanes 16 bytes apart: " +
            std::to_string(c_sectors) + " sectors; zero-filled copies count nothing");
    r.notes.push_back(
        "shared: every fragment read is an LDS.128 whose lanes pair up (A: lane n "
        "and n^1 share a row; B: n and n^2 share a column group), 2 wavefronts "
        "each; padded rows of A put the " +
        std::to_string(cfg::lanes_m) + " rows a half-warp reads in distinct bank groups");
    r.notes.push_back(
        "shared stores: none counted: cp.async writes shared memory as LDGSTS, "
        "measured as smem_ldgsts_bytes = (BM + BN)·BK·4 B per CTA per K tile");
    r.notes.push_back(
        "DRAM: " + model::ctas(per_sm) + " per SM (" + std::to_string(info.registers) +
        " registers × " + std::to_string(cfg::threads) + " threads, " +
        std::to_string(cfg::smem_bytes / 1024) + " KB shared), so " + std::to_string(dram.waves) +
        " waves; each wave reads the strips of A and B it touches once, " +
        ::tgemm::kernels::strip_reuse_note + "; C read once");
    return m;
}

std::string params() {
    return "BM=" + std::to_string(cfg::bm) + " BN=" + std::to_string(cfg::bn) +
           " BK=" + std::to_string(cfg::bk) + " WM=" + std::to_string(cfg::wm) +
           " WN=" + std::to_string(cfg::wn) + " TM=" + std::to_string(cfg::tm) +
           " TN=" + std::to_string(cfg::tn) + " STAGES=" + std::to_string(cfg::stages) +
           " PIPE=" + std::to_string(cfg::pipe) + ", " + std::to_string(cfg::threads) +
           " threads (" + std::to_string(cfg::warps) + " warps); cp.async pipeline, " +
           std::to_string(cfg::smem_bytes / 1024) + " KB dynamic shared memory";
}

rung make() {
    return {.id = "sm90_fp32",
            .display_name = "sm_90 FP32 (cp.async, packed LDS.128)",
            .order = 120,
            .seed = "seed 003 kernels 05/06 taken further: multistage cp.async, padded A",
            .params = params(),
            .kernel_symbol = "sm90_fp32_kernel",
            // The whole-tile path: the one the ladder's square sizes run.
            .config =
                kernels::with_kernel(info, sm90_fp32::sm90_fp32_kernel<cfg, sm90_fp32::path_full>),
            .launch = launch,
            .model = model_fn,
            .can_run = [](const gpu_info& gpu, const shape& s) -> std::optional<std::string> {
                if (auto why = kernels::int_indices_exceeded(s)) return why;
                if (auto why = kernels::grid_rows_exceeded(s, cfg::bm)) return why;
                if (gpu.limits.smem_per_cta_optin > 0 &&
                    gpu.limits.smem_per_cta_optin < cfg::smem_bytes)
                    return "needs " + std::to_string(cfg::smem_bytes) +
                           " bytes of shared memory per block; this GPU allows " +
                           std::to_string(gpu.limits.smem_per_cta_optin);
                return std::nullopt;
            }};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
