// Refined model of rung 15, bf16_wgmma (bf16_wgmma.cuh): one warpgroup issuing wgmma from
// TMA-loaded, 128-byte-swizzled stages, epilogue from the registers.
// docs/models/13_17_tensor.md derives each count by hand.
#include <cstdint>
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

using cfg = tensor_rungs::wgmma;
// Registers, threads and shared memory: the 129 KB of shared memory allow 1 CTA per SM on the
// H100.
constexpr const auto& launch = tensor_rungs::wgmma_launch;

}  // namespace

tensor_counts model_bf16_wgmma(const shape& s, const model_context& mc) {
    const blockidx_grid g = grid_of(s, cfg::bm, cfg::bn, cfg::bk);
    tensor_counts r = blockidx_counts(s, g, 64, cfg::bn, "wgmma m64n128: B re-read per m64");
    // Per K tile each of BK/16 k steps issues m_blocks wgmma m64nBNk16, each reading A's 64×16
    // and B's 16×BN from shared memory.
    r.refined.smem_gmma_wavefronts = (1.0 / gmma_wavefront_bytes) * g.ctas() * double(g.kt) *
                                     (cfg::bk / 16) * cfg::m_blocks * (64 * 16 + 16 * cfg::bn) *
                                     double(bf16);
    r.refined.smem_load_wavefronts = r.refined.smem_store_wavefronts = 0;
    r.refined.smem_ldsm_wavefronts = r.refined.smem_stsm_wavefronts = 0;

    // TMA: per CTA and K tile one BM×64 box of A and BN/64 boxes of 64×64 of B.
    tma_matrix a(s.m, s.k), b(s.k, s.n);
    tma_traffic t;
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t k = 0; k < g.kt; ++k)
            t += g.gn * a.box(bi * cfg::bm, k * cfg::bk, cfg::bm, 64);
    for (std::int64_t bj = 0; bj < g.gn; ++bj)
        for (std::int64_t k = 0; k < g.kt; ++k)
            for (int j = 0; j < cfg::b_boxes; ++j)
                t += g.gm * b.box(k * cfg::bk, bj * cfg::bn + 64 * j, cfg::bk, 64);
    r.refined.tma_load_bytes = double(t.delivered);
    r.refined.tma_multicast_bytes = 0;
    r.refined.tma_store_bytes = 0;

    // The epilogue reads and writes C from the registers: per m64 block, warp and group of four n8
    // blocks.
    const c_sectors c = grid_epilogue_sectors(
        s, g, [](accumulator_requests& req, std::int64_t m0, std::int64_t n0) {
            for (int mb = 0; mb < cfg::m_blocks; ++mb)
                for (int warp = 0; warp < 4; ++warp)
                    for (int j = 0; j < cfg::bn / 8; j += tensor::acc_group_blocks)
                        req.add_group(m0 + mb * 64 + warp * 16, n0 + 8 * j);
        });
    const double c_l1 = double(c.l1), c_l2 = double(c.l2);
    r.refined.l1_global_load_bytes = double(sector) * c_l1;
    r.refined.l1_global_store_bytes = double(sector) * c_l1;
    r.refined.distinct_store_bytes = double(sector) * c_l2;
    r.refined.l2_requested_bytes = double(sector) * (double(t.requested_sectors) + c_l2);

    set_blockidx_dram(r, s, mc, g, launch,
                      std::to_string(cfg::smem_bytes / 1024) + " KB of shared memory");

    r.refined.notes.push_back("tensor FLOPs: " + g.padded_product() +
                              " (padded grid, K rounded up to 64: TMA fills the edges with zeros)");
    r.refined.notes.push_back(guarded_epilogue_note);
    r.refined.notes.push_back(
        "gmma bytes: per CTA and K tile 4 k16 steps × 2 m64 blocks × (64·16 + "
        "16·128)·2 B = 49,152 B; B is read once per m64 block");
    r.refined.notes.push_back(
        "shared: no LSU shared loads or stores (wgmma reads its operands through "
        "the gmma path; mbarrier waits do not count as op_ld)");
    r.refined.notes.push_back(
        "TMA: per box row delivered, the 32-byte sectors of its bytes inside the matrix plus "
        "the outside part's zero fill in whole sectors; requested from L2, every sector of the "
        "box row as addressed, inside the matrix or not");
    r.refined.notes.push_back(
        "L1: C's epilogue reads and writes only, 8 rows × 64 bytes per request after a quad "
        "exchange: 16 whole sectors where rows are 64-byte aligned");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
