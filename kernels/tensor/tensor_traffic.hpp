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
#include "dram_writes.hpp"
#include "model/rung_model.hpp"
#include "tile_model.hpp"
#include "wave_dram.hpp"

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

using tile_model::ldgsts_units;

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
//     sectors the valid bytes span, plus the zero fill of the part outside the matrix in whole
//     sectors (the whole box row when all of it lies outside);
//   requested from L2 (lrc__request_sectors_op_read_coalescable): every sector the whole box row
//     spans at the address it would have, inside the matrix or not (the tool's own count at
//     1000×776×328 and 3000×1992×1000 on the H100, docs/models/13_17_tensor.md);
//   stored (l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st): the sectors of the valid
//     bytes (the store is clipped).
// Inferred from Nsight Compute on the H100 at 1000×776×328 and 3000×1992×1000
// (docs/models/13_17_tensor.md).
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
// DRAM reads, wave by wave: the shared model of every tiled rung (kernels/wave_dram.hpp), for
// 16-bit operands.
using kernels::launch_order_waves;
using kernels::strip_pair;
using kernels::wave;
using kernels::wave_reads;
[[nodiscard]] wave_reads dram_reads(const shape& s, int strip_rows, int strip_cols,
                                    const std::vector<wave>& waves, const model_context& mc);

// C written back during the kernel: all of it once A, B and C exceed half the L2, else none (C
// stays dirty in L2 past the kernel's end); model::dram_write_bytes for bf16.
[[nodiscard]] double dram_write_bytes(const shape& s, std::int64_t l2_bytes);

// The compulsory reads: A, B and C once.
[[nodiscard]] double compulsory_read_bytes(const shape& s);

}  // namespace tgemm::kernels::tensor_model
