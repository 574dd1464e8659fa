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

void ldgsts_units::add(std::int64_t source, std::int64_t destination) {
    m_pairs.push_back({source / 128, destination / sector});
}

std::int64_t ldgsts_units::count() {
    std::sort(m_pairs.begin(), m_pairs.end());
    m_pairs.erase(std::unique(m_pairs.begin(), m_pairs.end()), m_pairs.end());
    return static_cast<std::int64_t>(m_pairs.size());
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
        if (r >= valid_rows || valid_cols == 0) {
            t.delivered += row_bytes;  // zero fill only
            continue;
        }
        const std::int64_t first = phase + r * pitch;
        const std::int64_t last = first + valid_cols * bf16 - 1;
        const std::int64_t sectors = last / sector - first / sector + 1;
        t.delivered += sector * sectors + (valid_cols < box_cols ? row_bytes : 0);
        t.requested_sectors += sectors;
        t.stored += sector * sectors;
    }
    m_memo.emplace(key, t);
    return t;
}

wave_reads dram_reads(const shape& s, int strip_rows, int strip_cols,
                      const std::vector<wave>& waves, std::int64_t l2_bytes) {
    wave_reads w;
    const double a_total = double(bf16) * double(s.m) * double(s.k);
    const double b_total = double(bf16) * double(s.k) * double(s.n);
    w.c_bytes = double(bf16) * double(s.m) * double(s.n);
    w.waves = static_cast<std::int64_t>(waves.size());
    w.fits_l2 = a_total + b_total <= 0.5 * double(l2_bytes);
    const auto a_strip_bytes = [&](std::int64_t a) {
        return double(bf16) * double(std::min<std::int64_t>(strip_rows, s.m - a * strip_rows)) *
               double(s.k);
    };
    const auto b_strip_bytes = [&](std::int64_t b) {
        return double(bf16) * double(s.k) *
               double(std::min<std::int64_t>(strip_cols, s.n - b * strip_cols));
    };
    w.unshared_bytes = w.c_bytes;
    for (const auto& wv : waves)
        for (const auto& t : wv)
            w.unshared_bytes += a_strip_bytes(t.a_strip) + b_strip_bytes(t.b_strip);
    if (w.fits_l2 || waves.size() <= 1) {
        w.a_bytes = a_total;
        w.b_bytes = b_total;
        return w;
    }
    std::set<std::int64_t> a_strips, b_strips;
    for (const auto& wv : waves) {
        a_strips.clear();
        b_strips.clear();
        for (const auto& t : wv) {
            a_strips.insert(t.a_strip);
            b_strips.insert(t.b_strip);
        }
        double a_part = 0, b_part = 0;
        for (const auto a : a_strips) a_part += a_strip_bytes(a);
        for (const auto b : b_strips) b_part += b_strip_bytes(b);
        w.a_bytes += a_part;
        w.b_bytes += b_part;
        w.max_wave_strip_bytes = std::max(w.max_wave_strip_bytes, a_part + b_part);
    }
    return w;
}

std::vector<wave> launch_order_waves(std::int64_t gm, std::int64_t gn, std::int64_t per_wave) {
    std::vector<wave> waves;
    const std::int64_t tiles = gm * gn;
    for (std::int64_t lo = 0; lo < tiles; lo += per_wave) {
        wave w;
        for (std::int64_t t = lo; t < std::min(tiles, lo + per_wave); ++t)
            w.push_back({t / gn, t % gn});
        waves.push_back(std::move(w));
    }
    return waves;
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
