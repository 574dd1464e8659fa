// Refined models of the non-persistent tensor-core rungs: 13 bf16_wmma (WMMA, LSU copies), 14
// bf16_mma (mma.sync + ldmatrix, cp.async), 15 bf16_wgmma (wgmma + TMA), and cuBLAS BF16's
// compulsory traffic. Every count replays the kernel's own addresses (the functions of
// bf16_*_config.hpp where the kernel has them, its index arithmetic restated where it has
// not); docs/models/13_17_tensor.md derives each one by hand.
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "tensor/tensor_models.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/tensor_traffic.hpp"
#include "tile_model.hpp"

namespace tgemm::kernels::tensor_model {
namespace {

using key3 = std::array<std::int64_t, 3>;
using memo3 = std::map<key3, std::int64_t>;

template <class F>
std::int64_t memoised(memo3& memo, const key3& key, F f) {
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    const std::int64_t v = f();
    memo.emplace(key, v);
    return v;
}

std::int64_t ceil_div(std::int64_t x, std::int64_t d) {
    return (x + d - 1) / d;
}

std::string str(double v) {
    return std::to_string(static_cast<long long>(v));
}

// (MNK/BN + MNK/BM)·2 B for A and B, C read and written once; shared-memory operand bytes of
// warp (or warpgroup) tiles wm × wn: MNK·(1/wn + 1/wm)·2 B.
tensor_textbook textbook(const shape& s, int bm, int bn, int wm, int wn, const std::string& what) {
    tensor_textbook t;
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    const double mn = double(s.m) * double(s.n);
    t.flops = 2.0 * mnk + 2.0 * mn;
    t.global_bytes = (mnk / bn + mnk / bm) * bf16 + 2.0 * mn * bf16;
    t.smem_bytes = mnk * (1.0 / wn + 1.0 / wm) * bf16;
    t.formula = "(MNK/" + std::to_string(bn) + " + MNK/" + std::to_string(bm) +
                ")·2 B + 2·MN·2 B; shared MNK·(1/" + std::to_string(wn) + " + 1/" +
                std::to_string(wm) + ")·2 B (" + what + ")";
    return t;
}

void set_dram(tensor_counts& r, const shape& s, const wave_reads& w, std::int64_t l2_bytes,
              const std::string& residency) {
    r.dram_read_bytes = w.total();
    r.dram_write_bytes = dram_write_bytes(s, l2_bytes);
    r.notes.push_back("DRAM: " + residency + "; " + std::to_string(w.waves) + " waves; " +
                      (w.fits_l2 || w.waves <= 1
                           ? "A and B read once (they fit in half the L2 or one wave holds all)"
                           : "each wave re-reads the strips of A and B it touches (A + B exceed "
                             "half the L2)") +
                      "; C read once (β ≠ 0)");
    r.notes.push_back(
        "DRAM writes: C once when A, B and C exceed half the L2, else none (C stays dirty in L2 "
        "past the kernel's end); measured writes also carry earlier work's dirty lines, and miss "
        "what the last wave leaves dirty in L2");
}

// ---------------------------------------------------------------------------------------------
// Rung 13: WMMA. 8 warps in 4×2, warp tile 32×64, one stage, accumulators staged in shared
// memory for the epilogue.
namespace wmma_model {

using cfg = tensor_rungs::wmma;
// ptxas (nvcc 13.0, sm_90a) allocates 126 registers: 2 CTAs of 256 threads per SM.
constexpr int registers = 126;
static_assert(cfg::wm == 32 && cfg::wn == 64 && cfg::threads == 256,
              "the fragment loops below assume 2×4 fragments per warp");

int warp_m0(int warp) {
    return (warp / 2) * cfg::wm;
}
int warp_n0(int warp) {
    return (warp % 2) * cfg::wn;
}

// The copy of one K step: thread idx of the 512 per operand moves 16 bytes; A as 128 rows × 4
// chunks, B as 32 rows × 16 chunks.
int a_copy_row(int idx) {
    return idx / 4;
}
int a_copy_col(int idx) {
    return idx % 4 * 8;
}
int b_copy_row(int idx) {
    return idx / 16;
}
int b_copy_col(int idx) {
    return idx % 16 * 8;
}

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

}  // namespace wmma_model

}  // namespace

tensor_counts model_bf16_wmma(const shape& s, const tensor_model_context& mc) {
    using namespace wmma_model;
    tensor_counts r;
    r.textbook = textbook(s, cfg::bm, cfg::bn, cfg::wm, cfg::wn, "warp tile 32×64");
    const std::int64_t gm = ceil_div(s.m, cfg::bm), gn = ceil_div(s.n, cfg::bn);
    const std::int64_t kt = ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.tensor_flops = 2.0 * double(gm * cfg::bm) * double(gn * cfg::bn) * double(kt * cfg::bk);
    r.ffma = r.fmul = double(s.m) * double(s.n);
    r.fadd = 0;
    r.ldsm_wavefronts = r.stsm_wavefronts = r.ldsm_bank_conflicts = 0;

    // Shared memory: copies and fragment loads every K step, zero-filled or not; accumulator
    // stores once per CTA; the guarded epilogue's loads per CTA.
    const smem_counts c = smem_per_cta();
    memo3 memo;
    double epi_loads = 0;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t bj = 0; bj < gn; ++bj) {
            const std::int64_t vr = std::min<std::int64_t>(cfg::bm, s.m - bi * cfg::bm);
            const std::int64_t vc = std::min<std::int64_t>(cfg::bn, s.n - bj * cfg::bn);
            epi_loads +=
                double(memoised(memo, {vr, vc, 0}, [&] { return epilogue_loads(vr, vc); }));
        }
    r.smem_load_wavefronts = ctas * double(kt) * c.step_loads + epi_loads;
    r.smem_store_wavefronts = ctas * double(kt) * c.step_stores + ctas * c.epilogue_stores;

