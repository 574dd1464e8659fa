#include "one_wave_fabric.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/rung_model.hpp"

namespace tgemm::kernels {
namespace {

// The bytes of the strips read on one side, CTA i on side side(i).
template <class Side>
double one_sided_bytes(const shape& s, const one_wave_grid& g, Side side) {
    const std::int64_t gm = model::ceil_div(s.m, g.tile_m);
    const std::int64_t gn = model::ceil_div(s.n, g.tile_n);
    // Launch order: x fastest. `across` strips are read by runs of consecutive CTAs, `down`
    // strips by CTAs `gx` apart.
    const std::int64_t gx = g.x_down_m ? gm : gn, gy = g.x_down_m ? gn : gm;
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

// The mean, least and most of `share(i)` over `count` cases.
template <class Share>
one_sided over(std::size_t count, Share share) {
    if (count == 0) return {};
    one_sided out{0, 1, 0};
    for (std::size_t i = 0; i < count; ++i) {
        const double x = share(i);
        out.mean += x;
        out.least = std::min(out.least, x);
        out.most = std::max(out.most, x);
    }
    out.mean /= double(count);
    return out;
}

bool usable(const shape& s, const one_wave_grid& g) {
    return g.tile_m > 0 && g.tile_n > 0 && s.m > 0 && s.n > 0 && s.k > 0;
}

}  // namespace

std::int64_t grid_ctas(const shape& s, const one_wave_grid& g) {
    return model::ceil_div(s.m, g.tile_m) * model::ceil_div(s.n, g.tile_n);
}

one_sided one_sided_share(const shape& s, const one_wave_grid& g,
                          std::span<const std::string_view> runs) {
    if (runs.empty() || !usable(s, g)) return {};
    const double total = double(s.k) * (double(s.m) + double(s.n));
    // Every start of every run, as one list of cases.
    std::vector<std::pair<std::string_view, std::size_t>> starts;
    for (const auto run : runs)
        for (std::size_t t = 0; t < run.size(); ++t) starts.emplace_back(run, t);
    return over(starts.size(), [&](std::size_t i) {
        const auto [run, t] = starts[i];
        return one_sided_bytes(
                   s, g,
                   [&](std::int64_t cta) { return run[(std::size_t(cta) + t) % run.size()]; }) /
               total;
    });
}

one_sided small_launch_share(const shape& s, const one_wave_grid& g,
                             const small_launch_dispatch& d) {
    if (!d.known() || !usable(s, g)) return {};
    const std::int64_t ctas = grid_ctas(s, g);
    if (ctas > std::int64_t(d.priority.size())) return {};
    const double total = double(s.k) * (double(s.m) + double(s.n));
    return over(std::size_t(d.columns), [&](std::size_t start) {
        const auto sms = d.order(int(ctas), int(start));
        return one_sided_bytes(
                   s, g,
                   [&](std::int64_t cta) { return d.sides[std::size_t(sms[std::size_t(cta)])]; }) /
               total;
    });
}

}  // namespace tgemm::kernels
