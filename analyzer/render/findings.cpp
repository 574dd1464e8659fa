#include "render/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/strings.hpp"
#include "model/levels.hpp"
#include "model/rung_model.hpp"
#include "render/format.hpp"
#include "render/names.hpp"

namespace tgemm::render {

namespace {

// Where the refined model counts as right: outside this band a level is called a miss.
constexpr double model_band_lo = 0.8;
constexpr double model_band_hi = 1.25;
// Below this share of its roof a kernel is held back by something the roofline does not draw.
constexpr double held_back_below = 0.2;
// L1 global loads at or above this multiple of the textbook's element loads: uncoalesced.
constexpr double uncoalesced_from = 2.0;
// DRAM reads within this multiple of the compulsory A + B + C: the operands fit in L2.
constexpr double fits_l2_up_to = 1.5;
// ... and at least this multiple at the next size: they stopped fitting.
constexpr double spills_from = 3.0;

std::string name_of(const row_analysis& r) {
    return fmt::format("{} at {}", r.row->kernel, to_string(r.row->size));
}

const level_comparison* level(const row_analysis& r, std::string_view key) {
    for (const auto& l : r.levels)
        if (l.key == key) return &l;
    return nullptr;
}

// "1/41", "0.62×", "23×".
std::string times(double r) {
    if (r < 0.1) return format_ratio(r);
    if (r >= 9.995) return fmt::format("{:.0f}×", r);
    return fmt::format("{:.2f}×", r);
}

// "1/41 of the textbook count", "0.62× the textbook count", "23× the prediction".
std::string share_of(double r, std::string_view what) {
    return fmt::format("{}{}{}", times(r), r < 0.1 ? " of " : " ", what);
}

// The rows of one rung, smallest problem first.
std::vector<const row_analysis*> rows_of(const analysis& a, std::string_view kernel) {
    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows)
        if (r.row->kernel == kernel) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const auto* l, const auto* r) {
        return l->useful_flops < r->useful_flops;
    });
    return rows;
}

std::optional<double> fma_count(const row_analysis& r) {
    if (const auto f = r.row->counter(keys::ffma); f && *f > 0) return f;
    if (r.executed_flops && *r.executed_flops > 0) return *r.executed_flops / 2;
    return std::nullopt;
}

// "35.5 GB of L1 global load traffic, 33.1 B per FMA; 1.21 G shared wavefronts (load +
// store), 2.00 per warp-wide FFMA": the traffic that stays inside the SM.
std::string inside_the_sm(const row_analysis& r) {
    const auto fma = fma_count(r);
    std::vector<std::string> parts;
    if (const auto l1 = r.row->counter(keys::l1_global_load_bytes); l1 && fma && *l1 > 0)
        parts.push_back(fmt::format("{} of L1 global load traffic, {} B per FMA",
                                    format_si(*l1, "B"), format_ai_value(*l1 / *fma)));
    const auto ld = r.row->counter(keys::smem_load_wavefronts);
    const auto st = r.row->counter(keys::smem_store_wavefronts);
    const double wf = ld.value_or(0) + st.value_or(0);
    if (wf > 0 && fma)
        parts.push_back(fmt::format("{} (load + store), {} per warp-wide FFMA",
                                    format_count(wf, "shared wavefronts"),
                                    format_ai_value(wf / (*fma / 32))));
    return join(parts, "; ");
}

