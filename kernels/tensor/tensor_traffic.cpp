#include "tensor/tensor_traffic.hpp"

#include <algorithm>
#include <set>

namespace tgemm::kernels::tensor_model {

void sector_set::add(std::int64_t address, std::int64_t bytes) {
    for (std::int64_t s = address / sector; s <= (address + bytes - 1) / sector; ++s)
        m_sectors.push_back(s);
}

std::int64_t sector_set::count() {
    std::sort(m_sectors.begin(), m_sectors.end());
    m_sectors.erase(std::unique(m_sectors.begin(), m_sectors.end()), m_sectors.end());
    return static_cast<std::int64_t>(m_sectors.size());
}

int smem_wavefronts(const lane_addresses& addr, int width, smem_op op) {
    if (width != 8) return tile_model::warp_wavefronts(addr, width, op);
    return tile_model::pass_wavefronts(addr, 8, 0, 16) +
           tile_model::pass_wavefronts(addr, 8, 16, 16);
}

int matrix_x4_wavefronts(const lane_addresses& addr) {
    int total = 0;
    for (int m = 0; m < 4; ++m) total += tile_model::pass_wavefronts(addr, 16, 8 * m, 8);
    return total;
}

tma_traffic& tma_traffic::operator+=(const tma_traffic& o) {
    delivered += o.delivered;
    requested_sectors += o.requested_sectors;
    stored += o.stored;
    return *this;
}

tma_traffic operator*(std::int64_t times, const tma_traffic& t) {
    return {times * t.delivered, times * t.requested_sectors, times * t.stored};
}

tma_traffic tma_matrix::box(std::int64_t row0, std::int64_t col0, int box_rows, int box_cols) {
    const std::int64_t pitch = m_cols * bf16;
    const std::int64_t valid_rows = std::clamp<std::int64_t>(m_rows - row0, 0, box_rows);
    const std::int64_t valid_cols = std::clamp<std::int64_t>(m_cols - col0, 0, box_cols);
    const std::int64_t phase = (row0 * pitch + col0 * bf16) % sector;
    const std::array<std::int64_t, 5> key{valid_rows, valid_cols, box_rows, box_cols, phase};
    if (const auto it = m_memo.find(key); it != m_memo.end()) return it->second;

    tma_traffic t;
    const std::int64_t row_bytes = std::int64_t(box_cols) * bf16;
    for (std::int64_t r = 0; r < box_rows; ++r) {
        const std::int64_t first = phase + r * pitch;
        // The L2 is asked for every sector the box row spans where it would lie, inside the
        // matrix or not (the out-of-bounds part is zero-filled at the SM all the same).
        t.requested_sectors += (first + row_bytes - 1) / sector - first / sector + 1;
        if (r >= valid_rows || valid_cols == 0) {
            t.delivered += row_bytes;  // zero fill only
            continue;
        }
        const std::int64_t last = first + valid_cols * bf16 - 1;
        const std::int64_t sectors = last / sector - first / sector + 1;
        // The zero fill of the part outside the matrix, in whole sectors.
        const std::int64_t outside = (box_cols - valid_cols) * bf16;
        t.delivered += sector * (sectors + (outside + sector - 1) / sector);
        t.stored += sector * sectors;
    }
    m_memo.emplace(key, t);
    return t;
}

wave_reads dram_reads(const shape& s, int strip_rows, int strip_cols,
                      const std::vector<wave>& waves, const model_context& mc) {
    return kernels::wave_dram_reads(s, bf16, strip_rows, strip_cols, waves, mc.l2_bytes,
                                    mc.l2_retention);
}

double compulsory_read_bytes(const shape& s) {
    return double(bf16) *
           (double(s.m) * double(s.k) + double(s.k) * double(s.n) + double(s.m) * double(s.n));
}

double dram_write_bytes(const shape& s, std::int64_t l2_bytes) {
    return compulsory_read_bytes(s) > 0.5 * double(l2_bytes)
               ? double(bf16) * double(s.m) * double(s.n)
               : 0.0;
}

}  // namespace tgemm::kernels::tensor_model
