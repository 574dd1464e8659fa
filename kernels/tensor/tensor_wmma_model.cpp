// Refined model of rung 13, bf16_wmma (bf16_wmma.cuh): WMMA 16×16×16, 8 warps in 4×2 of 32×64,
// 16-byte copies into padded shared tiles (one stage), accumulators staged in shared memory for
// the guarded epilogue. docs/models/13_17_tensor.md derives each count by hand.
#include <cstdint>
#include <map>
#include <string>

#include "l2_requests.hpp"
#include "tensor/blockidx_grid.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_model_common.hpp"
#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/tensor_traffic.hpp"
#include "tile_model.hpp"

namespace tgemm::kernels::tensor_model {
namespace {

using cfg = tensor_rungs::wmma;
// Registers, threads and shared memory: 2 CTAs per SM on the H100.
constexpr const auto& launch = tensor_rungs::wmma_launch;
static_assert(cfg::wm == 32 && cfg::wn == 64 && cfg::threads == 256,
              "the fragment loops below assume 2×4 fragments per warp");

using bf16_wmma::a_copy_col;
using bf16_wmma::a_copy_row;
using bf16_wmma::b_copy_col;
using bf16_wmma::b_copy_row;
using bf16_wmma::warp_m0;
using bf16_wmma::warp_n0;

// Shared-memory wavefronts of one CTA: per K step (copies and fragment loads) and once
// (accumulator stores).
struct smem_counts {
    double step_loads = 0;
    double step_stores = 0;
    double epilogue_stores = 0;
};

// wmma.load of a 16×16 bf16 tile: ptxas emits four 32-bit loads (h, v), lane l loading the pair
// at row l/4 + 8h, columns 2(l%4) + 8v (for the row-major B a register transpose follows);
// wmma.store of the FP32 accumulators: four 64-bit stores of the same pairs. at(row, col) gives
// the byte address of the pair starting at (row, col) of the 8×8 block (h, v) = (0, 0).
template <class Address>
lane_addresses fragment_lanes(Address at) {
    lane_addresses a{};
    for (int l = 0; l < 32; ++l) a[l] = at(l / 4, 2 * (l % 4));
    return a;
}

smem_counts smem_per_cta() {
    smem_counts c;
    for (int warp = 0; warp < cfg::threads / 32; ++warp) {
        const int wm0 = warp_m0(warp), wn0 = warp_n0(warp);
        for (int i = 0; i < 2; ++i) {
            lane_addresses a{}, b{};
            for (int l = 0; l < 32; ++l) {
                const int idx = 32 * warp + l + i * cfg::threads;
                a[l] = 2 * (a_copy_row(idx) * cfg::lda + a_copy_col(idx));
                b[l] = cfg::a_bytes + 2 * (b_copy_row(idx) * cfg::ldb + b_copy_col(idx));
            }
            c.step_stores += smem_wavefronts(a, 16, smem_op::store);
            c.step_stores += smem_wavefronts(b, 16, smem_op::store);
        }
        for (int kk = 0; kk < cfg::bk; kk += 16)
            for (int h = 0; h < 2; ++h)
                for (int v = 0; v < 2; ++v) {
                    for (int i = 0; i < 2; ++i)
                        c.step_loads += smem_wavefronts(
                            fragment_lanes([&](int row, int col) {
                                return std::int64_t(2) *
                                       ((wm0 + 16 * i + row + 8 * h) * cfg::lda + kk + col + 8 * v);
                            }),
                            4, smem_op::load);
                    for (int j = 0; j < 4; ++j)
                        c.step_loads += smem_wavefronts(
                            fragment_lanes([&](int row, int col) {
                                return cfg::a_bytes +
                                       std::int64_t(2) * ((kk + row + 8 * h) * cfg::ldb + wn0 +
                                                          16 * j + col + 8 * v);
                            }),
                            4, smem_op::load);
                }
        const std::int64_t cs = std::int64_t(4) * warp * cfg::wm * cfg::ldc;
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 4; ++j)
                for (int h = 0; h < 2; ++h)
                    for (int v = 0; v < 2; ++v)
                        c.epilogue_stores +=
                            smem_wavefronts(fragment_lanes([&](int row, int col) {
                                                return cs + 4 * ((16 * i + row + 8 * h) * cfg::ldc +
                                                                 16 * j + col + 8 * v);
                                            }),
                                            8, smem_op::store);
    }
    return c;
}

// The epilogue's 64-bit loads of the staged accumulators for a CTA with valid_rows × valid_cols
// of C inside the matrix: a warp skips rows past M, lanes past N idle.
std::int64_t epilogue_loads(std::int64_t valid_rows, std::int64_t valid_cols) {
    std::int64_t w = 0;
    for (int warp = 0; warp < cfg::threads / 32; ++warp) {
        const std::int64_t cs = std::int64_t(4) * warp * cfg::wm * cfg::ldc;
        for (int r = 0; r < cfg::wm; ++r) {
            if (warp_m0(warp) + r >= valid_rows) continue;
            lane_addresses a{};
            for (int l = 0; l < 32; ++l)
                a[l] =
                    warp_n0(warp) + 2 * l < valid_cols ? cs + 4 * (r * cfg::ldc + 2 * l) : inactive;
            w += smem_wavefronts(a, 8, smem_op::load);
        }
    }
    return w;
}

}  // namespace