std::optional<std::string> bound_line(const analysis& a, const row_analysis& r) {
    if (!r.pct_roof || r.bound.empty()) return std::nullopt;
    const auto ai_value = r.ai_measured ? r.ai_measured : r.ai_refined;
    if (!ai_value) return std::nullopt;
    const auto ai = format_ai(*ai_value);
    const auto ridge = format_ai(a.ridge());
    const bool dram_side = r.bound == "DRAM";
    const auto basis = r.ai_measured ? "" : " (by the refined model's AI; DRAM was not measured)";
    const auto pct = format_percent(r.pct_roof);
    if (*r.pct_roof >= held_back_below) {
        if (dram_side)
            return fmt::format(
                "DRAM-bound: AI {} is left of the {} ridge; it reaches {} of the "
                "DRAM roof{}.",
                ai, ridge, pct, basis);
        return fmt::format(
            "Compute-bound (FP32): AI {} is right of the {} ridge; it reaches {} of the FP32 "
            "roof{}.",
            ai, ridge, pct, basis);
    }
    const auto sm = inside_the_sm(r);
    const auto held = sm.empty() ? std::string("it is held back inside the SM")
                                 : "it is held back inside the SM: " + sm;
    if (dram_side)
        return fmt::format(
            "DRAM is not its limit although its AI {} is left of the {} ridge; at {} of the "
            "DRAM roof {}{}.",
            ai, ridge, pct, held, basis);
    return fmt::format(
        "DRAM is not its limit (AI {}, right of the {} ridge); at {} of the FP32 "
        "roof {}{}.",
        ai, ridge, pct, held, basis);
}

// DRAM reads as a multiple of the compulsory A + B + C reads.
std::optional<double> reads_over_compulsory(const row_analysis& r) {
    const auto rd = r.row->counter(keys::dram_read_bytes);
    const double c = model::compulsory_read_bytes(r.row->size);
    if (!rd || c <= 0) return std::nullopt;
    return *rd / c;
}

// "The operands fit in L2 up to 2048³ (DRAM reads 1.02× the compulsory A + B + C); at 4096³
// DRAM reads jump 102× to 8.61 GB, 42.8× compulsory."
std::optional<std::string> l2_fit_change(const std::vector<const row_analysis*>& rows,
                                         const row_analysis& big) {
    const auto big_ratio = reads_over_compulsory(big);
    if (!big_ratio || *big_ratio < spills_from) return std::nullopt;
    const row_analysis* prev = nullptr;
    for (const auto* r : rows)
        if (r != &big && r->useful_flops < big.useful_flops && reads_over_compulsory(*r)) prev = r;
    if (!prev) return std::nullopt;
    const auto prev_ratio = *reads_over_compulsory(*prev);
    if (prev_ratio > fits_l2_up_to) return std::nullopt;
    const double prev_reads = *prev->row->counter(keys::dram_read_bytes);
    const double big_reads = *big.row->counter(keys::dram_read_bytes);
    return fmt::format(
        "The operands fit in L2 up to {} (DRAM reads {} compulsory A + B + C); at {} DRAM "
        "reads jump {} to {}, {} compulsory.",
        to_string(prev->row->size), share_of(prev_ratio, "the"), to_string(big.row->size),
        times(big_reads / prev_reads), format_si(big_reads, "B"), times(*big_ratio));
}

std::optional<std::string> dram_line(const std::vector<const row_analysis*>& rows,
                                     const row_analysis& r) {
    std::vector<std::string> parts;
    const auto* d = level(r, keys::dram_bytes);
    const bool ai_jumps = r.ai_measured && r.ai_textbook > 0 && *r.ai_measured >= 2 * r.ai_textbook;
    const auto ai_words = fmt::format("{} on paper but {} reach DRAM", format_ai(r.ai_textbook),
                                      format_ai(r.ai_measured));
    if (d && d->measured && d->textbook && *d->textbook_ratio() < 0.5) {
        auto s = fmt::format(
            "L2 absorbs the re-reads: DRAM traffic is {} ({} measured, {} on "
            "paper)",
            share_of(*d->textbook_ratio(), "the textbook count"), format_si(*d->measured, "B"),
            format_si(*d->textbook, "B"));
        if (ai_jumps) s += "; it moves " + ai_words;
        parts.push_back(s + ".");
    } else if (ai_jumps) {
        parts.push_back("It moves " + ai_words + ".");
    }
    if (const auto change = l2_fit_change(rows, r)) parts.push_back(*change);
    if (parts.empty()) return std::nullopt;
    return join(parts, " ");
}

