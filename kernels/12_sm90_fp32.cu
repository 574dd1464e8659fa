// The best FP32 FFMA SGEMM of the ladder for sm_90: multi-stage cp.async pipeline, padded
// (m, k) tile of A, packed 128-bit shared loads, large per-lane tiles. The kernel template and
// its named configurations live in sm90_fp32.cuh, shared with the tuning sweep (tgemm-tune);
// this file registers `rung_config` and models it.
#include <climits>

#include "common.cuh"
#include "core/error.hpp"
#include "model/levels.hpp"
#include "rung.hpp"
#include "sm90_fp32.cuh"
#include "tile_model.hpp"

namespace tgemm {
namespace {

using cfg = sm90_fp32::rung_config;
// ptxas (nvcc 13.0, sm_90) allocates this many registers to the float4 kernel of rung_config,
// with no spills: one CTA per SM.
constexpr int registers = 255;
static_assert(registers * cfg::threads * cfg::min_ctas_per_sm <= 65536,
              "update `registers` from ptxas -v when rung_config changes");

void launch(const gemm_args& g, const launch_context& ctx) {
    const auto e = sm90_fp32::launch<cfg>(static_cast<int>(g.size.m), static_cast<int>(g.size.n),
                                          static_cast<int>(g.size.k), g.alpha, g.a, g.b, g.beta,
                                          g.c, ctx.stream);
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
    r.set(keys::flops, tmod::padded_flops(s, cfg::bm, cfg::bn, cfg::bk));

    // Global loads through L1 (LDG) are only the epilogue's reads of C: A and B arrive by
    // cp.async, which the op_ld counter leaves out. The lanes sharing a row of C cover 4·lanes_n
    // consecutive columns per instruction.
    const bool vec = s.n % 4 == 0 && s.k % 4 == 0;
    std::int64_t c_sectors = 0;
    constexpr int group = 4 * cfg::lanes_n;
    if (vec) {
        c_sectors = tmod::strided_sectors(s.m, s.n, group, cfg::lanes_n, 4, 4, 0);
    } else {
        for (int e = 0; e < 4; ++e)
            c_sectors += tmod::strided_sectors(s.m, s.n, group, cfg::lanes_n, 4, 1, e);
    }
    r.set(keys::l1_global_load_bytes, double(tmod::sector) * double(c_sectors));
    r.set(keys::l1_global_store_bytes, double(tmod::sector) * double(c_sectors));
    // Every thread issues its copies for every tile, zero-filled or not.
    r.set(keys::smem_ldgsts_bytes,
          ctas * double(ktiles) * 4.0 * (cfg::bm * cfg::bk + cfg::bk * cfg::bn));

    r.set(keys::smem_load_wavefronts, ctas * double(ktiles) * smem_load_wavefronts_per_tile());
    r.set(keys::smem_store_wavefronts, 0);

    const int per_sm = tmod::ctas_per_sm(cfg::threads, registers, cfg::smem_bytes);
    const auto dram = tmod::dram_reads(s, cfg::bm, cfg::bn, std::int64_t(per_sm) * mc.sm_count, mc);
    r.set(keys::dram_read_bytes, dram.total());
    r.set(keys::dram_write_bytes, model::dram_write_bytes(s, mc));

    const std::string bk = std::to_string(cfg::bk);
    r.notes.push_back("FLOPs: every thread of the padded grid runs K rounded up to " + bk +
                      " (zero-filled copies): 2·⌈M⌉·⌈N⌉·⌈K⌉ + 3MN, rounded to the tile");
    r.notes.push_back(
        "L1 loads: A and B come by cp.async (LDGSTS, not op_ld); only C's float4 "
        "reads remain, " +
        std::to_string(group) +
        " contiguous floats per row per instruction, every sector used whole");
    if (!vec)
        r.notes.push_back(
            "L1: scalar fallback (N or K not a multiple of 4): 4-byte copies and "
            "four 4-byte reads of C per float4, lanes 16 bytes apart");
    r.notes.push_back(
        "shared: every fragment read is an LDS.128 whose lanes pair up (A: lane n "
        "and n^1 share a row; B: n and n^2 share a column group), 2 wavefronts "
        "each; padded rows of A put a half-warp's 8 rows in 8 bank groups");
    r.notes.push_back(
        "shared stores: none counted: cp.async writes shared memory as LDGSTS, "
        "measured as smem_ldgsts_bytes = (BM + BN)·BK·4 B per CTA per K tile");
    r.notes.push_back("DRAM: " + std::to_string(per_sm) + " CTA(s) per SM (" +
                      std::to_string(registers) + " registers × " + std::to_string(cfg::threads) +
                      " threads, " + std::to_string(cfg::smem_bytes / 1024) + " KB shared), so " +
                      std::to_string(dram.waves) +
                      " waves; each wave re-reads the strips of A and B it touches when A + B "
                      "exceed half the L2, C read once");
    return m;
}

std::string params() {
    return "BM=" + std::to_string(cfg::bm) + " BN=" + std::to_string(cfg::bn) +
           " BK=" + std::to_string(cfg::bk) + " WM=" + std::to_string(cfg::wm) +
           " WN=" + std::to_string(cfg::wn) + " TM=" + std::to_string(cfg::tm) +
           " TN=" + std::to_string(cfg::tn) + " STAGES=" + std::to_string(cfg::stages) + ", " +
           std::to_string(cfg::threads) + " threads (" + std::to_string(cfg::warps) +
           " warps); cp.async pipeline, " + std::to_string(cfg::smem_bytes / 1024) +
           " KB dynamic shared memory";
}

rung make() {
    return {.id = "sm90_fp32",
            .display_name = "sm_90 FP32 (cp.async, packed LDS.128)",
            .order = 120,
            .seed = "seed 003 kernels 05/06 taken further: multistage cp.async, padded A",
            .params = params(),
            .kernel_symbol = "sm90_fp32_kernel",
            .launch = launch,
            .model = model_fn,
            .can_run = [](const gpu_info& gpu, const shape& s) -> std::optional<std::string> {
                if (s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX)
                    return "dimensions above 2^31 - 1 do not fit the kernel's int indices";
                if (model::ceil_div(s.m, cfg::bm) > 65535)
                    return "M above 65535·BM exceeds the grid's y dimension";
                if (gpu.smem_per_block_optin > 0 && gpu.smem_per_block_optin < cfg::smem_bytes)
                    return "needs " + std::to_string(cfg::smem_bytes) +
                           " bytes of shared memory per block; this GPU allows " +
                           std::to_string(gpu.smem_per_block_optin);
                return std::nullopt;
            }};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
