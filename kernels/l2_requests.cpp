#include "l2_requests.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/rung_model.hpp"

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

// The sectors of each strip of A (rows i·bm …, K elements each) and of B (columns j·bn … of
// all K rows).
struct strip_sizes {
    std::vector<double> a, b;
};
strip_sizes strip_sizes_of(const shape& s, std::int64_t e, std::int64_t bm, std::int64_t bn) {
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    strip_sizes z;
    for (std::int64_t i = 0; i < gm; ++i)
        z.a.push_back(double(
            segment_sectors(i * bm * s.k * e, s.k * e, std::min(bm, s.m - i * bm), s.k * e)));
    for (std::int64_t j = 0; j < gn; ++j)
        z.b.push_back(
            double(segment_sectors(j * bn * e, s.n * e, s.k, std::min(bn, s.n - j * bn) * e)));
    return z;
}

// The sectors of the CTAs' strips of B alone (each read by the gm CTAs of its column of tiles).
double b_strip_sectors(const shape& s, std::int64_t e, std::int64_t bm, std::int64_t bn) {
    const auto z = strip_sizes_of(s, e, bm, bn);
    return double(z.a.size()) * std::accumulate(z.b.begin(), z.b.end(), 0.0);
}

// The chance that none of `draws` CTAs drawn without replacement from `pool` is one of `n`.
double none_drawn(std::int64_t pool, std::int64_t n, std::int64_t draws) {
    double p = 1;
    for (std::int64_t i = 0; i < draws; ++i) {
        if (pool - n - i <= 0) return 0;
        p *= double(pool - n - i) / double(pool - i);
    }
    return p;
}

}  // namespace

double strip_sectors(const shape& s, int element_bytes, std::int64_t bm, std::int64_t bn) {
    const std::int64_t e = element_bytes;
    const auto z = strip_sizes_of(s, e, bm, bn);
    const auto gm = double(z.a.size());
    const auto gn = double(z.b.size());
    // A's strip i is read by the gn CTAs of its row of tiles, B's strip j by the gm of its column.
    double total = gn * std::accumulate(z.a.begin(), z.a.end(), 0.0) +
                   gm * std::accumulate(z.b.begin(), z.b.end(), 0.0);
    // C: the tile (i, j), rows i·bm …, the columns of B's strip j.
    for (std::int64_t j = 0; j < std::int64_t(z.b.size()); ++j) {
        const std::int64_t width = std::min(bn, s.n - j * bn) * e;
        total += double(segment_sectors(j * bn * e, s.n * e, s.m, width));
    }
    return total;
}

double in_step_shared_bytes(const shape& s, int element_bytes, std::int64_t bm, std::int64_t bn,
                            int ctas_per_sm, int sm_count) {
    if (ctas_per_sm < 2 || sm_count <= 0) return 0;
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    const std::int64_t ctas = gm * gn;
    const std::int64_t wave = std::int64_t(ctas_per_sm) * sm_count;
    const auto z = strip_sizes_of(s, element_bytes, bm, bn);
    double sectors = 0;
    for (std::int64_t w0 = 0; w0 < ctas; w0 += wave) {
        const std::int64_t n = std::min(wave, ctas - w0);
        // A part-filled wave is dealt out one CTA per SM first: `per_sm` on the busiest SMs.
        const std::int64_t per_sm = (n + sm_count - 1) / sm_count;
        if (per_sm < 2) continue;
        const double sms = double(n) / double(per_sm);
        const auto served = [&](std::int64_t readers) {
            return std::max(0.0, double(readers) - sms * (1 - none_drawn(n, readers, per_sm)));
        };
        // The rows of tiles the wave covers, and how many of its CTAs each column has.
        for (std::int64_t i = w0 / gn; i <= (w0 + n - 1) / gn; ++i) {
            const std::int64_t first = std::max(w0, i * gn);
            const std::int64_t last = std::min(w0 + n, (i + 1) * gn);
            sectors += served(last - first) * z.a[std::size_t(i)];
        }
        for (std::int64_t j = 0; j < gn; ++j) {
            // CTAs w0 … w0+n−1 whose column is j: those congruent to j mod gn.
            const std::int64_t from = w0 + ((j - w0 % gn) + gn) % gn;
            const std::int64_t readers = from < w0 + n ? (w0 + n - 1 - from) / gn + 1 : 0;
            sectors += served(readers) * z.b[std::size_t(j)];
        }
    }
    return double(sector) * sectors;
}