std::optional<std::string> bank_conflicts(const row_analysis& r) {
    const auto wf = r.row->counter(keys::smem_load_wavefronts);
    const auto conflicts = r.row->counter(keys::smem_load_bank_conflicts);
    if (!wf || !conflicts || *conflicts <= 0 || *wf <= *conflicts) return std::nullopt;
    // Conflicts are the extra wavefronts replayed on top of the conflict-free ones.
    const double factor = *wf / (*wf - *conflicts);
    if (factor < 1.1) return std::nullopt;
    const auto share =
        fmt::format("{} of {}", format_count(*conflicts, ""), format_count(*wf, "wavefronts"));
    const long ways = std::lround(factor);
    if (ways >= 2 && std::fabs(factor - double(ways)) < 0.1 * double(ways)) {
        const auto verb = ways == 2   ? std::string("double")
                          : ways == 3 ? std::string("triple")
                                      : fmt::format("multiply by {}", ways);
        return fmt::format("{}-way bank conflicts {} the shared load wavefronts ({} are replays).",
                           ways, verb, share);
    }
    return fmt::format("Bank conflicts add {} to the shared load wavefronts ({} are replays).",
                       format_percent(factor - 1), share);
}

std::optional<std::string> l1_sentence(const row_analysis& r) {
    const auto* l1 = level(r, keys::l1_global_load_bytes);
    if (!l1 || !l1->measured || !l1->textbook) return std::nullopt;
    const auto ratio = l1->textbook_ratio();
    if (!ratio) return std::nullopt;
    const auto measured = format_si(*l1->measured, "B");
    const auto book = format_si(*l1->textbook, "B");
    if (*ratio >= uncoalesced_from)
        return fmt::format(
            "Uncoalesced loads: L1 moves {} of global loads, {} the textbook's {}: a warp's "
            "4-byte words fall in separate 32-byte sectors.",
            measured, format_ratio(*ratio), book);
    if (*ratio < 0.9)
        return fmt::format(
            "L1 serves {} of global loads where the textbook counts {} ({}): the threads of a "
            "warp share 32-byte sectors (broadcast and coalescing).",
            measured, book, format_ratio(*ratio));
    if (*ratio > 1.05)
        return fmt::format(
            "L1 global loads are {} the textbook's {} ({}): the loads are coalesced; the "
            "textbook leaves out the read of C and counts words where L1 moves whole 32-byte "
            "sectors.",
            format_ratio(*ratio), book, measured);
    return std::nullopt;
}

std::optional<std::string> sm_line(const row_analysis& r) {
    std::vector<std::string> parts;
    if (const auto s = l1_sentence(r)) parts.push_back(*s);
    if (const auto s = bank_conflicts(r)) parts.push_back(*s);
    if (parts.empty()) return std::nullopt;
    return join(parts, " ");
}

// One level of the model-vs-measured comparison, shared load and store taken together.
struct gap {
    std::string name;
    std::string key;
    double refined = 0;
    double measured = 0;
    [[nodiscard]] double ratio() const { return measured / refined; }
    [[nodiscard]] double distance() const { return std::fabs(std::log(ratio())); }
};

std::string gap_value(const gap& g, double v) {
    if (g.key.ends_with("_bytes")) return format_si(v, "B");
    if (g.key == keys::flops) return format_count(v, "FLOP");
    return format_count(v, "wavefronts");
}

std::vector<gap> gaps_of(const row_analysis& r) {
    std::vector<gap> out;
    for (const auto& l : r.levels) {
        if (l.key == keys::dram_read_bytes || l.key == keys::dram_write_bytes ||
            l.key == keys::smem_load_wavefronts || l.key == keys::smem_store_wavefronts ||
            l.key == keys::smem_load_bank_conflicts)
            continue;
        if (!l.refined || !l.measured || *l.refined <= 0 || *l.measured <= 0) continue;
        out.push_back({level_display_name(l.key), l.key, *l.refined, *l.measured});
    }
    const auto* ld = level(r, keys::smem_load_wavefronts);
    const auto* st = level(r, keys::smem_store_wavefronts);
    if (ld && ld->refined && ld->measured) {
        double refined = *ld->refined, measured = *ld->measured;
        if (st && st->refined && st->measured) {
            refined += *st->refined;
            measured += *st->measured;
        }
        if (refined > 0 && measured > 0)
            out.push_back({"shared wavefronts (load + store)",
                           std::string(keys::smem_load_wavefronts), refined, measured});
    }
    return out;
}