    // Global loads through L1: the guarded 16-byte copies (skipped lanes read nothing) and the
    // epilogue's 4-byte reads of C, one warp request per row; the same sectors are stored.
    sector_set sectors;
    memo3 a_memo, b_memo, c_memo;
    double a_sectors = 0, b_sectors = 0, c_sectors = 0;
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t t = 0; t < kt; ++t) {
            const std::int64_t m0 = bi * cfg::bm, k0 = t * cfg::bk;
            const key3 key{std::min<std::int64_t>(cfg::bm, s.m - m0),
                           std::min<std::int64_t>(cfg::bk, s.k - k0), (m0 * s.k + k0) * bf16 % 32};
            a_sectors += double(gn) * double(memoised(a_memo, key, [&] {
                             std::int64_t n = 0;
                             for (int w = 0; w < cfg::threads / 32; ++w)
                                 for (int i = 0; i < 2; ++i) {
                                     sectors.clear();
                                     for (int l = 0; l < 32; ++l) {
                                         const int idx = 32 * w + l + i * cfg::threads;
                                         const std::int64_t row = m0 + a_copy_row(idx);
                                         const std::int64_t col = k0 + a_copy_col(idx);
                                         if (row < s.m && col < s.k)
                                             sectors.add((row * s.k + col) * bf16, 16);
                                     }
                                     n += sectors.count();
                                 }
                             return n;
                         }));
        }
    for (std::int64_t bj = 0; bj < gn; ++bj)
        for (std::int64_t t = 0; t < kt; ++t) {
            const std::int64_t n0 = bj * cfg::bn, k0 = t * cfg::bk;
            const key3 key{std::min<std::int64_t>(cfg::bk, s.k - k0),
                           std::min<std::int64_t>(cfg::bn, s.n - n0), (k0 * s.n + n0) * bf16 % 32};
            b_sectors += double(gm) * double(memoised(b_memo, key, [&] {
                             std::int64_t n = 0;
                             for (int w = 0; w < cfg::threads / 32; ++w)
                                 for (int i = 0; i < 2; ++i) {
                                     sectors.clear();
                                     for (int l = 0; l < 32; ++l) {
                                         const int idx = 32 * w + l + i * cfg::threads;
                                         const std::int64_t row = k0 + b_copy_row(idx);
                                         const std::int64_t col = n0 + b_copy_col(idx);
                                         if (row < s.k && col < s.n)
                                             sectors.add((row * s.n + col) * bf16, 16);
                                     }
                                     n += sectors.count();
                                 }
                             return n;
                         }));
        }
    for (std::int64_t bi = 0; bi < gm; ++bi)
        for (std::int64_t bj = 0; bj < gn; ++bj) {
            const std::int64_t m0 = bi * cfg::bm, n0 = bj * cfg::bn;
            const key3 key{std::min<std::int64_t>(cfg::bm, s.m - m0),
                           std::min<std::int64_t>(cfg::bn, s.n - n0), (m0 * s.n + n0) * bf16 % 32};
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
    r.l1_global_load_bytes = double(sector) * (a_sectors + b_sectors + c_sectors);
    r.l1_global_store_bytes = double(sector) * c_sectors;
    // Every request misses L1 (no CTA reads a sector twice): L2 sees what L1 counts, unless two
    // CTAs of one SM share a strip in time.
    r.l2_requested_bytes = r.l1_global_load_bytes;

    const int per_sm = tile_model::ctas_per_sm(cfg::threads, registers, cfg::smem_bytes);
    const auto w =
        dram_reads(s, cfg::bm, cfg::bn,
                   launch_order_waves(gm, gn, std::int64_t(per_sm) * mc.sm_count), mc.l2_bytes);
    set_dram(r, s, w, mc.l2_bytes,
             std::to_string(per_sm) + " CTAs per SM (" + std::to_string(registers) +
                 " registers × 256 threads), CTAs start in blockIdx order");

    r.notes.push_back("tensor FLOPs: every warp runs K rounded up to 32 over the padded grid: 2·" +
                      std::to_string(gm * cfg::bm) + "·" + std::to_string(gn * cfg::bn) + "·" +
                      std::to_string(kt * cfg::bk));
    r.notes.push_back("FP32: the guarded epilogue does one FMUL and one FFMA per output of C");
    r.notes.push_back("shared loads per warp and K step: " + str(c.step_loads / 8) +
                      " wavefronts (12 fragments × four conflict-free 32-bit loads: rows 80 and "
                      "272 bytes apart fill all 32 banks); the epilogue's 64-bit reads of the "
                      "staged accumulators: 2 per warp row");
    r.notes.push_back("shared stores per warp and K step: " + str(c.step_stores / 8) +
                      " wavefronts (A's 16-byte stores into 80-byte rows: 2 per quarter-warp "
                      "pass; B's: 1); accumulator stores: " +
                      str(c.epilogue_stores / 8) +
                      " per warp (8 fragments × four 64-bit stores, 2-way conflicts in 68-float "
                      "rows)");
    r.notes.push_back("L1: " + str(a_sectors) + " + " + str(b_sectors) + " + " + str(c_sectors) +
                      " sectors of A, B, C: each request's distinct sectors; rows whose byte "
                      "offset is 16 mod 32 cost one sector more per segment");
    return r;
}

