#pragma once
// Counting rules shared by the refined models of the BF16 tensor-core rungs
// (tensor_*_model.cpp): sectors of global requests, cp.async and TMA
// traffic, shared-memory wavefronts of 8-byte accesses and ldmatrix/stmatrix, and the DRAM wave
// model with any tile order. Host-only C++; the rules and their evidence are in
// docs/models/13_17_tensor.md.
#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "core/shape.hpp"
#include "tile_model.hpp"

namespace tgemm::kernels::tensor_model {

inline constexpr std::int64_t sector = 32;
inline constexpr std::int64_t bf16 = 2;  // bytes per element of A, B and C

// ---------------------------------------------------------------------------------------------
// Global memory through L1: a warp request costs the distinct 32-byte sectors its active lanes
// touch.
class sector_set {
  public:
    void add(std::int64_t address, std::int64_t bytes);
    // Distinct sectors added since the last clear.
    [[nodiscard]] std::int64_t count();
    void clear() { m_sectors.clear(); }

  private:
    std::vector<std::int64_t> m_sectors;
};

// cp.async.cg of 16 bytes (LDGSTS.E.BYPASS.128) as the L1 counter sees it: one 32-byte unit per
// distinct pair (128-byte line of the source, 32-byte granule of the shared-memory destination)
// among a request's lanes (measured on the H100 for rung 12, docs/models/12_sm90_fp32.md).
class ldgsts_units {
  public:
    void add(std::int64_t source, std::int64_t destination);
    [[nodiscard]] std::int64_t count();
    void clear() { m_pairs.clear(); }

  private:
    std::vector<std::array<std::int64_t, 2>> m_pairs;
};

// ---------------------------------------------------------------------------------------------
// Shared memory.
using tile_model::inactive;
using tile_model::lane_addresses;
using tile_model::smem_op;

// Wavefronts of one warp instruction moving `width` bytes per lane (4, 8 or 16). 4 and 16 follow
// tile_model::warp_wavefronts; an 8-byte access runs as two half-warp passes of 16 lanes (256
// bytes need two 128-byte wavefronts at least).
[[nodiscard]] int smem_wavefronts(const lane_addresses& addr, int width, smem_op op);

// ldmatrix/stmatrix .x4: lanes 8i..8i+7 give the 16-byte row addresses of matrix i, and each
// matrix is one pass through the banks.
[[nodiscard]] int matrix_x4_wavefronts(const lane_addresses& addr);

// ---------------------------------------------------------------------------------------------
// TMA (cp.async.bulk.tensor) boxes of a row-major bf16 matrix with the 128-byte swizzle. Per box
// row, with `valid` the bytes of the row inside the matrix:
//   delivered to the SM (l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld): the 32-byte
//     sectors the valid bytes span, plus the whole box row (its zero fill) when any of it lies
//     outside the matrix;
//   requested from L2 (lrc__request_sectors_op_read_coalescable): the sectors of the valid bytes;
//   stored (l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st): the sectors of the valid
//     bytes (the store is clipped).
// Inferred from Nsight Compute on the H100 at 1000×776×328 (docs/models/13_17_tensor.md).
struct tma_traffic {
    std::int64_t delivered = 0;
    std::int64_t requested_sectors = 0;
    std::int64_t stored = 0;
    tma_traffic& operator+=(const tma_traffic& o);
};
[[nodiscard]] tma_traffic operator*(std::int64_t times, const tma_traffic& t);

class tma_matrix {
  public:
    tma_matrix(std::int64_t rows, std::int64_t cols) : m_rows(rows), m_cols(cols) {}
    // The box of box_rows × box_cols elements whose first element is (row0, col0).
    [[nodiscard]] tma_traffic box(std::int64_t row0, std::int64_t col0, int box_rows, int box_cols);

  private:
    std::int64_t m_rows;
    std::int64_t m_cols;
    // A box's traffic depends only on how much of it is inside and on the phase of its first
    // byte within a 32-byte sector: memoised by (valid rows, valid columns, box shape, phase).
    std::map<std::array<std::int64_t, 5>, tma_traffic> m_memo;
};

// ---------------------------------------------------------------------------------------------
// DRAM reads, wave by wave. A wave is the set of CTA tiles resident together; each tile streams
// one strip of A (strip_rows rows, all of K) and one of B (strip_cols columns, all of K). Within
// a wave a strip that several tiles share comes from DRAM once. When A and B together fit in half
// the L2 (each of the H100's two L2 partitions caches its own SMs' data) they survive from wave
// to wave and are read once; otherwise each wave re-reads every strip it touches. C (β ≠ 0) is
// read once. The FP32 rungs' tile_model::dram_reads, for any tile order and bf16.
struct strip_pair {
    std::int64_t a_strip = 0;  // row block of A
    std::int64_t b_strip = 0;  // column block of B
};
using wave = std::vector<strip_pair>;

struct wave_reads {
    double a_bytes = 0;
    double b_bytes = 0;
    double c_bytes = 0;
    std::int64_t waves = 0;
    bool fits_l2 = false;
    // The most bytes of distinct A and B strips one wave touches (0 when A and B fit): above
    // half the L2, CTAs share a strip only while they stay within the L2's reach of each other
    // along K, so the per-wave count is a lower bound (tensor_models.cpp, add_dram_notes).
    double max_wave_strip_bytes = 0;
    // The reads if no two CTAs of a wave shared a strip through L2 (every tile streams its own
    // strips of A and B; C once): the most a wave schedule can read.
    double unshared_bytes = 0;
    [[nodiscard]] double total() const { return a_bytes + b_bytes + c_bytes; }
};

[[nodiscard]] wave_reads dram_reads(const shape& s, int strip_rows, int strip_cols,
                                    const std::vector<wave>& waves, std::int64_t l2_bytes);

// The waves of a launch of gm × gn CTAs in blockIdx order (x along N fastest), `per_wave` at a
// time.
[[nodiscard]] std::vector<wave> launch_order_waves(std::int64_t gm, std::int64_t gn,
                                                   std::int64_t per_wave);

// C written back during the kernel: all of it once A, B and C exceed half the L2, else none (C
// stays dirty in L2 past the kernel's end); model::dram_write_bytes for bf16.
[[nodiscard]] double dram_write_bytes(const shape& s, std::int64_t l2_bytes);

// The compulsory reads: A, B and C once.
[[nodiscard]] double compulsory_read_bytes(const shape& s);

}  // namespace tgemm::kernels::tensor_model