std::optional<finding_group> model_gap(const row_analysis& r) {
    auto gaps = gaps_of(r);
    if (gaps.empty()) return std::nullopt;
    std::stable_sort(gaps.begin(), gaps.end(),
                     [](const gap& l, const gap& r) { return l.distance() > r.distance(); });
    const auto& g = gaps.front();
    const auto in_band = [](const gap& x) {
        return x.ratio() >= model_band_lo && x.ratio() <= model_band_hi;
    };
    finding_group out;
    out.heading = name_of(r);
    auto s = fmt::format("largest gap: {}, measured {} ({} against {})", g.name,
                         share_of(g.ratio(), "the refined model"), gap_value(g, g.measured),
                         gap_value(g, g.refined));
    if (in_band(g)) {
        s += fmt::format("; every level is within {}–{}×.", model_band_lo, model_band_hi);
    } else {
        std::vector<std::string> also;
        for (std::size_t i = 1; i < gaps.size(); ++i)
            if (!in_band(gaps[i]))
                also.push_back(fmt::format("{} {}", gaps[i].name, format_ratio(gaps[i].ratio())));
        s += also.empty() ? "."
                          : fmt::format("; also outside {}–{}×: {}.", model_band_lo, model_band_hi,
                                        join(also, ", "));
    }
    out.lines.push_back(s);
    for (const auto& n : r.row->model.refined.notes)
        if (n.starts_with("DRAM deviation:")) out.sub_lines.push_back(n);
    return out;
}

void best_against_cublas(const analysis& a, std::vector<std::string>& out) {
    for (const auto& s : a.source->shapes()) {
        const row_analysis* best = nullptr;
        const row_analysis* ref = nullptr;
        for (const auto& r : a.rows) {
            if (!(r.row->size == s)) continue;
            if (r.row->kernel == "cublas") {
                ref = &r;
                continue;
            }
            if (r.pct_cublas && (!best || *r.pct_cublas > *best->pct_cublas)) best = &r;
        }
        if (!best || !ref) continue;
        out.push_back(fmt::format(
            "At {} the fastest rung is {} at {} of cuBLAS ({} against {} TFLOP/s).", to_string(s),
            best->row->kernel, format_percent(best->pct_cublas),
            format_tflops_value(*best->tflops * 1e12), format_tflops_value(*ref->tflops * 1e12)));
    }
}

void flop_counts(const analysis& a, std::vector<std::string>& out) {
    int matched = 0;
    double lo = 1e300, hi = -1e300;
    std::vector<std::string> off;
    for (const auto& r : a.rows) {
        const auto* f = level(r, keys::flops);
        if (!f || !f->measured || !f->refined) continue;
        if (std::fabs(*f->refined_ratio() - 1) > 1e-4) {
            off.push_back(fmt::format("{} ({})", name_of(r), format_ratio(*f->refined_ratio())));
            continue;
        }
        ++matched;
        if (const auto t = f->textbook_ratio()) {
            lo = std::min(lo, *t - 1);
            hi = std::max(hi, *t - 1);
        }
    }
    if (matched > 0 && hi > -1e300)
        out.push_back(fmt::format(
            "Measured FLOPs equal the executed count of the refined model on all {} rows that "
            "have both; they exceed the seed count 2MNK + 2MN by {} to {}, the α·acc + β·C "
            "epilogue's extra operation per output and any zero padding.",
            matched, format_percent(lo), format_percent(hi)));
    if (!off.empty())
        out.push_back(
            fmt::format("Measured FLOPs differ from the executed count for {}.", join(off, ", ")));
}

