// Refined model of rung 15, bf16_wgmma (bf16_wgmma.cuh): one warpgroup issuing wgmma from
// TMA-loaded, 128-byte-swizzled stages, epilogue from the registers.
// docs/models/13_17_tensor.md derives each count by hand.
#include <cstdint>
#include <map>
#include <string>

#include "gpu/occupancy.hpp"
#include "tensor/accumulator_layout.hpp"
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
    tensor_counts r;
    r.textbook = textbook(s, cfg::bm, cfg::bn, 64, cfg::bn, "wgmma m64n128: B re-read per m64");
    const std::int64_t gm = ceil_div(s.m, cfg::bm), gn = ceil_div(s.n, cfg::bn);
    const std::int64_t kt = ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.refined.tensor_flops = 2.0 * double(gm * cfg::bm) * double(gn * cfg::bn) * double(kt * cfg::bk);
    set_fp32(r.refined, double(s.m) * double(s.n), double(s.m) * double(s.n), 0);
    // Per K tile each of BK/16 k steps issues m_blocks wgmma m64nBNk16, each reading A's 64×16
    // and B's 16×BN from shared memory.
    r.refined.smem_gmma_wavefronts = (1.0 / gmma_wavefront_bytes) * ctas * double(kt) * (cfg::bk / 16) * cfg::m_blocks * (64 * 16 + 16 * cfg::bn) *
                   double(bf16);
    r.refined.smem_load_wavefronts = r.refined.smem_store_wavefronts = 0;
    r.refined.smem_ldsm_wavefronts = r.refined.smem_stsm_wavefronts = 0;

    // TMA: per CTA and K tile one BM×64 box of A and BN/64 boxes of 64×64 of B.
    tma_matrix a(s.m, s.k), b(s.k, s.n);
    tma_traffic t;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t k = 0; k < kt; ++k)
            t += gn * a.box(bi * cfg::bm, k * cfg::bk, cfg::bm, 64);
    for (std::int64_t bj = 0; bj < gn; ++bj)
        for (std::int64_t k = 0; k < kt; ++k)
            for (int j = 0; j < cfg::b_boxes; ++j)
                t += gm * b.box(k * cfg::bk, bj * cfg::bn + 64 * j, cfg::bk, 64);
    r.refined.tma_load_bytes = double(t.delivered);
    r.refined.tma_multicast_bytes = 0;
    r.refined.tma_store_bytes = 0;

    // The epilogue reads and writes C from the registers: per (m64 block, n8 block, half) a warp
    // request of 8 rows × 16 bytes.
    sector_set req, cta;
    memo3 memo, l2_memo;
    double c_sectors = 0, c_l2 = 0;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t bj = 0; bj < gn; ++bj) {
            const std::int64_t m0 = bi * cfg::bm, n0 = bj * cfg::bn;
            const key3 key{std::min<std::int64_t>(cfg::bm, s.m - m0),
                           std::min<std::int64_t>(cfg::bn, s.n - n0), (m0 * s.n + n0) * bf16 % 32};
            c_sectors += double(memoised(memo, key, [&] {
                std::int64_t n = 0;
                cta.clear();
                for (int mb = 0; mb < cfg::m_blocks; ++mb)
                    for (int warp = 0; warp < 4; ++warp)
                        for (int j = 0; j < cfg::bn / 8; ++j)
                            for (int h = 0; h < 2; ++h) {
                                req.clear();
                                for (int ln = 0; ln < 32; ++ln) {
                                    const std::int64_t col = n0 + 8 * j + tensor::acc_col(ln);
                                    const std::int64_t row = m0 + mb * 64 + warp * 16 +
                                                             tensor::acc_row(ln) +
                                                             tensor::acc_half_rows * h;
                                    if (col >= s.n || row >= s.m) continue;
                                    req.add((row * s.n + col) * bf16, 4);
                                    cta.add((row * s.n + col) * bf16, 4);
                                }
                                n += req.count();
                            }
                l2_memo.emplace(key, cta.count());
                return n;
            }));
            c_l2 += double(l2_memo.at(key));
        }
    r.refined.l1_global_load_bytes = double(sector) * c_sectors;
    r.refined.l1_global_store_bytes = double(sector) * c_sectors;
    r.refined.l2_requested_bytes = double(sector) * (double(t.requested_sectors) + c_l2);

    const int per_sm = resident_ctas_per_sm(mc.limits, launch.cta());
    const auto w =
        dram_reads(s, cfg::bm, cfg::bn,
                   launch_order_waves(gm, gn, std::int64_t(per_sm) * mc.sm_count), mc.l2_bytes);
    set_dram(r, s, w, mc.l2_bytes,
             model::ctas(per_sm) + " per SM (" + std::to_string(cfg::smem_bytes / 1024) +
                 " KB of shared memory), CTAs start in blockIdx order");

    r.refined.notes.push_back("tensor FLOPs: 2·" + std::to_string(gm * cfg::bm) + "·" +
                      std::to_string(gn * cfg::bn) + "·" + std::to_string(kt * cfg::bk) +
                      " (padded grid, K rounded up to 64: TMA fills the edges with zeros)");
    r.refined.notes.push_back("FP32: the guarded epilogue does one FMUL and one FFMA per output of C");
    r.refined.notes.push_back(
        "gmma bytes: per CTA and K tile 4 k16 steps × 2 m64 blocks × (64·16 + "
        "16·128)·2 B = 49,152 B; B is read once per m64 block");
    r.refined.notes.push_back(
        "shared: no LSU shared loads or stores (wgmma reads its operands through "
        "the gmma path; mbarrier waits do not count as op_ld)");
    r.refined.notes.push_back(
        "TMA: per box row the 32-byte sectors of its bytes inside the matrix, plus "
        "the whole 128-byte row when any of it is outside (its zero fill)");
    r.refined.notes.push_back("L1: C's epilogue reads and writes only, 8 sectors per request of 128 bytes");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