double successor_shared_bytes(const shape& s, int element_bytes, std::int64_t bm, std::int64_t bn,
                              int sm_count) {
    if (sm_count <= 0) return 0;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    if (gn <= sm_count) return 0;
    const auto z = strip_sizes_of(s, element_bytes, bm, bn);
    // In each row of tiles the CTAs from the (sm_count + 1)-th on follow one of their own row.
    return double(sector) * double(gn - sm_count) * std::accumulate(z.a.begin(), z.a.end(), 0.0);
}

void set_l2_requests(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                     std::int64_t bn, int ctas_per_sm, int sm_count, sm_sharing sharing) {
    const double bytes = double(sector) * strip_sectors(s, element_bytes, bm, bn);
    r.l2_requested_bytes = bytes;
    r.notes.push_back(fmt::format(
        "L2 read requests: {:.1f} MB, the sectors of every CTA's strips of A and B and of its "
        "tile of C, once (L1 misses each sector once per CTA, none read from L1 after another "
        "CTA of the same SM); the L2 counts less by what its request coalescer merges, a timing "
        "effect",
        bytes / 1e6));
    const std::int64_t gm = (s.m + bm - 1) / bm;
    const std::int64_t gn = (s.n + bn - 1) / bn;
    double low = bytes;
    std::string why;
    if (ctas_per_sm >= 2 && sm_count > 0 && gm >= 2 && sm_count % gn == 0) {
        const double b = double(sector) * b_strip_sectors(s, element_bytes, bm, bn);
        low = bytes - b * (1 - 1.0 / ctas_per_sm);
        why = fmt::format(
            "the grid is {} tiles wide and {} SMs a multiple of it, so the {} CTAs sharing an SM, "
            "{} apart in launch order, read one strip of B: L1 serves part of the later ones' "
            "reads (low end: B missed once per SM, {:.1f} MB less)",
            gn, sm_count, ctas_per_sm, sm_count, b * (1 - 1.0 / ctas_per_sm) / 1e6);
    }
    // A band's low end where a way of reading strips from L1 gives a lower one than the above.
    const auto take_lower = [&](double shared, std::string reason) {
        if (bytes - shared >= low) return;
        low = bytes - shared;
        why = std::move(reason);
    };
    if (sharing == sm_sharing::not_in_step && ctas_per_sm >= 2 && sm_count > 0 && gn > sm_count) {
        const double shared = successor_shared_bytes(s, element_bytes, bm, bn, sm_count);
        take_lower(shared,
                   fmt::format("the grid is {} tiles wide, more than the {} SMs, so a CTA and the "
                               "one {} after it in launch order, which takes its SM next, read one "
                               "strip of A for {:.0f} % of the CTAs: L1 may serve the later one's "
                               "reads where it still holds them (low end: all of them, {:.1f} MB "
                               "less)",
                               gn, sm_count, sm_count, 100.0 * double(gn - sm_count) / double(gn),
                               shared / 1e6));
    }
    if (sharing == sm_sharing::in_step) {
        const double shared = in_step_shared_bytes(s, element_bytes, bm, bn, ctas_per_sm, sm_count);
        take_lower(shared,
                   fmt::format("the {} CTAs sharing an SM keep in step and may be any of a wave's "
                               "{}, so some read one strip of A or B together and L1 serves the "
                               "later ones' reads (low end: each SM's CTAs of one strip miss it "
                               "once between them when the SMs are dealt at random, {:.1f} MB "
                               "less)",
                               ctas_per_sm, std::int64_t(ctas_per_sm) * sm_count, shared / 1e6));
    }
    if (why.empty() || bytes - low <= model::l2_tolerance * bytes) return;
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