// ---------------------------------------------------------------------------------------------
// Rung 14: mma.sync + ldmatrix from swizzled shared memory, cp.async pipeline.
namespace {
namespace mma_model {

using cfg = tensor_rungs::mma;
// ptxas (nvcc 13.0, sm_90a) allocates 242 registers: 2 CTAs of 128 threads per SM.
constexpr int registers = 242;
constexpr int warps = cfg::threads / 32;

int warp_m0(int warp) {
    return (warp / 2) * cfg::wm;
}
int warp_n0(int warp) {
    return (warp % 2) * cfg::wn;
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

}  // namespace mma_model
}  // namespace

tensor_counts model_bf16_mma(const shape& s, const tensor_model_context& mc) {
    using namespace mma_model;
    tensor_counts r;
    r.textbook = textbook(s, cfg::bm, cfg::bn, cfg::wm, cfg::wn, "warp tile 64×64");
    const std::int64_t gm = ceil_div(s.m, cfg::bm), gn = ceil_div(s.n, cfg::bn);
    const std::int64_t kt = ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.tensor_flops = 2.0 * double(gm * cfg::bm) * double(gn * cfg::bn) * double(kt * cfg::bk);
    r.ffma = r.fmul = double(s.m) * double(s.n);
    r.fadd = 0;

    const ldsm_counts l = ldsm_per_tile();
    r.ldsm_wavefronts = ctas * double(kt) * l.wavefronts;
    r.ldsm_bank_conflicts = ctas * double(kt) * (l.wavefronts - 4 * l.instructions);
    r.stsm_wavefronts = 0;
    r.smem_load_wavefronts = r.ldsm_wavefronts;  // no other shared loads
    r.smem_store_wavefronts = 0;                 // cp.async writes are not op_st
    r.ldgsts_bytes = ctas * double(kt) * (cfg::a_stage_bytes + cfg::b_stage_bytes);

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
                                    const std::int64_t col = n0 + warp_n0(w) + 8 * j + 2 * (ln % 4);
                                    const std::int64_t row =
                                        m0 + warp_m0(w) + 16 * i + ln / 4 + 8 * h;
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
    r.l1_global_load_bytes = double(sector) * (a_units + b_units + c_sectors);
    r.l1_global_store_bytes = double(sector) * c_sectors;
    r.l2_requested_bytes = double(sector) * (l2_sectors + c_l2);

    const int per_sm = tile_model::ctas_per_sm(cfg::threads, registers, cfg::smem_bytes);
    const auto w =
        dram_reads(s, cfg::bm, cfg::bn,
                   launch_order_waves(gm, gn, std::int64_t(per_sm) * mc.sm_count), mc.l2_bytes);
    set_dram(r, s, w, mc.l2_bytes,
             std::to_string(per_sm) + " CTAs per SM (" + std::to_string(registers) +
                 " registers × 128 threads), CTAs start in blockIdx order");

    r.notes.push_back("tensor FLOPs: 2·" + std::to_string(gm * cfg::bm) + "·" +
                      std::to_string(gn * cfg::bn) + "·" + std::to_string(kt * cfg::bk) +
                      " (padded grid, K rounded up to 32; zero-filled tiles are multiplied too)");
    r.notes.push_back("FP32: the guarded epilogue does one FMUL and one FFMA per output of C");
    r.notes.push_back("ldmatrix per warp and K tile: " + str(l.instructions / warps) +
                      " .x4 (A and B.trans), " + str(l.wavefronts / warps) +
                      " wavefronts: the XOR swizzles (bf16_mma::a_chunk_offset, b_chunk_offset) "
                      "put each phase's 8 rows in 8 bank groups");
    r.notes.push_back(
        "shared: ldmatrix is the only LSU load (op_ld = ldsm); cp.async writes count "
        "as LDGSTS, not op_st");
    r.notes.push_back(
        "cp.async bytes: every thread copies 16 bytes per copy, zero-filled or "
        "not: CTAs × K tiles × (BM + BN)·BK·2 B");
    r.notes.push_back(
        "L1: cp.async units (distinct 128-byte source line × 32-byte destination "
        "granule per request; the swizzle moves whole 32-byte granules, so units = "
        "sectors when rows are sector-aligned) + C's epilogue reads, 8 sectors per "
        "request of 128 bytes (twice C's size)");
    r.notes.push_back(
        "L2 requests: the copies' distinct source sectors + C's distinct sectors per "
        "CTA (the second half of each sector of C hits in L1)");
    return r;
}

// ---------------------------------------------------------------------------------------------
// Rung 15: one warpgroup, wgmma from TMA-loaded, 128-byte-swizzled stages.
namespace {
namespace wgmma_model {

using cfg = tensor_rungs::wgmma;
// ptxas (nvcc 13.0, sm_90a) allocates 154 registers; the 129 KB of shared memory allow 1 CTA
// per SM.
constexpr int registers = 154;

}  // namespace wgmma_model
}  // namespace

tensor_counts model_bf16_wgmma(const shape& s, const tensor_model_context& mc) {
    using namespace wgmma_model;
    tensor_counts r;
    r.textbook = textbook(s, cfg::bm, cfg::bn, 64, cfg::bn, "wgmma m64n128: B re-read per m64");
    const std::int64_t gm = ceil_div(s.m, cfg::bm), gn = ceil_div(s.n, cfg::bn);
    const std::int64_t kt = ceil_div(s.k, cfg::bk);
    const double ctas = double(gm) * double(gn);
    r.tensor_flops = 2.0 * double(gm * cfg::bm) * double(gn * cfg::bn) * double(kt * cfg::bk);
    r.ffma = r.fmul = double(s.m) * double(s.n);
    r.fadd = 0;
    // Per K tile each of BK/16 k steps issues m_blocks wgmma m64nBNk16, each reading A's 64×16
    // and B's 16×BN from shared memory.
    r.gmma_bytes = ctas * double(kt) * (cfg::bk / 16) * cfg::m_blocks * (64 * 16 + 16 * cfg::bn) *
                   double(bf16);
    r.smem_load_wavefronts = r.smem_store_wavefronts = 0;
    r.ldsm_wavefronts = r.stsm_wavefronts = 0;

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
    r.tma_load_bytes = double(t.delivered);
    r.tma_multicast_bytes = 0;
    r.tma_store_bytes = 0;

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
                                    const std::int64_t col = n0 + 8 * j + 2 * (ln % 4);
                                    const std::int64_t row =
                                        m0 + mb * 64 + warp * 16 + ln / 4 + 8 * h;
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
    r.l1_global_load_bytes = double(sector) * c_sectors;
    r.l1_global_store_bytes = double(sector) * c_sectors;
    r.l2_requested_bytes = double(sector) * (double(t.requested_sectors) + c_l2);

    const int per_sm = tile_model::ctas_per_sm(cfg::threads, registers, cfg::smem_bytes);
    const auto w =
        dram_reads(s, cfg::bm, cfg::bn,
                   launch_order_waves(gm, gn, std::int64_t(per_sm) * mc.sm_count), mc.l2_bytes);
    set_dram(r, s, w, mc.l2_bytes,
             std::to_string(per_sm) + " CTA per SM (" + std::to_string(cfg::smem_bytes / 1024) +
                 " KB of shared memory), CTAs start in blockIdx order");

    r.notes.push_back("tensor FLOPs: 2·" + std::to_string(gm * cfg::bm) + "·" +
                      std::to_string(gn * cfg::bn) + "·" + std::to_string(kt * cfg::bk) +
                      " (padded grid, K rounded up to 64: TMA fills the edges with zeros)");
    r.notes.push_back("FP32: the guarded epilogue does one FMUL and one FFMA per output of C");
    r.notes.push_back(
        "gmma bytes: per CTA and K tile 4 k16 steps × 2 m64 blocks × (64·16 + "
        "16·128)·2 B = 49,152 B; B is read once per m64 block");
    r.notes.push_back(
        "shared: no LSU shared loads or stores (wgmma reads its operands through "
        "the gmma path; mbarrier waits do not count as op_ld)");
    r.notes.push_back(
        "TMA: per box row the 32-byte sectors of its bytes inside the matrix, plus "
        "the whole 128-byte row when any of it is outside (its zero fill)");
    r.notes.push_back("L1: C's epilogue reads and writes only, 8 sectors per request of 128 bytes");
    return r;
}

tensor_counts model_cublas_bf16(const shape& s, const tensor_model_context& mc) {
    tensor_counts r;
    r.textbook.flops =
        2.0 * double(s.m) * double(s.n) * double(s.k) + 2.0 * double(s.m) * double(s.n);
    r.textbook.global_bytes = compulsory_read_bytes(s) + double(bf16) * double(s.m) * double(s.n);
    r.textbook.formula = "(MK + KN + 2MN)·2 B: compulsory";
    r.tensor_flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
    r.dram_read_bytes = compulsory_read_bytes(s);
    r.dram_write_bytes = dram_write_bytes(s, mc.l2_bytes);
    r.notes.push_back(
        "cuBLAS picks its own kernel per shape; only its compulsory traffic is "
        "modelled: A, B and C read once, C written once when the footprint exceeds "
        "half the L2; tensor FLOPs 2MNK (exact where its tiles divide the shape)");
    if (compulsory_read_bytes(s) > 0.5 * double(mc.l2_bytes))
        r.notes.push_back(
            "DRAM: A and B exceed half the L2; cuBLAS re-reads strips of them as "
            "its tiling requires, which is not modelled");
    return r;
}

}  // namespace tgemm::kernels::tensor_model
