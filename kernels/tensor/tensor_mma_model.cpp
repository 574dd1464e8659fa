// Refined model of rung 14, bf16_mma (bf16_mma.cuh): mma.sync m16n8k16 fed by ldmatrix from
// XOR-swizzled shared memory, filled by a cp.async pipeline. The ldmatrix and copy addresses come
// from the kernel's own functions (bf16_mma_config.hpp). docs/models/13_17_tensor.md derives
// each count by hand.
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
    tensor_counts r;
    r.textbook = textbook(s, cfg::bm, cfg::bn, cfg::wm, cfg::wn, "warp tile 64×64");
    const std::int64_t gm = ceil_div(s.m, cfg::bm), gn = ceil_div(s.n, cfg::bn);
    const std::int64_t kt = ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.refined.tensor_flops = 2.0 * double(gm * cfg::bm) * double(gn * cfg::bn) * double(kt * cfg::bk);
    set_fp32(r.refined, double(s.m) * double(s.n), double(s.m) * double(s.n), 0);

    const ldsm_counts l = ldsm_per_tile();
    r.refined.smem_ldsm_wavefronts = ctas * double(kt) * l.wavefronts;
    r.refined.smem_ldsm_bank_conflicts = ctas * double(kt) * (l.wavefronts - 4 * l.instructions);
    r.refined.smem_stsm_wavefronts = 0;
    r.refined.smem_load_wavefronts = r.refined.smem_ldsm_wavefronts;  // no other shared loads
    r.refined.smem_store_wavefronts = 0;                 // cp.async writes are not op_st
    r.refined.smem_ldgsts_bytes = ctas * double(kt) * (cfg::a_stage_bytes + cfg::b_stage_bytes);

    // cp.async copies (zero-filled lanes read nothing): L1 counts the pair rule's units, L2 the
    // distinct source sectors. A tile's counts depend on how much of it is inside the matrix and
    // on the phase of its first source byte in a 128-byte line.
    sector_set sectors;
    ldgsts_units units;
    std::map<key3, copy_counts> a_memo, b_memo;
    const auto copies = [&](std::map<key3, copy_counts>& memo, const key3& key, int per_thread,
                            auto lane) {
        if (const auto it = memo.find(key); it != memo.end()) return it->second;
        copy_counts c;
        for (int w = 0; w < warps; ++w)
            for (int i = 0; i < per_thread; ++i) {
                sectors.clear();
                units.clear();
                for (int ln = 0; ln < 32; ++ln) lane(32 * w + ln + i * cfg::threads);
                c.units += units.count();
                c.sectors += sectors.count();
            }
        memo.emplace(key, c);
        return c;
    };
    double a_units = 0, b_units = 0, l2_sectors = 0;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t t = 0; t < kt; ++t) {
            const std::int64_t m0 = bi * cfg::bm, k0 = t * cfg::bk;
            const key3 key{std::min<std::int64_t>(cfg::bm, s.m - m0),
                           std::min<std::int64_t>(cfg::bk, s.k - k0), (m0 * s.k + k0) * bf16 % 128};
            const copy_counts c = copies(a_memo, key, cfg::a_copies, [&](int idx) {
                const int row = idx / cfg::a_chunks, chunk = idx % cfg::a_chunks;
                const std::int64_t gr = m0 + row, gk = k0 + chunk * 8;
                if (gr >= s.m || gk >= s.k) return;
                sectors.add((gr * s.k + gk) * bf16, 16);
                units.add((gr * s.k + gk) * bf16, bf16_mma::a_chunk_offset(row, chunk));
            });
            a_units += double(gn) * double(c.units);
            l2_sectors += double(gn) * double(c.sectors);
        }
    for (std::int64_t bj = 0; bj < gn; ++bj)
        for (std::int64_t t = 0; t < kt; ++t) {
            const std::int64_t n0 = bj * cfg::bn, k0 = t * cfg::bk;
            const key3 key{std::min<std::int64_t>(cfg::bk, s.k - k0),
                           std::min<std::int64_t>(cfg::bn, s.n - n0), (k0 * s.n + n0) * bf16 % 128};
            const copy_counts c = copies(b_memo, key, cfg::b_copies, [&](int idx) {
                const int row = idx / cfg::b_chunks, chunk = idx % cfg::b_chunks;
                const std::int64_t gk = k0 + row, gn_ = n0 + chunk * 8;
                if (gk >= s.k || gn_ >= s.n) return;
                sectors.add((gk * s.n + gn_) * bf16, 16);
                units.add((gk * s.n + gn_) * bf16, bf16_mma::b_chunk_offset(row, chunk, cfg::bn));
            });
            b_units += double(gm) * double(c.units);
            l2_sectors += double(gm) * double(c.sectors);
        }

    // The epilogue reads and writes C as bf16 pairs, one warp request per (m16, n8, half): 8 rows
    // × 16 bytes, so each request touches 8 sectors and uses half of each; the other half comes
    // with the next n8 block, from L1.
    memo3 c_memo, c_l2_memo;
    double c_sectors = 0, c_l2 = 0;
    sector_set cta_sectors;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t bj = 0; bj < gn; ++bj) {
            const std::int64_t m0 = bi * cfg::bm, n0 = bj * cfg::bn;
            const key3 key{std::min<std::int64_t>(cfg::bm, s.m - m0),
                           std::min<std::int64_t>(cfg::bn, s.n - n0), (m0 * s.n + n0) * bf16 % 32};
            const auto count = [&] {
                std::int64_t n = 0;
                cta_sectors.clear();
                for (int w = 0; w < warps; ++w)
                    for (int i = 0; i < cfg::m16; ++i)
                        for (int j = 0; j < cfg::n8; ++j)
                            for (int h = 0; h < 2; ++h) {
                                sectors.clear();
                                for (int ln = 0; ln < 32; ++ln) {
                                    const std::int64_t col =
                                        n0 + warp_n0(w) + 8 * j + tensor::acc_col(ln);
                                    const std::int64_t row = m0 + warp_m0(w) + 16 * i +
                                                             tensor::acc_row(ln) +
                                                             tensor::acc_half_rows * h;
                                    if (col >= s.n || row >= s.m) continue;
                                    sectors.add((row * s.n + col) * bf16, 4);
                                    cta_sectors.add((row * s.n + col) * bf16, 4);
                                }
                                n += sectors.count();
                            }
                c_l2_memo.emplace(key, cta_sectors.count());
                return n;
            };
            c_sectors += double(memoised(c_memo, key, count));
            c_l2 += double(c_l2_memo.at(key));
        }
    r.refined.l1_global_load_bytes = double(sector) * (a_units + b_units + c_sectors);
    r.refined.l1_global_store_bytes = double(sector) * c_sectors;
    r.refined.l2_requested_bytes = double(sector) * (l2_sectors + c_l2);

    const int per_sm = resident_ctas_per_sm(mc.limits, launch.cta());
    const auto w =
        dram_reads(s, cfg::bm, cfg::bn,
                   launch_order_waves(gm, gn, std::int64_t(per_sm) * mc.sm_count), mc.l2_bytes);
    set_dram(r, s, w, mc.l2_bytes,
             model::ctas(per_sm) + " per SM (" + std::to_string(launch.registers) +
                 " registers × 128 threads), CTAs start in blockIdx order");

    r.refined.notes.push_back("tensor FLOPs: 2·" + std::to_string(gm * cfg::bm) + "·" +
                      std::to_string(gn * cfg::bn) + "·" + std::to_string(kt * cfg::bk) +
                      " (padded grid, K rounded up to 32; zero-filled tiles are multiplied too)");
    r.refined.notes.push_back("FP32: the guarded epilogue does one FMUL and one FFMA per output of C");
    r.refined.notes.push_back("ldmatrix per warp and K tile: " + str(l.instructions / warps) +
                      " .x4 (A and B.trans), " + str(l.wavefronts / warps) +
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
        "sectors when rows are sector-aligned) + C's epilogue reads, 8 sectors per "
        "request of 128 bytes (twice C's size)");
    r.refined.notes.push_back(
        "L2 requests: the copies' distinct source sectors + C's distinct sectors per "
        "CTA (the second half of each sector of C hits in L1)");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
