#include "can_run.hpp"

#include <climits>

#include "common.cuh"

namespace tgemm::kernels {

std::optional<std::string> int_indices_exceeded(const shape& s) {
    if (s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX)
        return "dimensions above 2^31 - 1 do not fit the kernel's int indices";
    return std::nullopt;
}

decltype(rung::can_run) runs_any_shape() {
    return [](const gpu_info&, const shape&) -> std::optional<std::string> { return std::nullopt; };
}

decltype(rung::can_run) grid_rows_fit(std::int64_t tile_m) {
    return [tile_m](const gpu_info&, const shape& s) { return grid_rows_exceeded(s, tile_m); };
}

decltype(rung::can_run) int_indices_and_grid_rows_fit(std::int64_t tile_m) {
    return [tile_m](const gpu_info&, const shape& s) {
        if (auto why = int_indices_exceeded(s)) return why;
        return grid_rows_exceeded(s, tile_m);
    };
}

}  // namespace tgemm::kernels
