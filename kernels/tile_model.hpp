#pragma once
// Counting helpers for the refined models of the tiled rungs (09–12): shared-memory wavefronts
// of one warp instruction, L1 sectors of row-segment loads, and DRAM re-reads per wave of
// resident CTAs (occupancy: gpu/occupancy.hpp). Host-only C++; the rung files call these from their
// model functions.
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "core/shape.hpp"
#include "gpu/sector.hpp"
#include "model/rung_model.hpp"

namespace tgemm::kernels::tile_model {

// ---------------------------------------------------------------------------------------------
// Shared memory: 32 banks of 4 bytes; one wavefront moves at most one distinct word per bank.
//
// How a warp instruction is split into passes before bank conflicts are counted (each pass is
// at least one wavefront, and within a pass a bank serves its distinct words one per wavefront):
//   32-bit: one pass of 32 lanes.
//   128-bit load: the return path carries one register per lane per cycle, so 4 passes of 8
//     lanes; when every lane n reads the same address as lane n^1 (or every lane n as lane n^2)
//     the hardware packs two lanes per slot and needs 2 passes of 16 lanes.
//   128-bit store: 4 passes of 8 lanes.
// The packing rule is NVIDIA's description for compute capability 7.x (NVIDIA developer forum,
// "Unexpected shared memory bank conflict", 2019); the counts it gives match Nsight Compute on
// the H100 for the public SGEMM ladder in docs/anchors.md (0.67 G wavefronts for the
// vectorized 128×128×8 kernel, 0.34 G for the 128×128×16 warptiling kernel).
enum class smem_op { load, store };

inline constexpr std::int64_t inactive = -1;
using lane_addresses = std::array<std::int64_t, 32>;  // byte address per lane, or inactive

[[nodiscard]] inline int pass_wavefronts(const lane_addresses& addr, int width, int first,
                                         int count) {
    std::array<std::set<std::int64_t>, 32> words;
    bool any = false;
    for (int l = first; l < first + count; ++l) {
        if (addr[l] == inactive) continue;
        any = true;
        for (int b = 0; b < width; b += 4) {
            const std::int64_t word = (addr[l] + b) / 4;
            words[word % 32].insert(word);
        }
    }
    if (!any) return 0;
    std::size_t most = 1;
    for (const auto& w : words) most = std::max(most, w.size());
    return static_cast<int>(most);
}

[[nodiscard]] inline bool lanes_pair_up(const lane_addresses& addr, int partner_bit) {
    for (int l = 0; l < 32; ++l)
        if (addr[l] != addr[l ^ partner_bit]) return false;
    return true;
}

// Wavefronts of one warp-wide shared-memory instruction of `width` bytes (4 or 16) per lane.
[[nodiscard]] inline int warp_wavefronts(const lane_addresses& addr, int width, smem_op op) {
    int lanes_per_pass = 32;
    if (width == 16) {
        const bool packed =
            op == smem_op::load && (lanes_pair_up(addr, 1) || lanes_pair_up(addr, 2));
        lanes_per_pass = packed ? 16 : 8;
    }
    int total = 0;
    for (int first = 0; first < 32; first += lanes_per_pass)
        total += pass_wavefronts(addr, width, first, lanes_per_pass);
    return total;
}

// Fills a warp's addresses from f(lane) and counts its wavefronts.
template <class AddressOfLane>
[[nodiscard]] int warp_wavefronts(int width, smem_op op, AddressOfLane f) {
    lane_addresses addr{};
    for (int l = 0; l < 32; ++l) addr[l] = f(l);
    return warp_wavefronts(addr, width, op);
}

// ---------------------------------------------------------------------------------------------
// Global memory: L1 counts the 32-byte sectors (gpu/sector.hpp) each warp request touches.

// Sectors requested when every row of a rows×cols FP32 matrix is read in warp requests that each
// cover one `seg`-column segment of a row (segments start at column 0, seg, 2·seg, …), and lane
// t of a request touches columns c0 + lane_stride·t + offset + v for v < vec, t < lanes, only
// those below cols (guarded lanes issue nothing). A request that spans several rows costs the
// sum of its rows: rows at least 32 bytes long never share a sector.
[[nodiscard]] inline std::int64_t strided_sectors(std::int64_t rows, std::int64_t cols,
                                                  std::int64_t seg, int lanes, int lane_stride,
                                                  int vec, int offset) {
    // A row's byte offset modulo 32 repeats every 8 rows.
    std::int64_t total = 0;
    std::vector<std::int64_t> touched;
    for (std::int64_t r = 0; r < 8 && r < rows; ++r) {
        const std::int64_t weight = (rows - r + 7) / 8;
        const std::int64_t base = (r * cols * 4) % sector_bytes;
        std::int64_t row_sectors = 0;
        for (std::int64_t c0 = 0; c0 < cols; c0 += seg) {
            touched.clear();
            for (int t = 0; t < lanes; ++t)
                for (int v = 0; v < vec; ++v) {
                    const std::int64_t col = c0 + std::int64_t(lane_stride) * t + offset + v;
                    if (col < cols) touched.push_back((base + 4 * col) / sector_bytes);
                }
            std::sort(touched.begin(), touched.end());
            row_sectors += std::unique(touched.begin(), touched.end()) - touched.begin();
        }
        total += weight * row_sectors;
    }
    return total;
}

// Sectors of a tile read by lanes that each own `width` consecutive columns (`lane_stride`
// apart), moved as float4 when `vec` (the aligned path) or word by word otherwise.
[[nodiscard]] inline double owned_columns_sectors(bool vec, std::int64_t rows, std::int64_t cols,
                                                  std::int64_t seg, int lanes, int lane_stride,
                                                  int width) {
    const int step = vec ? 4 : 1;
    std::int64_t sectors = 0;
    for (int o = 0; o < width; o += step)
        sectors += strided_sectors(rows, cols, seg, lanes, lane_stride, step, o);
    return double(sectors);
}

// ---------------------------------------------------------------------------------------------
// Textbook global traffic of a BM×BN block-tiled kernel (seed 003's block tiling with a
// rectangular tile): A is re-read once per column of tiles (N/BN times), B once per row of tiles
// (M/BM times), C read and written once.
[[nodiscard]] inline double block_tiled_bytes(const shape& s, int bm, int bn) {
    const double mnk = double(s.m) * double(s.n) * double(s.k);
    return (mnk / bn + mnk / bm + 2.0 * double(s.m) * double(s.n)) * 4.0;
}

// Executed FP32 operations of a kernel whose every thread of the padded grid runs the inner loop
// over K rounded up to BK (zero-filled edge tiles) and whose guarded epilogue does one FMUL and
// one FFMA per real output.
[[nodiscard]] inline double padded_flops(const shape& s, int bm, int bn, int bk) {
    const auto up = [](std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; };
    return 2.0 * double(up(s.m, bm)) * double(up(s.n, bn)) * double(up(s.k, bk)) +
           3.0 * double(s.m) * double(s.n);
}

// cp.async.cg of 16 bytes (LDGSTS.E.BYPASS.128) as the L1 counter sees it: one 32-byte unit per
// distinct pair (128-byte line of the source, 32-byte granule of the shared-memory destination)
// among a request's lanes (measured on the H100 for rung 12, docs/models/12_sm90_fp32.md). With
// a source grain of 32 bytes, what the copies ask of L2: one sector request per distinct (source
// sector, destination granule) (docs/models/l2.md, "What the SMs read from L2").
class ldgsts_units {
  public:
    explicit ldgsts_units(std::int64_t source_grain = 128) : m_grain(source_grain) {}
    void add(std::int64_t source, std::int64_t destination) {
        m_pairs.push_back({source / m_grain, destination / sector_bytes});
    }
    [[nodiscard]] std::int64_t count() {
        std::sort(m_pairs.begin(), m_pairs.end());
        m_pairs.erase(std::unique(m_pairs.begin(), m_pairs.end()), m_pairs.end());
        return static_cast<std::int64_t>(m_pairs.size());
    }
    void clear() { m_pairs.clear(); }

  private:
    std::int64_t m_grain;
    std::vector<std::array<std::int64_t, 2>> m_pairs;
};

}  // namespace tgemm::kernels::tile_model
