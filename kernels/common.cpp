#include "common.cuh"

namespace tgemm::kernels {

std::int64_t row_segment_sectors(std::int64_t rows, std::int64_t cols, std::int64_t seg) {
    // A row's starting byte offset modulo 32 repeats with period 8 rows (8 × 4 B = 32 B), so
    // count the 8 residues once and weight them.
    std::int64_t total = 0;
    const std::int64_t period = 8;
    for (std::int64_t r = 0; r < period && r < rows; ++r) {
        const std::int64_t weight = (rows - r + period - 1) / period;
        const std::int64_t base = (r * cols * 4) % sector_bytes;
        std::int64_t row_sectors = 0;
        for (std::int64_t c0 = 0; c0 < cols; c0 += seg) {
            const std::int64_t w = (c0 + seg <= cols) ? seg : cols - c0;
            row_sectors += sectors_spanned(base + c0 * 4, w * 4);
        }
        total += weight * row_sectors;
    }
    return total;
}

void add_epilogue_traffic(refined_model& r, const shape& s, std::int64_t seg) {
    const double c_bytes = sector_bytes * static_cast<double>(row_segment_sectors(s.m, s.n, seg));
    r.set("l1_global_store_bytes", c_bytes);
}

std::optional<std::string> grid_rows_exceeded(const shape& s, std::int64_t tile_m) {
    constexpr std::int64_t max_grid_y = 65535;
    if (model::ceil_div(s.m, tile_m) <= max_grid_y) return std::nullopt;
    return "M = " + std::to_string(s.m) + " needs more than 65535 CTA rows of " +
           std::to_string(tile_m);
}

}  // namespace tgemm::kernels
