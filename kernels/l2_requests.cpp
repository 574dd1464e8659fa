#include "l2_requests.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tgemm::kernels {
namespace {

constexpr std::int64_t sector = 32;

// Sectors of `rows` segments of `len` bytes, the r-th starting at byte first + r · stride.
std::int64_t segment_sectors(std::int64_t first, std::int64_t stride, std::int64_t rows,
                             std::int64_t len) {
    std::int64_t n = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t start = first + r * stride;
        n += (start + len - 1) / sector - start / sector + 1;
    }
    return n;
}

// The sectors of the CTAs' strips of B alone (each read by the gm CTAs of its column of tiles).
double b_strip_sectors(const shape& s, std::int64_t e, std::int64_t bm, std::int64_t bn) {
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    double total = 0;
    for (std::int64_t j = 0; j < gn; ++j) {
        const std::int64_t width = std::min(bn, s.n - j * bn) * e;
        total += double(gm) * double(segment_sectors(j * bn * e, s.n * e, s.k, width));
    }
    return total;
}

}  // namespace

double strip_sectors(const shape& s, int element_bytes, std::int64_t bm, std::int64_t bn) {
    const std::int64_t e = element_bytes;
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    // B: strip j is columns j·bn … of all K rows, read by the gm CTAs of its column of tiles.
    double total = b_strip_sectors(s, e, bm, bn);
    // A: strip i is rows i·bm … of K elements each, read by the gn CTAs of its row of tiles.
    for (std::int64_t i = 0; i < gm; ++i) {
        const std::int64_t rows = std::min(bm, s.m - i * bm);
        total += double(gn) * double(segment_sectors(i * bm * s.k * e, s.k * e, rows, s.k * e));
    }
    // C: the tile (i, j), rows i·bm …, the columns of B's strip j.
    for (std::int64_t j = 0; j < gn; ++j) {
        const std::int64_t width = std::min(bn, s.n - j * bn) * e;
        total += double(segment_sectors(j * bn * e, s.n * e, s.m, width));
    }
    return total;
}

void set_l2_requests(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                     std::int64_t bn, int ctas_per_sm, int sm_count) {
    const double bytes = double(sector) * strip_sectors(s, element_bytes, bm, bn);
    r.l2_requested_bytes = bytes;
    r.notes.push_back(fmt::format(
        "L2 read requests: {:.1f} MB, the sectors of every CTA's strips of A and B and of its "
        "tile of C, once (L1 misses each sector once per CTA; the CTAs sharing an SM lie far "
        "apart in launch order); the L2 counts less by what its request coalescer merges, a "
        "timing effect",
        bytes / 1e6));
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    if (ctas_per_sm < 2 || sm_count <= 0 || gm < 2 || sm_count % gn != 0) return;
    const double b = double(sector) * b_strip_sectors(s, element_bytes, bm, bn);
    const double low = bytes - b * (1 - 1.0 / ctas_per_sm);
    const std::string why = fmt::format(
        "the grid is {} tiles wide and {} SMs a multiple of it, so the {} CTAs sharing an SM, "
        "{} apart in launch order, read one strip of B: L1 serves part of the later ones' reads "
        "(low end: B missed once per SM, {:.1f} MB less)",
        gn, sm_count, ctas_per_sm, sm_count, b * (1 - 1.0 / ctas_per_sm) / 1e6);
    r.set_band(keys::l2_requested_bytes, {low, bytes, why});
    r.notes.push_back(fmt::format("L2 request band: between {:.1f} and {:.1f} MB: {}", low / 1e6,
                                  bytes / 1e6, why));
}

void set_l2_requests_walked(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                            std::int64_t bn, int walks) {
    const double strips = double(sector) * strip_sectors(s, element_bytes, bm, bn);
    const double b = double(sector) * b_strip_sectors(s, element_bytes, bm, bn);
    const double value = strips + double(walks - 1) * b;
    r.l2_requested_bytes = value;
    const std::string why = fmt::format(
        "each warp walks the CTA's strip of B {} times, more than L1 holds: L1 misses each sector "
        "of B once per walk (the value; the warps of a walk share its misses) down to once per CTA "
        "(low end, L1 keeping the strip between walks, {:.1f} MB less), by how far apart the warps "
        "run",
        walks, (value - strips) / 1e6);
    r.set_band(keys::l2_requested_bytes, {strips, value, why});
    r.notes.push_back(fmt::format(
        "L2 read requests: {:.1f} MB, the sectors of every CTA's strips of A and of its tile of C "
        "once and of its strip of B {} times; band {:.1f} … {:.1f} MB: {}",
        value / 1e6, walks, strips / 1e6, value / 1e6, why));
}

}  // namespace tgemm::kernels
