#pragma once
// The can_run fields (rung.hpp) that several rungs share, each named after the limit its kernels
// have; a rung with a limit of its own writes its own lambda and may call these checks.
#include <cstdint>
#include <optional>
#include <string>

#include "core/shape.hpp"
#include "rung.hpp"

namespace tgemm::kernels {

// Why a kernel that indexes with int cannot take `s`: a dimension above 2^31 - 1. Nothing when
// all fit.
[[nodiscard]] std::optional<std::string> int_indices_exceeded(const shape& s);

// A rung that runs every shape on every GPU.
[[nodiscard]] decltype(rung::can_run) runs_any_shape();

// A rung that maps M to blockIdx.y in tiles of tile_m rows (grid_rows_exceeded).
[[nodiscard]] decltype(rung::can_run) grid_rows_fit(std::int64_t tile_m);

// The same, for a kernel that also indexes with int (int_indices_exceeded).
[[nodiscard]] decltype(rung::can_run) int_indices_and_grid_rows_fit(std::int64_t tile_m);

}  // namespace tgemm::kernels
