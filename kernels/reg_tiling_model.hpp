#pragma once
// Model arithmetic shared by the register- and block-tiling rungs 04–08: the seeds' count of
// loads per output, the L1 sectors of strided warp requests, and the DRAM traffic of CTAs that
// march through K in waves (occupancy: gpu/occupancy.hpp). Host-only C++ (the rung files call it
// from their model functions, the tests call it directly); derivations in
// docs/models/04_thread_tiling.md … 08_blocktiling_2d.md.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/shape.hpp"
#include "dram_writes.hpp"
#include "gpu/sector.hpp"
#include "l2_requests.hpp"
#include "model/rung_model.hpp"
#include "wave_dram.hpp"

namespace tgemm::kernels::reg_tiling {

// ---------------------------------------------------------------------------------------------
// Textbook: element loads per output (seeds 000/001). A thread that computes a tm×tn block of C
// over a dot product of depth k loads each of its tm rows of A once (k·tm elements) and each of
// its tn columns of B once (k·tn elements), and touches its own output once (the read of C for
// β·C). Per output that is k/tn + k/tm + 1.
//
// The seeds' figure (17, 11, 9) is this count for a dot product of depth k = 8 (one BK = 8
// slice) and four results per thread where tiling is used:
//   one result per thread, 1×1:          8/1 + 8/1 + 1 = 17
//   1D tiling, a column of four (4×1):   8/1 + 8/4 + 1 = 11
//   2D tiling, a 2×2 block:              8/2 + 8/2 + 1 = 9
[[nodiscard]] constexpr double loads_per_output(double k, int tm, int tn) {
    return k / tn + k / tm + 1.0;
}

// ---------------------------------------------------------------------------------------------
// L1: the global-load counter adds up the 32-byte sectors each warp request touches, hits and
// misses alike; lanes whose load is predicated off touch nothing. Sectors are gpu/sector.hpp.

// Sectors touched when a rows×cols FP32 matrix is read in warp requests laid out like a tiled
// fetch: rows go in groups of `rows_per_request` consecutive rows (groups start at row 0), and
// columns in tiles of `tile_cols` (tiles start at column 0). Request j (j < stride) of a group
// and tile starting at column c0 reads, in every row of the group, the columns c0 + stride·t + j
// (t = 0, 1, …; those below cols and inside the tile). Examples: one coalesced 32-word row
// piece per request is (1, 32, 1); a warp staging 4 rows × 8 words of A is (4, 8, 1); a thread
// storing its 8 adjacent outputs one at a time is (1, 128, 8) for a 128-column tile. Sectors
// shared by rows of one group count once, as the hardware counts them per request. Rows of a
// request that are not adjacent (two thread rows of an epilogue) are separate requests here,
// which is exact whenever those rows are at least 8 words long.
[[nodiscard]] inline std::int64_t strided_row_sectors(std::int64_t rows, std::int64_t cols,
                                                      std::int64_t tile_cols, std::int64_t stride,
                                                      std::int64_t rows_per_request = 1) {
    const std::int64_t group_rows = rows_per_request;
    std::vector<std::int64_t> touched;
    // Sectors of the requests of the group whose first row is g·group_rows, with n rows.
    const auto group_sectors = [&](std::int64_t g, std::int64_t n) {
        std::int64_t count = 0;
        for (std::int64_t c0 = 0; c0 < cols; c0 += tile_cols) {
            const std::int64_t end = std::min(cols, c0 + tile_cols);
            for (std::int64_t j = 0; j < stride; ++j) {
                touched.clear();
                for (std::int64_t r = g * group_rows; r < g * group_rows + n; ++r)
                    for (std::int64_t c = c0 + j; c < end; c += stride)
                        touched.push_back((r * cols + c) * 4 / sector_bytes);
                std::sort(touched.begin(), touched.end());
                count += std::unique(touched.begin(), touched.end()) - touched.begin();
            }
        }
        return count;
    };
    // A group's starting byte offset modulo 32 repeats every 8 groups (8 rows × 4 B span 32 B
    // at least once), so the full groups are counted through 8 residues, weighted; a last,
    // partial group is counted on its own.
    const std::int64_t full = rows / group_rows;
    std::int64_t total = 0;
    for (std::int64_t q = 0; q < 8 && q < full; ++q)
        total += (full - q + 7) / 8 * group_sectors(q, group_rows);
    if (rows % group_rows != 0) total += group_sectors(full, rows % group_rows);
    return total;
}

// ---------------------------------------------------------------------------------------------
// DRAM reads: the wave model of every tiled rung (kernels/wave_dram.hpp), with CTAs numbered
// blockIdx.x (along N) fastest. A wave starts its sweep where the previous one started, so what
// it could reuse was touched a whole wave's footprint ago: the L2 still holds it only when that
// footprint fits in half the L2 (each of the H100's two partitions caches its own SMs' data); no
// anchor falls near that boundary: at 4096³ every rung 04–08 lies far outside it, at 2048³
// rungs 04 and 05 (27 MB per wave) just outside and 06–08 inside. DRAM writes are
// model::dram_write_bytes, shared by every rung.
//
// Checked against the public ladder's counters in docs/anchors.md (4096³), at 2
// CTAs per SM for both kernels (nvcc 13.0 gives its 2D kernel 96 registers, its 1D kernel 56
// with its device asserts compiled in): 1.22 GB for the 64×64 1D-tiling kernel (measured
// 1.22 GB) and 0.41 GB for the 128×128 2D-tiling kernel (measured 0.43 GB).

// The shared model's answer with the wave size it was given.
struct wave_dram : wave_reads {
    std::int64_t ctas_per_wave = 0;
    [[nodiscard]] double read_bytes() const { return total(); }
};

// The CTAs per wave of a launch: SMs × resident CTAs per SM.
[[nodiscard]] inline std::int64_t ctas_per_wave(int ctas_per_sm, const model_context& mc) {
    return std::max<std::int64_t>(1, std::int64_t(mc.sm_count) * ctas_per_sm);
}

// The waves of an M×N grid of bm × bn tiles in launch order (wave_dram.hpp, launch_order_waves).
[[nodiscard]] inline std::vector<wave> tile_waves(const shape& s, std::int64_t bm, std::int64_t bn,
                                                  std::int64_t per_wave,
                                                  bool last_wave_full = false) {
    return launch_order_waves((s.m + bm - 1) / bm, (s.n + bn - 1) / bn, per_wave, last_wave_full);
}

// The shared wave model (kernels/wave_dram.hpp) for FP32 operands in launch order.
[[nodiscard]] inline wave_dram estimate_wave_dram(const shape& s, std::int64_t bm, std::int64_t bn,
                                                  int ctas_per_sm, const model_context& mc,
                                                  int concurrent_waves = 1, int b_walks = 1) {
    wave_dram d;
    d.ctas_per_wave = ctas_per_wave(ctas_per_sm, mc);
    static_cast<wave_reads&>(d) =
        wave_dram_reads(s, 4, bm, bn, tile_waves(s, bm, bn, d.ctas_per_wave), mc.l2_bytes,
                        mc.l2_retention, concurrent_waves, b_walks, mc.sm_count);
    return d;
}

// DRAM reads when the CTAs that share an SM drift apart (rungs 03, 05 and 06). At the launch
// every SM takes its CTAs together, but they do not share it evenly (traced: the first ends at
// 0.51–0.82 of the last; why is not derived, docs/models/dram-waves.md "The schedule seen
// directly") and do not finish together; each freed slot takes the next CTA in dispatch order at
// its own time. What stays in step is one CTA per SM: the CTAs
// that hold the same slot on every SM run the same code on identical SMs, start together and
// finish together. So a group of sm_count consecutive CTA ids (in dispatch order, blockIdx.x
// fastest) crosses K together and reads each strip it touches from DRAM once, while two groups
// that run at once are at unrelated points of K: they share a strip only through the L2 (as far
// as the L2's measured retention says for what lies between, wave_dram.hpp). This is the wave
// model with waves of one CTA per SM.
//
// Seen directly (CapacityEdge.CtasSharingAnSmInStepOrDrifting, docs/models/dram-waves.md "The
// schedule seen directly"): the first of smem_tiling's two CTAs on an SM ends at 0.67–0.74 of
// the second's end, outer_product's first of five at 0.51–0.71 and smem_register's first of four
// at 0.73–0.82, and a wave's CTAs start 0.5–0.8 of a lifetime apart from then on (smem_register
// 0.25–0.68); thread_tiling's five end together (0.82–1.00) and its waves stay in step, so it
// is not one of these rungs (04_thread_tiling.cu). At 4096³ on the H100 (B passes =
// (measured read − A − C) / |B|) outer_product reads B 30 times, groups of 132 give 32;
// smem_tiling 124, groups give 125.
// Between a group's use of a strip and the next group's, the partition also touches the strips
// of the other groups running at once (`ctas_per_sm` in all), at their own points of K: the read
// band's high end counts them (wave_dram.hpp, `concurrent_waves`), where the value, on the
// measured retention curve, counts the group's own. Near the edge's start that decides: H200
// smem_tiling at 1536×1536×4096 touches 0.86 × half the L2 per group and 0.93 × with the group
// beside it, and reads 70.2 MB where the value is 61.9 MB; at the shipped shapes where the high
// end adds a band (thread_tiling and outer_product at 2048³ and 8192×768×2048) the measurements
// lie within 8 % of the value.
//
// The writes: a tile's lines leave L2 within the kernel when its partition touches more than half
// the L2 after the tile is stored (wave_dram.cpp). With the groups as sequential waves, a group's
// tiles have behind them every later group's strips (the value: the groups have drifted apart).
// But the groups of one resident wave (`ctas_per_sm` of them) start together, and as long as they
// have not drifted apart they finish together too: then only the strips of the CTAs dispatched
// after that wave come after its tiles, the rule of the rungs whose CTAs stay in step (the low
// end). Which of the two a rung is near, the model does not derive: where the whole grid is
// resident (1536×1536×4096: 576 CTAs in 660 slots) thread_tiling writes 0.03 MB (H100) and 0.07 MB
// (H200) of its 9.4 MB of C within the kernel, at the low end, and outer_product, with the same
// grid, registers and occupancy, 6.2 and 4.4 MB, near the value (8.7 and 6.5 MB). At the end of
// the launch the same holds from the other side: the CTAs still running when the last one is
// dispatched are the last `ctas_per_sm` × SMs dispatched, which finish together whatever their
// drift, so the resident waves counted back from the last CTA are a low end too (H100
// smem_register at 8192×768×2048: 17.0 MB written where the value is 18.9 MB and the waves from
// the first CTA give 17.3 MB; from the last, 16.5 MB).
[[nodiscard]] inline wave_dram estimate_drifting_dram(const shape& s, std::int64_t bm,
                                                      std::int64_t bn, int ctas_per_sm,
                                                      const model_context& mc) {
    auto d = estimate_wave_dram(s, bm, bn, 1, mc, ctas_per_sm);
    if (ctas_per_sm > 1) {
        // Only the writes of the resident waves, counted from the first CTA and from the last
        // (each one's low end lies at or under its value).
        const auto low_end = [&](bool from_the_last) {
            return wave_dram_writes(
                       s, 4, bm, bn,
                       tile_waves(s, bm, bn, ctas_per_wave(ctas_per_sm, mc), from_the_last),
                       mc.l2_bytes)
                .low;
        };
        const double low = std::min(low_end(false), low_end(true));
        d.c_written_low_together = low < d.c_written_low;
        d.c_written_low = std::min(d.c_written_low, low);
    }
    return d;
}

}  // namespace tgemm::kernels::reg_tiling
