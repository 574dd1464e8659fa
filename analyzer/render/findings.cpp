#include "render/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/strings.hpp"
#include "model/levels.hpp"
#include "render/format.hpp"
#include "render/names.hpp"

namespace tgemm::render {

namespace {

// Where the refined model counts as right: outside this band a level is called a miss.
constexpr double model_band_lo = 0.8;
constexpr double model_band_hi = 1.25;

std::string name_of(const row_analysis& r) {
    return fmt::format("{} at {}", r.row->kernel, to_string(r.row->size));
}

const level_comparison* level(const row_analysis& r, std::string_view key) {
    for (const auto& l : r.levels)
        if (l.key == key) return &l;
    return nullptr;
}

// "1/41 of the textbook count", "0.62× the textbook count", "23× the prediction".
std::string share_of(double r, std::string_view what) {
    if (r < 0.1) return fmt::format("{} of {}", format_ratio(r), what);
    if (r >= 9.995) return fmt::format("{:.0f}× {}", r, what);
    return fmt::format("{:.2f}× {}", r, what);
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

void bound_and_roof(const row_analysis& r, std::vector<std::string>& out) {
    if (!r.pct_roof || r.bound.empty()) return;
    const auto kind = r.bound == "DRAM" ? std::string("DRAM-bound") : "compute-bound (FP32)";
    const auto basis = r.ai_measured ? "" : " (by the refined model's AI; DRAM was not measured)";
    out.push_back(fmt::format("{} is {} at {} of the roof{}.", name_of(r), kind,
                              format_percent(r.pct_roof), basis));
}

void dram_against_textbook(const row_analysis& r, std::vector<std::string>& out) {
    const auto* d = level(r, keys::dram_bytes);
    if (!d || !d->measured || !d->textbook) return;
    const auto ratio = d->textbook_ratio();
    if (!ratio || *ratio >= 0.5) return;
    out.push_back(
        fmt::format("L2 absorbs the re-reads of {}: DRAM traffic is {} ({} measured, {} on paper).",
                    name_of(r), share_of(*ratio, "the textbook count"),
                    format_si(*d->measured, "B"), format_si(*d->textbook, "B")));
}

void ai_against_textbook(const row_analysis& r, std::vector<std::string>& out) {
    if (!r.ai_measured || r.ai_textbook <= 0) return;
    if (*r.ai_measured < 2 * r.ai_textbook) return;
    out.push_back(fmt::format("{} moves {} on paper but {} reach DRAM.", name_of(r),
                              format_ai(r.ai_textbook), format_ai(*r.ai_measured)));
}

void l1_against_textbook(const row_analysis& r, std::vector<std::string>& out) {
    const auto* l1 = level(r, keys::l1_global_load_bytes);
    if (!l1 || !l1->measured || !l1->textbook) return;
    const auto ratio = l1->textbook_ratio();
    if (!ratio) return;
    if (*ratio < 0.9)
        out.push_back(fmt::format(
            "L1 serves {} {} of global loads where the textbook counts {} ({}): the threads of "
            "a warp share 32-byte sectors (broadcast and coalescing).",
            name_of(r), format_si(*l1->measured, "B"), format_si(*l1->textbook, "B"),
            format_ratio(*ratio)));
    else if (*ratio > 1.1)
        out.push_back(fmt::format(
            "L1 moves {} of global loads for {}, {} the textbook's {}: uncoalesced loads fetch "
            "a 32-byte sector for each 4-byte word.",
            format_si(*l1->measured, "B"), name_of(r), format_ratio(*ratio),
            format_si(*l1->textbook, "B")));
}

void bank_conflicts(const row_analysis& r, std::vector<std::string>& out) {
    const auto wf = r.row->counter(keys::smem_load_wavefronts);
    const auto conflicts = r.row->counter(keys::smem_load_bank_conflicts);
    if (!wf || !conflicts || *conflicts <= 0 || *wf <= *conflicts) return;
    // Conflicts are the extra wavefronts replayed on top of the conflict-free ones.
    const double factor = *wf / (*wf - *conflicts);
    if (factor < 1.1) return;
    const auto share =
        fmt::format("{} of {}", format_count(*conflicts, ""), format_count(*wf, "wavefronts"));
    const long ways = std::lround(factor);
    if (ways >= 2 && std::fabs(factor - double(ways)) < 0.1 * double(ways)) {
        const auto verb = ways == 2   ? std::string("double")
                          : ways == 3 ? std::string("triple")
                                      : fmt::format("multiply by {}", ways);
        out.push_back(
            fmt::format("{}-way bank conflicts {} the shared load wavefronts of {} "
                        "({} are replays).",
                        ways, verb, name_of(r), share));
    } else {
        out.push_back(fmt::format(
            "Bank conflicts add {} to the shared load wavefronts of {} ({} are replays).",
            format_percent(factor - 1), name_of(r), share));
    }
}

void model_misses(const row_analysis& r, std::vector<std::string>& out) {
    std::vector<std::string> misses;
    for (const auto& l : r.levels) {
        if (l.key == keys::dram_read_bytes || l.key == keys::dram_write_bytes) continue;
        const auto ratio = l.refined_ratio();
        if (!ratio || (*ratio >= model_band_lo && *ratio <= model_band_hi)) continue;
        misses.push_back(fmt::format("{}: measured {}", level_display_name(l.key),
                                     share_of(*ratio, "the prediction")));
    }
    if (misses.empty()) return;
    out.push_back(
        fmt::format("The refined model misses {} on {}.", name_of(r), join(misses, "; ")));
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

std::vector<std::string> predicted_findings(const analysis& a) {
    std::vector<std::string> out;
    out.push_back(
        "These findings compare the models with each other; nothing was measured on this GPU.");
    for (const auto& r : a.rows) {
        if (!r.ai_refined || !r.attainable) continue;
        out.push_back(fmt::format(
            "{}: the refined model expects {} at DRAM against {} on paper, so the roof allows "
            "{} TFLOP/s ({}-bound).",
            name_of(r), format_ai(*r.ai_refined), format_ai(r.ai_textbook),
            format_tflops_value(*r.attainable), r.bound == "DRAM" ? "DRAM" : "compute"));
    }
    return out;
}

}  // namespace

std::vector<std::string> findings(const analysis& a) {
    if (a.source && a.source->source == profile_source::predicted) return predicted_findings(a);
    std::vector<std::string> out;
    best_against_cublas(a, out);
    for (const auto& r : a.rows) bound_and_roof(r, out);
    for (const auto& r : a.rows) dram_against_textbook(r, out);
    for (const auto& r : a.rows) ai_against_textbook(r, out);
    for (const auto& r : a.rows) l1_against_textbook(r, out);
    for (const auto& r : a.rows) bank_conflicts(r, out);
    for (const auto& r : a.rows) model_misses(r, out);
    flop_counts(a, out);
    measured_roofs(a, out);
    missing_counters(a, out);
    return out;
}

}  // namespace tgemm::render
