#include "wave_dram.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "model/rung_model.hpp"

namespace tgemm::kernels {
namespace {

// A partition of a two-partition L2 holds the lines of C its own SMs read and write (homed there,
// or copied from the other one when read) and, as their home, half of those the other SMs
// write: 3/4 of the C tiles touched after a tile, against its half of the L2. (Lines only
// stored, never read, are held at their home alone: the probe below, 16.8 MB stored, follows
// the 4.2 MB curve with a share of 1/2.)
constexpr double c_share_per_partition = 0.75;

// The mean of l2_dirty_eviction() over [x0, x1] (the lines of one wave's C tiles), by the midpoint
// rule.
double mean_evicted(double x0, double x1) {
    constexpr int samples = 256;
    const auto dirty_curve = l2_dirty_eviction();
    double sum = 0;
    for (int i = 0; i < samples; ++i)
        sum += evicted_at(dirty_curve, x0 + (x1 - x0) * (i + 0.5) / samples);
    return sum / samples;
}

// The share of a strip's lines one partition holds when `readers` SMs read it: a line sits at
// its home (either partition) and in every partition one of its readers sits on, so a partition
// lacks it only when the home and all readers are on the other one: 1 − (1/2)^(readers + 1)
// (measured: docs/models/dram-waves.md, "How many SMs read a line"). 0 for a strip nobody reads.
double partition_share(std::int64_t readers) {
    return readers <= 0 ? 0.0
                        : 1.0 - std::ldexp(1.0, -int(std::min<std::int64_t>(readers, 62) + 1));
}

// The bytes of the strips and C tiles of a launch: the last strip of a ragged shape is short.
struct strip_geometry {
    const shape& s;
    double e;  // bytes per element
    std::int64_t rows, cols;
    [[nodiscard]] double a(std::int64_t strip) const {
        return e * double(std::min(rows, s.m - strip * rows)) * double(s.k);
    }
    [[nodiscard]] double b(std::int64_t strip) const {
        return e * double(s.k) * double(std::min(cols, s.n - strip * cols));
    }
    [[nodiscard]] double c_tile(const strip_pair& t) const {
        return e * double(std::min(rows, s.m - t.a_strip * rows)) *
               double(std::min(cols, s.n - t.b_strip * cols));
    }
};

// What a partition holds of what it touches: each strip of A and B by how many CTAs read it
// (partition_share; the CTAs of a wave sit on different SMs, and so do those of different waves
// as far as the share goes) and c_share_per_partition of C; `evicted(x0, x1)`: the fraction of a
// wave's C tiles written back when their lines lie x0 … x1 half-L2s deep.
// With `sm_count` known, a wave of more CTAs than SMs but not enough to give every SM as many
// (its CTAs dealt out one per SM in launch order, tile j on SM j mod sm_count) has SMs with
// fewer CTAs than the busiest; a CTA that shares its SM with fewer may finish sooner, at the
// soonest when its SM's share of the busiest SMs' work is done (k of c_max CTAs: after k/c_max of
// the wave), and its tile then has behind it the rest of what the busiest SMs' CTAs read (the
// remaining 1 − k/c_max of their strips) and their C tiles. Traced: blocktiling_2d's CTAs alone on
// an SM at 1024×3072×4096 end at 0.70–0.72 of those sharing one (docs/models/dram-waves.md,
// "The schedule seen directly").
template <class Evicted>
double c_written_during(const std::vector<wave>& waves, const strip_geometry& g, double capacity,
                        const Evicted& evicted, std::int64_t sm_count = 0) {
    // From the last wave back: the strips and C tiles touched after wave i, each strip counted
    // by the share of it a partition holds for the readers it has had after wave i.
    std::map<std::int64_t, std::int64_t> a_readers, b_readers;
    double strips_after = 0, c_after = 0, written = 0;
    const auto add_reader = [&](auto& readers, std::int64_t strip, double bytes) {
        const std::int64_t r = readers[strip]++;
        strips_after += bytes * (partition_share(r + 1) - partition_share(r));
    };
    for (auto i = static_cast<std::ptrdiff_t>(waves.size()) - 1; i >= 0; --i) {
        double c_wave = 0;
        for (const auto& t : waves[std::size_t(i)]) c_wave += g.c_tile(t);
        // The wave's tiles are stored one after another as its CTAs finish: a tile's lines have
        // behind them what later waves touch and the wave's own tiles stored after it.
        const double behind = strips_after + c_share_per_partition * c_after;
        const double own = c_share_per_partition * c_wave;
        const auto& wv = waves[std::size_t(i)];
        const auto n = std::int64_t(wv.size());
        double c_early = 0;  // the tiles of the CTAs that may finish first, written as below
        if (sm_count > 0 && n > sm_count && n % sm_count != 0) {
            const std::int64_t busiest = (n + sm_count - 1) / sm_count;
            const auto on_its_sm = [&](std::int64_t j) {
                return (n - 1 - j % sm_count) / sm_count + 1;
            };
            std::map<std::int64_t, std::int64_t> a_busy, b_busy;
            double c_busy = 0;
            for (std::int64_t j = 0; j < n; ++j)
                if (on_its_sm(j) == busiest) {
                    const auto& t = wv[std::size_t(j)];
                    ++a_busy[t.a_strip];
                    ++b_busy[t.b_strip];
                    c_busy += g.c_tile(t);
                }
            double busy_strips = 0;
            for (const auto& [a, readers] : a_busy)
                busy_strips += g.a(a) * partition_share(readers);
            for (const auto& [b, readers] : b_busy)
                busy_strips += g.b(b) * partition_share(readers);
            for (std::int64_t j = 0; j < n; ++j) {
                const std::int64_t k = on_its_sm(j);
                if (k == busiest) continue;
                const double tile = g.c_tile(wv[std::size_t(j)]);
                const double extra = (1 - double(k) / double(busiest)) * busy_strips +
                                     c_share_per_partition * c_busy;
                c_early += tile;
                if (own > 0)
                    written += tile * evicted((behind + extra) / capacity,
                                              (behind + extra + own) / capacity);
            }
        }
        if (own > 0)
            written += (c_wave - c_early) * evicted(behind / capacity, (behind + own) / capacity);
        for (const auto& t : waves[std::size_t(i)]) {
            add_reader(a_readers, t.a_strip, g.a(t.a_strip));
            add_reader(b_readers, t.b_strip, g.b(t.b_strip));
        }
        c_after += c_wave;
    }
    return written;
}

}  // namespace

c_written wave_dram_writes(const shape& s, int element_bytes, std::int64_t strip_rows,
                           std::int64_t strip_cols, const std::vector<wave>& waves,
                           std::int64_t l2_bytes, std::int64_t sm_count) {
    const strip_geometry g{s, double(element_bytes), strip_rows, strip_cols};
    const double usable = 0.5 * double(l2_bytes);
    // The value: a line is gone once its partition has touched half the L2 since (a step at 1).
    // Low end: dirty lines stay as long as any line measured (the clean ones every SM reads, all
    // gone by the edge's end). High end: dirty lines leave as early as measured.
    const auto gone_after = [](double edge) {
        return
            [edge](double x0, double x1) { return std::clamp((x1 - edge) / (x1 - x0), 0.0, 1.0); };
    };
    const double high = c_written_during(waves, g, usable, mean_evicted);
    const double early = c_written_during(waves, g, usable, mean_evicted, sm_count);
    return {c_written_during(waves, g, usable, gone_after(1.0)),
            c_written_during(waves, g, usable, gone_after(l2_edge_end)), std::max(high, early),
            early > high};
}

wave_reads wave_dram_reads(const shape& s, int element_bytes, std::int64_t strip_rows,
                           std::int64_t strip_cols, const std::vector<wave>& waves,
                           std::int64_t l2_bytes, const l2_retention_curves& retention,
                           int concurrent_waves, int b_walks, std::int64_t sm_count) {
    wave_reads w;
    const strip_geometry g{s, double(element_bytes), strip_rows, strip_cols};
    const double e = element_bytes;
    const double a_total = e * double(s.m) * double(s.k);
    const double b_total = e * double(s.k) * double(s.n);
    const double usable = 0.5 * double(l2_bytes);
    w.c_bytes = e * double(s.m) * double(s.n);
    w.waves = static_cast<std::int64_t>(waves.size());
    w.fits_l2 = a_total + b_total <= usable;
    const double walks = std::max(1, b_walks);
    w.unshared_bytes = w.c_bytes;
    for (const auto& wv : waves)
        for (const auto& t : wv) w.unshared_bytes += g.a(t.a_strip) + walks * g.b(t.b_strip);
    // One pass over the waves: a strip an earlier wave touched is found in L2 unless its
    // partition has touched too much since, as a least-recently-used cache would say: what it
    // holds of the strips of the waves from the one that last touched it to the one before this
    // (each distinct strip once, by its readers there, partition_share; whole where
    // `per_partition` is false: the L2 as one cache) and `c_share` of their C tiles (each read
    // and written back through L2), against `capacity`, on the GPU's measured retention curve (a
    // step at 1 where none is known). Other strips are read. (Until 2026-11-27 only the previous
    // wave was looked at: a strip that skipped a wave was read again, however little lay
    // between.) Where each CTA walks its strip of B `walks` times along K (reading a 1/walks part
    // of its strip of A each time), a wave reads its B strips again on each later walk as far as
    // they left L2 since the walk before: one walk of the wave's B strips and a 1/walks part of
    // its A strips lie between; no C tiles (stored after the walks). Between two waves the same
    // part of A lies between two uses of a B strip.
    struct sweep_result {
        double a = 0, b = 0, max_strips = 0;
        bool reuse = false;
    };
    // `span`: the waves whose strips lie between two uses of a strip, from the one that used it
    // (1: up to the wave before the one that uses it again; more where later waves run at once
    // with it, `concurrent_waves`). With `swept`, a strip that one or two CTAs of the wave that
    // last touched it read is gone at least as far as the GPU's curve of a set swept by readers
    // that move says (l2_retention_curves::swept) for the whole strips and C tiles between, each
    // distinct strip once: the CTAs that read it again sit on other SMs, and the share rule
    // (partition_share) holds for readers that stay.
    const auto shared_sweep = [&](double c_share, double capacity, const auto& evicted_after,
                                  std::size_t span = 1, bool per_partition = true,
                                  const l2_retention_curves* swept = nullptr) {
        const auto held = [&](std::int64_t readers) {
            return readers <= 0 ? 0.0 : per_partition ? partition_share(readers) : 1.0;
        };
        // What lies between two uses of a strip of A and of B, over the capacity: as a partition
        // holds it (`a`, `b`) and whole (`a_whole`, `b_whole`, for the swept curves).
        struct x_pair {
            double a = 0, b = 0, a_whole = 0, b_whole = 0;
        };
        // After waves first … last, walked back from the last: once the strips of both operands
        // are gone entirely, more waves change nothing (the loss is the larger of the two rules).
        const auto between = [&](std::size_t first, std::size_t last) {
            std::map<std::int64_t, std::int64_t> a_readers, b_readers;
            double a_held = 0, b_held = 0, c_between = 0, a_whole = 0, b_whole = 0;
            x_pair x;
            for (std::size_t j = last + 1; j-- > first;) {
                for (const auto& t : waves[j]) {
                    c_between += g.c_tile(t);
                    const auto ra = a_readers[t.a_strip]++;
                    a_held += g.a(t.a_strip) * (held(ra + 1) - held(ra));
                    if (ra == 0) a_whole += g.a(t.a_strip);
                    const auto rb = b_readers[t.b_strip]++;
                    b_held += g.b(t.b_strip) * (held(rb + 1) - held(rb));
                    if (rb == 0) b_whole += g.b(t.b_strip);
                }
                const double c_held = c_share * c_between;
                x = {(b_held + a_held + c_held) / capacity,
                     (b_held + a_held / walks + c_held) / capacity,
                     (b_whole + a_whole + c_between) / capacity,
                     (b_whole + a_whole / walks + c_between) / capacity};
                if (evicted_after(x.a) >= 1 && evicted_after(x.b) >= 1) break;
            }
            return x;
        };
        // The share of a strip gone: `share` and `whole` pick its operand's x.
        const auto evicted = [&](const x_pair& x, double x_pair::*share, double x_pair::*whole,
                                 std::int64_t readers) {
            const double e = evicted_after(x.*share);
            const auto curve = swept ? swept->swept(readers) : std::span<const retention_point>{};
            return curve.empty() ? e : std::max(e, evicted_at(curve, x.*whole));
        };
        sweep_result r;
        std::map<std::int64_t, std::size_t> a_last, b_last;  // the wave that last touched a strip
        std::map<std::int64_t, std::int64_t> a_readers_then, b_readers_then;  // its CTAs there
        for (std::size_t i = 0; i < waves.size(); ++i) {
            std::map<std::int64_t, std::int64_t> a_now, b_now;  // strip: its CTAs in this wave
            for (const auto& t : waves[i]) {
                ++a_now[t.a_strip];
                ++b_now[t.b_strip];
            }
            std::map<std::size_t, x_pair> since;  // by the wave of the last use
            const auto x_since = [&](std::size_t last_use) {
                auto it = since.find(last_use);
                if (it == since.end()) {
                    const std::size_t end =
                        std::min(waves.size() - 1, std::max(i - 1, last_use + span - 1));
                    it = since.emplace(last_use, between(last_use, end)).first;
                }
                return it->second;
            };
            // Reads this wave's strips of one operand: each whole, less what L2 still holds of
            // it since its last use; returns their bytes.
            const auto read = [&](const std::map<std::int64_t, std::int64_t>& now, auto& last_use,
                                  auto& readers_then, const auto& bytes, double x_pair::*share,
                                  double x_pair::*whole, double& total) {
                double touched = 0;
                for (const auto& [strip, readers] : now) {
                    touched += bytes(strip);
                    const auto last = last_use.find(strip);
                    const double e = last == last_use.end() ? 1.0
                                                            : evicted(x_since(last->second), share,
                                                                      whole, readers_then[strip]);
                    total += bytes(strip) * e;
                    r.reuse = r.reuse || e < 1;
                    last_use[strip] = i;
                    readers_then[strip] = readers;
                }
                return touched;
            };
            const double a_strips = read(
                a_now, a_last, a_readers_then, [&](std::int64_t a) { return g.a(a); }, &x_pair::a,
                &x_pair::a_whole, r.a);
            const double b_strips = read(
                b_now, b_last, b_readers_then, [&](std::int64_t b) { return g.b(b); }, &x_pair::b,
                &x_pair::b_whole, r.b);
            r.max_strips = std::max(r.max_strips, a_strips + b_strips);
            if (walks > 1) {
                // Between two walks of this wave (and of those running at once with it): one
                // walk of their B strips and a 1/walks part of their A strips.
                std::map<std::int64_t, std::int64_t> a_readers, b_readers;
                for (std::size_t j = i; j < std::min(waves.size(), i + span); ++j)
                    for (const auto& t : waves[j]) {
                        ++a_readers[t.a_strip];
                        ++b_readers[t.b_strip];
                    }
                double a_held = 0, b_held = 0;
                for (const auto& [a, readers] : a_readers) a_held += g.a(a) * held(readers);
                for (const auto& [b, readers] : b_readers) b_held += g.b(b) * held(readers);
                const double again = evicted_after((b_held + a_held / walks) / capacity);
                r.b += (walks - 1) * b_strips * again;
                r.reuse = r.reuse || again < 1;
            }
        }
        return r;
    };
    const auto written =
        wave_dram_writes(s, element_bytes, strip_rows, strip_cols, waves, l2_bytes, sm_count);
    w.c_written_bytes = written.value;
    w.c_written_low = written.low;
    w.c_written_high = written.high;
    w.c_written_high_early = written.high_early;

    const auto r = shared_sweep(
        c_share_per_partition, usable,
        [&](double x) { return evicted_at(retention.read_again, x); }, 1, true, &retention);
    // The measured edge's two ends, as steps: the strips kept up to its end (1.25 × the half:
    // the low end of the reads) or dropped from its start (0.9 ×: the high end). Where no curve
    // was measured, the H100's and H200's edge, which both span 0.9 … 1.25.
    const auto step = [](double edge) { return [edge](double x) { return x > edge ? 1.0 : 0.0; }; };
    const auto low = shared_sweep(c_share_per_partition, usable, step(l2_edge_end));
    const auto high = shared_sweep(c_share_per_partition, usable, step(l2_edge_start),
                                   std::size_t(std::max(1, concurrent_waves)));
    w.concurrent_waves = std::max(1, concurrent_waves);
    w.edge_low_bytes = low.a + low.b + w.c_bytes;
    w.edge_high_bytes = high.a + high.b + w.c_bytes;
    w.a_bytes = r.a;
    w.b_bytes = r.b;
    w.reuse_across_waves = r.reuse;
    if (!w.fits_l2) w.max_wave_strip_bytes = r.max_strips;
    // Held once: a line all SMs share may sit in one partition only, so the whole L2 is usable.
    if (!w.fits_l2) {
        const auto once = shared_sweep(0, double(l2_bytes), step(1.0), 1, false);
        const double reads =
            a_total + b_total <= double(l2_bytes) ? a_total + b_total : once.a + once.b;
        if (reads < w.a_bytes + w.b_bytes) w.held_once_bytes = reads + w.c_bytes;
    }
    return w;
}

std::vector<wave> launch_order_waves(std::int64_t gm, std::int64_t gn, std::int64_t per_wave,
                                     bool last_wave_full) {
    std::vector<wave> waves;
    const std::int64_t tiles = gm * gn;
    per_wave = std::max<std::int64_t>(1, per_wave);
    // The first wave holds the remainder where the last one is full.
    const std::int64_t first = last_wave_full && tiles % per_wave ? tiles % per_wave : per_wave;
    for (std::int64_t lo = 0; lo < tiles; lo += lo == 0 ? first : per_wave) {
        wave w;
        const std::int64_t hi = std::min(tiles, lo + (lo == 0 ? first : per_wave));
        for (std::int64_t t = lo; t < hi; ++t) w.push_back({t / gn, t % gn});
        waves.push_back(std::move(w));
    }
    return waves;
}

void add_l2_residency_band(refined_model& r, const wave_reads& w, std::int64_t l2_bytes) {
    if (r.dram_read_band) return;
    const double value = w.total();
    const double low =
        std::min({value, w.edge_low_bytes, w.held_once_bytes > 0 ? w.held_once_bytes : value});
    const double high = std::max(value, w.edge_high_bytes);
    const double tol = model::dram_tolerance;
    if (low >= (1 - tol) * value && high <= (1 + tol) * value) return;
    const auto mb = [](double v) { return std::to_string(std::llround(v / 1e6)); };
    std::string why =
        "the model finds a strip an earlier wave touched in L2 as the GPU's measured "
        "retention says for what its partition touched since (the strips and 3/4 of the C "
        "tiles of that wave and those after it, against half the L2, " +
        mb(0.5 * double(l2_bytes)) + " MB); the edge spans 0.9 to 1.25 of the half";
    if (low < value) {
        why += "; strips kept up to its end";
        if (w.held_once_bytes > 0 && w.held_once_bytes <= w.edge_low_bytes)
            why += ", or held once (the whole L2, " + mb(double(l2_bytes)) + " MB),";
        why += " read less (low end)";
    }
    if (high > value) {
        why += "; strips dropped from its start read more (high end";
        if (w.concurrent_waves > 1)
            why += ", with the strips of the " + std::to_string(w.concurrent_waves) +
                   " groups running at once between two uses of a strip";
        why += ")";
    }
    model::set_dram_read_band(r, low, high, why);
}

}  // namespace tgemm::kernels
