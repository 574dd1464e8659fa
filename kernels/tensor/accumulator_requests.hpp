#pragma once
// The global traffic of an epilogue that reads and writes C straight from the accumulators of
// mma.sync or wgmma (accumulator_layout.hpp): the refined models of rungs 14, 15 and 16 count it
// alike, so it is counted here once. Host-only C++; docs/models/13_17_tensor.md.
#include <cstdint>

#include "core/shape.hpp"
#include "tensor/accumulator_layout.hpp"
#include "tensor/tensor_traffic.hpp"

namespace tgemm::kernels::tensor_model {

// L1 and L2 sectors of one CTA tile's epilogue reads of C (its writes are the same requests).
struct c_sectors {
    std::int64_t l1 = 0;  // each warp request's distinct sectors
    std::int64_t l2 = 0;  // the tile's distinct sectors: a sector two requests share is missed once
};

// Each group of 4 adjacent 16×8 accumulator blocks (16 rows × 32 columns, acc_store.cuh) is read
// and written in two warp requests, one per half of its rows: 8 rows × 64 bytes, each lane 16 of
// them. A row 64-byte aligned in C (N a multiple of 32) is two whole sectors; otherwise its 64
// bytes touch three sectors, the outer two shared with the neighbouring groups' requests.
class accumulator_requests {
  public:
    explicit accumulator_requests(const shape& s) : m_shape(s) {}
    // The two requests of the 16×32 group whose first element is (row0, col0) of C; blocks
    // outside the matrix are guarded off.
    void add_group(std::int64_t row0, std::int64_t col0);
    [[nodiscard]] c_sectors totals();

  private:
    shape m_shape;
    sector_set m_request;
    sector_set m_tile;
    std::int64_t m_l1 = 0;
};

}  // namespace tgemm::kernels::tensor_model