tensor_counts model_bf16_wmma(const shape& s, const model_context& mc) {
    const blockidx_grid g = grid_of(s, cfg::bm, cfg::bn, cfg::bk);
    tensor_counts r = blockidx_counts(s, g, cfg::wm, cfg::wn, "warp tile 32×64");
    r.refined.smem_ldsm_wavefronts = r.refined.smem_stsm_wavefronts =
        r.refined.smem_ldsm_bank_conflicts = 0;

    // Shared memory: copies and fragment loads every K step, zero-filled or not; accumulator
    // stores once per CTA; the guarded epilogue's loads per CTA.
    const smem_counts c = smem_per_cta();
    memo3 memo;
    double epi_loads = 0;
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t bj = 0; bj < g.gn; ++bj) {
            const std::int64_t vr = std::min<std::int64_t>(cfg::bm, s.m - bi * cfg::bm);
            const std::int64_t vc = std::min<std::int64_t>(cfg::bn, s.n - bj * cfg::bn);
            epi_loads +=
                double(memoised(memo, {vr, vc, 0}, [&] { return epilogue_loads(vr, vc); }));
        }
    r.refined.smem_load_wavefronts = g.ctas() * double(g.kt) * c.step_loads + epi_loads;
    r.refined.smem_store_wavefronts =
        g.ctas() * double(g.kt) * c.step_stores + g.ctas() * c.epilogue_stores;

    // Global loads through L1: the guarded 16-byte copies (skipped lanes read nothing) and the
    // epilogue's 4-byte reads of C, one warp request per row; the same sectors are stored.
    sector_set sectors;
    memo3 a_memo, b_memo, c_memo;
    // Sectors of one K step's copies of a tile at (r0, c0) of a rows × cols operand: copy idx
    // (two per thread) lands at (row_of(idx), col_of(idx)) of the tile, one warp request per 32.
    const auto copy_sectors = [&](std::int64_t rows, std::int64_t cols, std::int64_t r0,
                                  std::int64_t c0, auto row_of, auto col_of) {
        std::int64_t n = 0;
        for (int w = 0; w < cfg::threads / 32; ++w)
            for (int i = 0; i < 2; ++i) {
                sectors.clear();
                for (int l = 0; l < 32; ++l) {
                    const int idx = 32 * w + l + i * cfg::threads;
                    const std::int64_t row = r0 + row_of(idx);
                    const std::int64_t col = c0 + col_of(idx);
                    if (row < rows && col < cols) sectors.add((row * cols + col) * bf16, 16);
                }
                n += sectors.count();
            }
        return n;
    };
    double a_sectors = 0, b_sectors = 0, c_sectors = 0;
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t t = 0; t < g.kt; ++t) {
            const std::int64_t m0 = bi * cfg::bm, k0 = t * cfg::bk;
            const key3 key = tile_key(s.m, s.k, m0, k0, cfg::bm, cfg::bk, 32);
            a_sectors += double(g.gn) * double(memoised(a_memo, key, [&] {
                             return copy_sectors(s.m, s.k, m0, k0, a_copy_row, a_copy_col);
                         }));
        }
    for (std::int64_t bj = 0; bj < g.gn; ++bj)
        for (std::int64_t t = 0; t < g.kt; ++t) {
            const std::int64_t n0 = bj * cfg::bn, k0 = t * cfg::bk;
            const key3 key = tile_key(s.k, s.n, k0, n0, cfg::bk, cfg::bn, 32);
            b_sectors += double(g.gm) * double(memoised(b_memo, key, [&] {
                             return copy_sectors(s.k, s.n, k0, n0, b_copy_row, b_copy_col);
                         }));
        }
    for (std::int64_t bi = 0; bi < g.gm; ++bi)
        for (std::int64_t bj = 0; bj < g.gn; ++bj) {
            const std::int64_t m0 = bi * cfg::bm, n0 = bj * cfg::bn;
            const key3 key = tile_key(s.m, s.n, m0, n0, cfg::bm, cfg::bn, 32);
            c_sectors += double(memoised(c_memo, key, [&] {
                std::int64_t n = 0;
                for (int w = 0; w < cfg::threads / 32; ++w)
                    for (int row = 0; row < cfg::wm; ++row) {
                        sectors.clear();
                        for (int l = 0; l < 32; ++l) {
                            const std::int64_t gr = m0 + warp_m0(w) + row;
                            const std::int64_t gc = n0 + warp_n0(w) + 2 * l;
                            if (gr < s.m && gc < s.n) sectors.add((gr * s.n + gc) * bf16, 4);
                        }
                        n += sectors.count();
                    }
                return n;
            }));
        }
    r.refined.l1_global_load_bytes = double(sector) * (a_sectors + b_sectors + c_sectors);
    r.refined.l1_global_store_bytes = double(sector) * c_sectors;
    // L1 misses each sector of the CTA's strips and C tile once (kernels/l2_requests.hpp): what
    // it counts where rows are whole sectors; where they are not (K or N·2 B not a multiple of
    // 32), the sector a K step's last row segment shares with the next step's first hits.
    // Measured at 1000×776×328: 10,755,072 B against 10,734,336
    // (docs/validation/h100-l2-read-path.csv).
    r.refined.l2_requested_bytes =
        double(sector) * kernels::strip_sectors(s, bf16, cfg::bm, cfg::bn);

    set_blockidx_dram(r, s, mc, g, launch,
                      std::to_string(launch.registers) + " registers × 256 threads");

    r.refined.notes.push_back(
        "tensor FLOPs: every warp runs K rounded up to 32 over the padded grid: " +
        g.padded_product());
    r.refined.notes.push_back(guarded_epilogue_note);
    r.refined.notes.push_back(
        "shared loads per warp and K step: " + str(c.step_loads / 8) +
        " wavefronts (12 fragments × four conflict-free 32-bit loads: rows 80 and "
        "272 bytes apart fill all 32 banks); the epilogue's 64-bit reads of the "
        "staged accumulators: 2 per warp row");
    r.refined.notes.push_back(
        "shared stores per warp and K step: " + str(c.step_stores / 8) +
        " wavefronts (A's 16-byte stores into 80-byte rows: 2 per quarter-warp "
        "pass; B's: 1); accumulator stores: " +
        str(c.epilogue_stores / 8) +
        " per warp (8 fragments × four 64-bit stores, 2-way conflicts in 68-float "
        "rows)");
    r.refined.notes.push_back(
        "L1: " + str(a_sectors) + " + " + str(b_sectors) + " + " + str(c_sectors) +
        " sectors of A, B, C: each request's distinct sectors; rows whose byte "
        "offset is 16 mod 32 cost one sector more per segment");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
