// Refined model of rung 14, bf16_mma (bf16_mma.cuh): mma.sync m16n8k16 fed by ldmatrix from
// XOR-swizzled shared memory, filled by a cp.async pipeline. The ldmatrix and copy addresses come
// from the kernel's own functions (bf16_mma_config.hpp). docs/models/13_17_tensor.md derives
// each count by hand.
#include <cstdint>
#include <map>
#include <string>

#include "tensor/accumulator_requests.hpp"
#include "tensor/blockidx_grid.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/tensor_traffic.hpp"
#include "tile_model.hpp"

namespace tgemm::kernels::tensor_model {
namespace {

using cfg = tensor_rungs::mma;
// Registers, threads and shared memory: 2 CTAs per SM on the H100.
constexpr const auto& launch = tensor_rungs::mma_launch;
constexpr int warps = cfg::threads / 32;

// The kernel's own placement of its warps (bf16_mma_config.hpp).
constexpr int warp_m0(int warp) {
    return cfg::warp_m0(warp);
}
constexpr int warp_n0(int warp) {
    return cfg::warp_n0(warp);
}

struct ldsm_counts {
    double wavefronts = 0;
    double instructions = 0;
};

// ldmatrix wavefronts of one CTA for one K tile, through the kernel's own addressing.
ldsm_counts ldsm_per_tile() {
    ldsm_counts c;
    const std::int64_t b_base = std::int64_t(cfg::stages) * cfg::a_stage_bytes;
    for (int warp = 0; warp < warps; ++warp)
        for (int kk = 0; kk < cfg::bk / 16; ++kk) {
            for (int i = 0; i < cfg::m16; ++i) {
                lane_addresses a{};
                for (int l = 0; l < 32; ++l)
                    a[l] = bf16_mma::a_ldsm_offset(warp_m0(warp), i, kk, l);
                c.wavefronts += matrix_x4_wavefronts(a);
                c.instructions += 1;
            }
            for (int j = 0; j < cfg::n8 / 2; ++j) {
                lane_addresses a{};
                for (int l = 0; l < 32; ++l)
                    a[l] = b_base + bf16_mma::b_ldsm_offset(warp_n0(warp), j, kk, l, cfg::bn);
                c.wavefronts += matrix_x4_wavefronts(a);
                c.instructions += 1;
            }
        }
    return c;
}

// L1 units (pair rule) and L2 sectors of one operand's copies of one K tile of one CTA.
struct copy_counts {
    std::int64_t units = 0;
    std::int64_t sectors = 0;
};

}  // namespace

tensor_counts model_bf16_mma(const shape& s, const model_context& mc) {
    const blockidx_grid g = grid_of(s, cfg::bm, cfg::bn, cfg::bk);
    tensor_counts r = blockidx_counts(s, g, cfg::wm, cfg::wn, "warp tile 64×64");

    const ldsm_counts l = ldsm_per_tile();
    r.refined.smem_ldsm_wavefronts = g.ctas() * double(g.kt) * l.wavefronts;
    r.refined.smem_ldsm_bank_conflicts =
        g.ctas() * double(g.kt) * (l.wavefronts - 4 * l.instructions);
    r.refined.smem_stsm_wavefronts = 0;
    r.refined.smem_load_wavefronts = r.refined.smem_ldsm_wavefronts;  // no other shared loads
    r.refined.smem_store_wavefronts = 0;  // cp.async writes are not op_st
    r.refined.smem_ldgsts_bytes =
        g.ctas() * double(g.kt) * (cfg::a_stage_bytes + cfg::b_stage_bytes);

    // cp.async copies (zero-filled lanes read nothing): L1 counts the pair rule's units, the L2
    // one request per distinct (source sector, destination granule) of a warp request: a row whose
    // source starts mid-sector (K·2 bytes not a multiple of 32) asks for a sector whose halves
    // land in two granules twice (docs/models/l2.md). A tile's counts depend on how much of it
    // is inside the matrix and on the phase of its first source byte in a 128-byte line.
    ldgsts_units sectors{sector};  // L2: (source sector, destination granule) pairs
    ldgsts_units units;
    std::map<key3, copy_counts> a_memo, b_memo;
    const auto copies = [&](std::map<key3, copy_counts>& memo, const key3& key, int per_thread,
                            auto lane) {
        return memoised(memo, key, [&] {
            copy_counts c;
            for (int w = 0; w < warps; ++w)
                for (int i = 0; i < per_thread; ++i) {
                    sectors.clear();
                    units.clear();
                    for (int ln = 0; ln < 32; ++ln) lane(32 * w + ln + i * cfg::threads);
                    c.units += units.count();
                    c.sectors += sectors.count();
                }
            return c;
        });
    };
    double a_units = 0, b_units = 0, l2_sectors = 0;
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t t = 0; t < g.kt; ++t) {
            const std::int64_t m0 = bi * cfg::bm, k0 = t * cfg::bk;
            const key3 key = tile_key(s.m, s.k, m0, k0, cfg::bm, cfg::bk, 128);
            const copy_counts c = copies(a_memo, key, cfg::a_copies, [&](int idx) {
                const int row = idx / cfg::a_chunks, chunk = idx % cfg::a_chunks;
                const std::int64_t gr = m0 + row, gk = k0 + chunk * 8;
                if (gr >= s.m || gk >= s.k) return;
                sectors.add((gr * s.k + gk) * bf16, bf16_mma::a_chunk_offset(row, chunk));
                units.add((gr * s.k + gk) * bf16, bf16_mma::a_chunk_offset(row, chunk));
            });
            a_units += double(g.gn) * double(c.units);
            l2_sectors += double(g.gn) * double(c.sectors);
        }
    for (std::int64_t bj = 0; bj < g.gn; ++bj)
        for (std::int64_t t = 0; t < g.kt; ++t) {
            const std::int64_t n0 = bj * cfg::bn, k0 = t * cfg::bk;
            const key3 key = tile_key(s.k, s.n, k0, n0, cfg::bk, cfg::bn, 128);
            const copy_counts c = copies(b_memo, key, cfg::b_copies, [&](int idx) {
                const int row = idx / cfg::b_chunks, chunk = idx % cfg::b_chunks;
                const std::int64_t gk = k0 + row, gn_ = n0 + chunk * 8;
                if (gk >= s.k || gn_ >= s.n) return;
                sectors.add((gk * s.n + gn_) * bf16, bf16_mma::b_chunk_offset(row, chunk, cfg::bn));
                units.add((gk * s.n + gn_) * bf16, bf16_mma::b_chunk_offset(row, chunk, cfg::bn));
            });
            b_units += double(g.gm) * double(c.units);
            l2_sectors += double(g.gm) * double(c.sectors);
        }

