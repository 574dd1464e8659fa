#pragma once
// Helpers shared by the rung files: launch checks and the sector arithmetic of the refined
// models.
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/sector.hpp"
#include "model/rung_model.hpp"

namespace tgemm::kernels {

// 32-byte sectors touched by `bytes` contiguous bytes starting at byte `offset`.
[[nodiscard]] inline std::int64_t sectors_spanned(std::int64_t offset, std::int64_t bytes) {
    if (bytes <= 0) return 0;
    return (offset + bytes - 1) / sector_bytes - offset / sector_bytes + 1;
}

// Sectors a row-major m×n FP32 matrix costs when every row is cut into segments of `seg`
// columns (one warp request each) and each segment is read contiguously: the exact count for
// any n, including rows that start off a sector boundary.
[[nodiscard]] std::int64_t row_segment_sectors(std::int64_t rows, std::int64_t cols,
                                               std::int64_t seg);

// The refined L1 and store predictions shared by every kernel that writes C once per element
// in `seg`-wide coalesced row segments and reads C once the same way (β ≠ 0).
void add_epilogue_traffic(refined_model& r, const shape& s, std::int64_t seg);

// Why a grid with one CTA row per `tile_m` rows of C cannot launch: gridDim.y holds at most
// 65535. Nothing when it fits. Every rung that maps M to blockIdx.y checks this in can_run.
[[nodiscard]] std::optional<std::string> grid_rows_exceeded(const shape& s, std::int64_t tile_m);

}  // namespace tgemm::kernels
