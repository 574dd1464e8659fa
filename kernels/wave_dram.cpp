#include "wave_dram.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "model/rung_model.hpp"

namespace tgemm::kernels {

wave_reads wave_dram_reads(const shape& s, int element_bytes, std::int64_t strip_rows,
                           std::int64_t strip_cols, const std::vector<wave>& waves,
                           std::int64_t l2_bytes) {
    wave_reads w;
    const double e = element_bytes;
    const double a_total = e * double(s.m) * double(s.k);
    const double b_total = e * double(s.k) * double(s.n);
    const double usable = 0.5 * double(l2_bytes);
    w.c_bytes = e * double(s.m) * double(s.n);
    w.waves = static_cast<std::int64_t>(waves.size());
    w.fits_l2 = a_total + b_total <= usable;
    const auto a_strip_bytes = [&](std::int64_t a) {
        return e * double(std::min(strip_rows, s.m - a * strip_rows)) * double(s.k);
    };
    const auto b_strip_bytes = [&](std::int64_t b) {
        return e * double(s.k) * double(std::min(strip_cols, s.n - b * strip_cols));
    };
    w.unshared_bytes = w.c_bytes;
    for (const auto& wv : waves)
        for (const auto& t : wv)
            w.unshared_bytes += a_strip_bytes(t.a_strip) + b_strip_bytes(t.b_strip);
    const auto c_tile_bytes = [&](const strip_pair& t) {
        return e * double(std::min(strip_rows, s.m - t.a_strip * strip_rows)) *
               double(std::min(strip_cols, s.n - t.b_strip * strip_cols));
    };
    // One pass over the waves: a strip is read unless the previous wave touched it and that
    // wave's footprint (its strips, and with `with_c` the C tiles it reads and writes back)
    // fits in half the L2.
    struct sweep_result {
        double a = 0, b = 0, max_strips = 0;
        bool reuse = false;
    };
    const auto sweep = [&](bool with_c, double capacity) {
        sweep_result r;
        std::set<std::int64_t> a_now, b_now, a_prev, b_prev;
        bool prev_fits = false;
        for (const auto& wv : waves) {
            a_now.clear();
            b_now.clear();
            double c_part = 0;
            for (const auto& t : wv) {
                a_now.insert(t.a_strip);
                b_now.insert(t.b_strip);
                c_part += c_tile_bytes(t);
            }
            double strips = 0;
            for (const auto a : a_now) {
                strips += a_strip_bytes(a);
                if (!(prev_fits && a_prev.contains(a))) r.a += a_strip_bytes(a);
            }
            for (const auto b : b_now) {
                strips += b_strip_bytes(b);
                if (!(prev_fits && b_prev.contains(b))) r.b += b_strip_bytes(b);
            }
            r.reuse = r.reuse || prev_fits;
            r.max_strips = std::max(r.max_strips, strips);
            prev_fits = strips + (with_c ? c_part : 0) <= capacity;
            std::swap(a_prev, a_now);
            std::swap(b_prev, b_now);
        }
        return r;
    };
    if (waves.size() <= 1) {
        w.a_bytes = a_total;
        w.b_bytes = b_total;
        return w;
    }
    if (w.fits_l2) {
        w.a_bytes = a_total;
        w.b_bytes = b_total;
        w.reuse_across_waves = true;
    } else {
        const auto r = sweep(false, usable);
        w.a_bytes = r.a;
        w.b_bytes = r.b;
        w.reuse_across_waves = r.reuse;
        w.max_wave_strip_bytes = r.max_strips;
    }
    const auto c = sweep(true, usable);
    if (c.a + c.b > w.a_bytes + w.b_bytes) w.with_c_tiles_bytes = c.a + c.b + w.c_bytes;
    // Held once: a line all SMs share may sit in one partition only, so the whole L2 is usable.
    if (!w.fits_l2) {
        const auto once = sweep(false, double(l2_bytes));
        const double reads =
            a_total + b_total <= double(l2_bytes) ? a_total + b_total : once.a + once.b;
        if (reads < w.a_bytes + w.b_bytes) w.held_once_bytes = reads + w.c_bytes;
    }
    return w;
}

std::vector<wave> launch_order_waves(std::int64_t gm, std::int64_t gn, std::int64_t per_wave) {
    std::vector<wave> waves;
    const std::int64_t tiles = gm * gn;
    per_wave = std::max<std::int64_t>(1, per_wave);
    for (std::int64_t lo = 0; lo < tiles; lo += per_wave) {
        wave w;
        for (std::int64_t t = lo; t < std::min(tiles, lo + per_wave); ++t)
            w.push_back({t / gn, t % gn});
        waves.push_back(std::move(w));
    }
    return waves;
}

void add_l2_residency_band(refined_model& r, const wave_reads& w, std::int64_t l2_bytes) {
    if (r.dram_read_band) return;
    const double low = w.held_once_bytes > 0 ? w.held_once_bytes : w.total();
    const double high = std::max(w.total(), w.with_c_tiles_bytes);
    if (!(low < w.total() || high > w.total())) return;
    const auto mb = [](double v) { return std::to_string(std::llround(v / 1e6)); };
    std::string why =
        "the model keeps a strip for the next wave when the previous wave's strips fit "
        "in half the L2 (" +
        mb(0.5 * double(l2_bytes)) +
        " MB: each partition holding its own copy of what all SMs share)";
    if (low < w.total())
        why += "; held once (the whole L2, " + mb(double(l2_bytes)) +
               " MB) more of them survive (low end)";
    if (high > w.total())
        why +=
            "; with each wave's C tiles, which it reads and writes back through L2, counted "
            "beside its strips, fewer do (high end)";
    why += "; where between lies depends on the L2's duplication and replacement";
    model::set_dram_read_band(r, low, high, why);
}

}  // namespace tgemm::kernels