void measured_roofs(const analysis& a, std::vector<std::string>& out) {
    for (const auto& [key, r] : a.source->peaks) {
        if (!r.measured || r.theoretical <= 0) continue;
        const auto unit = key == roofs::dram ? "B/s" : "FLOP/s";
        out.push_back(fmt::format("The measured {} roof is {} of the theoretical ({} against {}).",
                                  roof_display_name(key),
                                  format_percent(*r.measured / r.theoretical),
                                  format_si(*r.measured, unit), format_si(r.theoretical, unit)));
    }
}

void missing_counters(const analysis& a, std::vector<std::string>& out) {
    std::vector<std::string> names;
    for (const auto& r : a.rows)
        if (!r.ai_measured) names.push_back(name_of(r));
    if (names.empty()) return;
    out.push_back(
        fmt::format("No measured DRAM intensity for {}: those rows show the model only "
                    "(— in the tables).",
                    join(names, ", ")));
}

findings_list predicted_findings(const analysis& a) {
    findings_list out;
    out.across.push_back(
        "These findings compare the models with each other; nothing was measured on this GPU.");
    for (const auto& r : a.rows) {
        if (!r.ai_refined || !r.attainable) continue;
        out.across.push_back(fmt::format(
            "{}: the refined model expects {} at DRAM against {} on paper, so the roof allows "
            "{} TFLOP/s ({}-bound).",
            name_of(r), format_ai(*r.ai_refined), format_ai(r.ai_textbook),
            format_tflops_value(*r.attainable), r.bound == "DRAM" ? "DRAM" : "compute"));
    }
    return out;
}

}  // namespace

findings_list findings(const analysis& a) {
    if (a.source && a.source->source == profile_source::predicted) return predicted_findings(a);
    findings_list out;
    if (!a.source) return out;
    for (const auto& kernel : a.source->kernels()) {
        const auto rows = rows_of(a, kernel);
        if (rows.empty()) continue;
        const auto& big = *rows.back();
        finding_group g;
        g.heading = name_of(big);
        if (const auto s = bound_line(a, big)) g.lines.push_back(*s);
        if (const auto s = dram_line(rows, big)) g.lines.push_back(*s);
        if (const auto s = sm_line(big)) g.lines.push_back(*s);
        if (!g.lines.empty()) out.rungs.push_back(std::move(g));
        if (auto m = model_gap(big)) out.model_gaps.push_back(std::move(*m));
    }
    best_against_cublas(a, out.across);
    flop_counts(a, out.across);
    measured_roofs(a, out.across);
    missing_counters(a, out.across);
    return out;
}

std::string findings_markdown(const analysis& a) {
    const auto f = findings(a);
    std::string md;
    const auto line = [&](std::string_view s = {}) {
        md += s;
        md += '\n';
    };
    if (f.rungs.empty() && f.across.empty() && f.model_gaps.empty()) {
        line("Nothing stands out: no row has the data a finding needs.");
        return md;
    }
    if (!f.rungs.empty()) {
        line(
            "Per rung at its largest size, in ladder order; other sizes appear where the "
            "behaviour changes.");
        line();
        for (const auto& g : f.rungs) {
            line(fmt::format("- **{}**", g.heading));
            for (const auto& l : g.lines) line("  - " + l);
        }
        line();
    }
    if (!f.across.empty()) {
        if (!f.rungs.empty()) {
            line("Across rungs:");
            line();
        }
        for (const auto& l : f.across) line("- " + l);
        line();
    }
    if (!f.model_gaps.empty()) {
        line("### Refined model against measurement, in short");
        line();
        line(
            "Per rung at its largest size, the level where measured / refined is furthest from "
            "1. Shared memory is compared as load + store wavefronts together: the store "
            "wavefronts carry extra bank conflicts that depend on timing, so the two apart "
            "would show a gap the model cannot predict. The full tables follow the "
            "performance tables.");
        line();
        for (const auto& g : f.model_gaps) {
            line(fmt::format("- **{}**: {}", g.heading, join(g.lines, " ")));
            for (const auto& s : g.sub_lines) line("  - " + s);
        }
        line();
    }
    return md;
}

}  // namespace tgemm::render