    // The epilogue reads and writes C from the accumulators, per warp and group of four m16n8
    // blocks.
    const c_sectors c = grid_epilogue_sectors(
        s, g, [](accumulator_requests& req, std::int64_t m0, std::int64_t n0) {
            for (int w = 0; w < warps; ++w)
                for (int i = 0; i < cfg::m16; ++i)
                    for (int j = 0; j < cfg::n8; j += tensor::acc_group_blocks)
                        req.add_group(m0 + warp_m0(w) + 16 * i, n0 + warp_n0(w) + 8 * j);
        });
    const double c_l1 = double(c.l1), c_l2 = double(c.l2);
    r.refined.l1_global_load_bytes = double(sector) * (a_units + b_units + c_l1);
    r.refined.l1_global_store_bytes = double(sector) * c_l1;
    r.refined.distinct_store_bytes = double(sector) * c_l2;
    r.refined.l2_requested_bytes = double(sector) * (l2_sectors + c_l2);

    set_blockidx_dram(r, s, mc, g, launch,
                      std::to_string(launch.registers) + " registers × 128 threads");

    r.refined.notes.push_back(
        "tensor FLOPs: " + g.padded_product() +
        " (padded grid, K rounded up to 32; zero-filled tiles are multiplied too)");
    r.refined.notes.push_back(guarded_epilogue_note);
    r.refined.notes.push_back(
        "ldmatrix per warp and K tile: " + str(l.instructions / warps) + " .x4 (A and B.trans), " +
        str(l.wavefronts / warps) +
        " wavefronts: the XOR swizzles (bf16_mma::a_chunk_offset, b_chunk_offset) "
        "put each phase's 8 rows in 8 bank groups");
    r.refined.notes.push_back(
        "shared: ldmatrix is the only LSU load (op_ld = ldsm); cp.async writes count "
        "as LDGSTS, not op_st");
    r.refined.notes.push_back(
        "cp.async bytes: every thread copies 16 bytes per copy, zero-filled or "
        "not: CTAs × K tiles × (BM + BN)·BK·2 B");
    r.refined.notes.push_back(
        "L1: cp.async units (distinct 128-byte source line × 32-byte destination "
        "granule per request; the swizzle moves whole 32-byte granules, so units = "
        "sectors when rows are sector-aligned) + C's epilogue reads, 16 lanes' 16 bytes "
        "per row after a quad exchange: whole sectors where rows are 64-byte aligned");
    r.refined.notes.push_back(
        "L2 requests: the copies' distinct source sectors + C's distinct sectors per "
        "CTA (a sector two of its requests share is missed once)");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
