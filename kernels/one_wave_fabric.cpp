#include "one_wave_fabric.hpp"

#include <algorithm>
#include <cstdint>

namespace tgemm::kernels {
namespace {

// One start `t` of one run: the bytes of the strips read on one side.
double one_sided_bytes(const shape& s, const one_wave_grid& g, std::string_view run,
                       std::size_t t) {
    const std::int64_t gm = (s.m + g.tile_m - 1) / g.tile_m;
    const std::int64_t gn = (s.n + g.tile_n - 1) / g.tile_n;
    // Launch order: x fastest. `across` strips are read by runs of consecutive CTAs, `down`
    // strips by CTAs `gx` apart.
    const std::int64_t gx = g.x_down_m ? gm : gn, gy = g.x_down_m ? gn : gm;
    const auto side = [&](std::int64_t cta) { return run[(std::size_t(cta) + t) % run.size()]; };
    // The size of strip `i` of A (a row of tiles) or B (a column), K deep.
    const auto a_strip = [&](std::int64_t r) {
        return double(std::min<std::int64_t>(g.tile_m, s.m - r * g.tile_m)) * double(s.k);
    };
    const auto b_strip = [&](std::int64_t c) {
        return double(std::min<std::int64_t>(g.tile_n, s.n - c * g.tile_n)) * double(s.k);
    };
    double bytes = 0;
    for (std::int64_t y = 0; y < gy; ++y) {
        bool one = true;
        for (std::int64_t x = 1; x < gx && one; ++x) one = side(y * gx + x) == side(y * gx);
        if (one) bytes += g.x_down_m ? b_strip(y) : a_strip(y);
    }
    for (std::int64_t x = 0; x < gx; ++x) {
        bool one = true;
        for (std::int64_t y = 1; y < gy && one; ++y) one = side(y * gx + x) == side(x);
        if (one) bytes += g.x_down_m ? a_strip(x) : b_strip(x);
    }
    return bytes;
}

}  // namespace

one_sided one_sided_share(const shape& s, const one_wave_grid& g,
                          std::span<const std::string_view> runs) {
    if (runs.empty() || g.tile_m <= 0 || g.tile_n <= 0 || s.m <= 0 || s.n <= 0 || s.k <= 0)
        return {};
    const double total = double(s.k) * (double(s.m) + double(s.n));
    one_sided out{0, 1, 0};
    std::size_t starts = 0;
    for (const auto run : runs) {
        for (std::size_t t = 0; t < run.size(); ++t) {
            const double share = one_sided_bytes(s, g, run, t) / total;
            out.mean += share;
            out.least = std::min(out.least, share);
            out.most = std::max(out.most, share);
        }
        starts += run.size();
    }
    if (starts == 0) return {};
    out.mean /= double(starts);
    return out;
}

}  // namespace tgemm::kernels
