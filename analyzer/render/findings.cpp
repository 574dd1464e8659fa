#include "render/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/strings.hpp"
#include "model/levels.hpp"
#include "model/rung_model.hpp"
#include "render/format.hpp"
#include "render/gap_causes.hpp"
#include "render/names.hpp"
#include "render/tensor_steps.hpp"
#include "render/why_words.hpp"

namespace tgemm::render {

namespace {

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
    return fmt::format("{}{}{}", times(r), r < 0.1 ? " of " : " ", what);
}

// The rows of one rung, smallest problem first.
std::vector<const row_analysis*> rows_of(const analysis& a, std::string_view kernel) {
    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows)
        if (r.row->kernel == kernel) rows.push_back(&r);
    // Equal FLOPs (2048³ and 4096×2048×1024): the cube counts as the larger.
    std::stable_sort(rows.begin(), rows.end(), [](const auto* l, const auto* r) {
        if (l->useful_flops != r->useful_flops) return l->useful_flops < r->useful_flops;
        return !l->row->size.square() && r->row->size.square();
    });
    return rows;
}

std::optional<double> fma_count(const row_analysis& r) {
    if (const auto f = r.row->counter(keys::ffma); f && *f > 0) return f;
    if (r.executed_flops && *r.executed_flops > 0) return *r.executed_flops / 2;
    return std::nullopt;
}

bool tensor_rung(const row_analysis& r) {
    return compute_roof_key(r.row->dtype) != roofs::fp32;
}

// A tensor rung's FFMAs are its epilogue's, so no per-FMA figure: "16.8 MB of L1 global load
// traffic; 3.15 M wgmma operand wavefronts; 268.4 MB of TMA loads".
std::string inside_the_sm_tensor(const row_analysis& r) {
    const auto& m = *r.row;
    std::vector<std::string> parts;
    if (const auto l1 = m.counter(keys::l1_global_load_bytes); l1 && *l1 > 0)
        parts.push_back(format_si(*l1, "B") + " of L1 global load traffic");
    const double lsu = m.counter(keys::smem_load_wavefronts).value_or(0) +
                       m.counter(keys::smem_store_wavefronts).value_or(0);
    if (lsu > 0) parts.push_back(format_count(lsu, "shared wavefronts (load + store)"));
    if (const auto g = m.counter(keys::smem_gmma_wavefronts); g && *g > 0)
        parts.push_back(format_count(*g, "wgmma operand wavefronts"));
    if (const auto t = m.counter(keys::tma_load_bytes); t && *t > 0)
        parts.push_back(format_si(*t, "B") + " of TMA loads");
    return join(parts, "; ");
}

// "35.5 GB of L1 global load traffic, 33.1 B per FMA; 1.21 G shared wavefronts (load +
// store), 2.00 per warp-wide FFMA": the traffic that stays inside the SM.
std::string inside_the_sm(const row_analysis& r) {
    if (tensor_rung(r)) return inside_the_sm_tensor(r);
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

// The roofs the bound was taken over: the compute roof and every level with an attainable.
std::vector<std::string> roofs_checked(const row_analysis& r) {
    std::vector<std::string> out = {roof_word(r.compute_roof)};
    for (const auto& p : r.hierarchy)
        if (p.attainable) out.push_back(roof_word(p.roof_key));
    return out;
}

std::optional<std::string> bound_line(const analysis& a, const row_analysis& r) {
    if (r.bound_roof.empty() || !r.bound_attainable || !r.achieved_flops_per_s) return std::nullopt;
    bound_inputs in;
    in.roof = roof_word(r.bound_roof);
    in.compute = r.bound_roof == r.compute_roof;
    if (r.compute_roof != roofs::fp32) {
        in.tensor_roof = roof_word(r.compute_roof);
        in.tensor_roof_value = a.roof_value(r.compute_roof).value_or(0);
    }
    in.attainable = *r.bound_attainable;
    in.achieved = *r.achieved_flops_per_s;
    if (const auto* p = r.level(r.bound_roof); p && !in.compute) {
        in.ai = p->ai_measured ? p->ai_measured : p->ai_refined;
        in.model_ai = !p->ai_measured;
    }
    in.roofs_checked = roofs_checked(r);
    in.inside_sm = inside_the_sm(r);
    return bound_sentence(in);
}

// DRAM reads as a multiple of the compulsory A + B + C reads.
std::optional<double> reads_over_compulsory(const row_analysis& r) {
    const auto rd = r.row->counter(keys::dram_read_bytes);
    const double c = model::compulsory_read_bytes(r.row->size);
    if (!rd || c <= 0) return std::nullopt;
    return *rd / c;
}

// How DRAM reads change from the next smaller size to the largest: "at 2048³ DRAM reads are
// 1.02× the compulsory A + B + C (the operands stay in L2), at 4096³ they are 42×".
std::string l2_spill(const std::vector<const row_analysis*>& rows, const row_analysis& big) {
    const auto big_ratio = reads_over_compulsory(big);
    if (!big_ratio) return {};
    const row_analysis* prev = nullptr;
    for (const auto* r : rows)
        if (r != &big && r->useful_flops < big.useful_flops && reads_over_compulsory(*r)) prev = r;
    if (!prev) return {};
    return l2_spill_clause(prev->row->size, *reads_over_compulsory(*prev), big.row->size,
                           *big_ratio)
        .value_or("");
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
    if (g.key == keys::flops || g.key == keys::tensor_flops) return format_count(v, "FLOP");
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
        // Against a band, the gap is to its nearer end, and none inside it.
        if (l.band) {
            if (l.band_ratio() == 1.0) continue;
            const double end = *l.measured < l.band->low ? l.band->low : l.band->high;
            if (end > 0)
                out.push_back(
                    {level_display_name(l.key) + " (against its band)", l.key, end, *l.measured});
            continue;
        }
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

// A model's typed DRAM read band (model::set_dram_read_band) and the note that words it. Only
// a typed band counts: a note alone excuses nothing, and the shipped-profile test asserts the
// reads inside the band.
bool is_dram_band_note(const std::string& n) {
    return n.starts_with("DRAM band:");
}

bool has_dram_band(const row_analysis& r) {
    return r.row->model.refined.dram_read_band.has_value();
}

// What the counters say about a refined-model miss, as a clause.
std::string refined_cause(const row_analysis& r, const gap& g) {
    if (g.key == keys::dram_bytes && has_dram_band(r)) {
        const auto& band = *r.row->model.refined.dram_read_band;
        return fmt::format(
            "the model gives a read band of {} to {} for an effect it does not derive (its "
            "\"DRAM band\" note under \"Model against measurement\")",
            format_si(band.low, "B"), format_si(band.high, "B"));
    }
    if (g.key == keys::smem_load_wavefronts && g.ratio() > 1) {
        const double measured = r.row->counter(keys::smem_load_bank_conflicts).value_or(0) +
                                r.row->counter(keys::smem_store_bank_conflicts).value_or(0);
        const double refined =
            r.row->model.refined.get(keys::smem_load_bank_conflicts).value_or(0) +
            r.row->model.refined.get(keys::smem_store_bank_conflicts).value_or(0);
        if (measured > refined)
            return fmt::format(
                "the counters show {} bank-conflict replays where the model "
                "counts {}",
                format_count(measured, ""), format_count(refined, ""));
    }
    return {};
}

// One cause the findings may print for a rung. Tier 1: what the hardware does (caching,
// coalescing, conflicts, model misses); tier 2: counts the textbook makes at another level
// than the counter measures. Within a tier the larger gap (|log ratio|) comes first; a rung
// prints at most one cause per group.
struct cause {
    int tier = 1;
    double distance = 0;
    std::string group;
    std::string sentence;
};

double log_distance(double ratio) {
    return std::fabs(std::log(std::max(ratio, 1e-3)));
}

std::vector<cause> causes_of(const std::vector<const row_analysis*>& rows, const row_analysis& r) {
    std::vector<cause> out;
    const auto add = [&](int tier, double ratio, std::string group,
                         std::optional<std::string> sentence) {
        if (sentence) out.push_back({tier, log_distance(ratio), std::move(group), *sentence});
    };
    const auto& m = *r.row;
    // The compulsory A + B + C and the element accesses × 4 B below count FP32 operands; a
    // tensor rung's C may have another type than A and B, so those rules stay FP32-only.
    const bool fp32 = !tensor_rung(r);
    // Where the refined DRAM count is the textbook's (cuBLAS: compulsory traffic), the
    // refined-model miss below says it all.
    if (const auto* d = level(r, keys::dram_bytes);
        d && d->measured && d->textbook && !(d->refined && *d->refined == *d->textbook))
        add(1, *d->textbook_ratio(), "dram",
            dram_against_textbook(*d->measured, *d->textbook, fp32 ? l2_spill(rows, r) : ""));
    if (const auto w = m.counter(keys::dram_write_bytes); w && fp32) {
        const double c = model::compulsory_write_bytes(m.size);
        if (c > 0) add(1, *w / c, "dram_write", dram_writes(*w, c, m.size));
    }
    const auto* shared = r.level(roofs::smem);
    const bool uses_shared = shared && shared->bytes_measured && *shared->bytes_measured > 0;
    if (const auto* l1 = level(r, keys::l1_global_load_bytes); l1 && l1->measured && l1->textbook) {
        const double ratio = *l1->textbook_ratio();
        add(ratio < gap_band_lo && uses_shared ? 2 : 1, ratio, "l1",
            l1_against_textbook(*l1->measured, *l1->textbook, uses_shared));
    }
    const auto wf = m.counter(keys::smem_load_wavefronts);
    const auto conflicts = m.counter(keys::smem_load_bank_conflicts);
    if (wf && conflicts && *wf > *conflicts)
        add(1, *wf / (*wf - *conflicts), "shared", bank_conflicts(*wf, *conflicts));
    if (fp32 && shared && shared->bytes_measured && shared->bytes_textbook)
        add(2, *shared->bytes_measured / *shared->bytes_textbook, "shared",
            shared_against_textbook(*shared->bytes_measured, *shared->bytes_textbook));
    for (const auto& g : gaps_of(r))
        add(1, g.ratio(), "refined:" + g.key,
            refined_miss({g.name, g.ratio(), gap_value(g, g.measured), gap_value(g, g.refined),
                          refined_cause(r, g)}));
    std::stable_sort(out.begin(), out.end(), [](const cause& l, const cause& r) {
        if (l.tier != r.tier) return l.tier < r.tier;
        return l.distance > r.distance;
    });
    return out;
}

// The rung's largest gaps with their causes, one per group, at most `n`.
std::vector<std::string> top_causes(const std::vector<const row_analysis*>& rows,
                                    const row_analysis& r, std::size_t n) {
    std::vector<std::string> out, groups;
    for (const auto& c : causes_of(rows, r)) {
        if (out.size() == n) break;
        if (std::find(groups.begin(), groups.end(), c.group) != groups.end()) continue;
        groups.push_back(c.group);
        out.push_back(c.sentence);
    }
    return out;
}

std::optional<finding_group> model_gap(const row_analysis& r) {
    auto gaps = gaps_of(r);
    if (gaps.empty()) return std::nullopt;
    std::stable_sort(gaps.begin(), gaps.end(),
                     [](const gap& l, const gap& r) { return l.distance() > r.distance(); });
    const auto& g = gaps.front();
    const auto in_band = [](const gap& x) { return !outside_band(x.ratio()); };
    finding_group out;
    out.heading = name_of(r);
    auto s = fmt::format("largest gap: {}, measured {} ({} against {})", g.name,
                         share_of(g.ratio(), "the refined model"), gap_value(g, g.measured),
                         gap_value(g, g.refined));
    if (in_band(g)) {
        s += fmt::format("; every level is within {}–{}×.", gap_band_lo, gap_band_hi);
    } else {
        std::vector<std::string> also;
        for (std::size_t i = 1; i < gaps.size(); ++i)
            if (!in_band(gaps[i]))
                also.push_back(fmt::format("{} {}", gaps[i].name, format_ratio(gaps[i].ratio())));
        s += also.empty() ? "."
                          : fmt::format("; also outside {}–{}×: {}.", gap_band_lo, gap_band_hi,
                                        join(also, ", "));
    }
    out.lines.push_back(s);
    if (has_dram_band(r))
        for (const auto& n : r.row->model.refined.notes)
            if (is_dram_band_note(n)) out.sub_lines.push_back(n);
    return out;
}

// The largest row of each rung, ladder order.
std::vector<const row_analysis*> largest_rows(const analysis& a) {
    std::vector<const row_analysis*> out;
    for (const auto& kernel : a.source->kernels()) {
        const auto rows = rows_of(a, kernel);
        if (!rows.empty()) out.push_back(rows.back());
    }
    return out;
}

// How the bound is taken: over the FP32 roof, or, once tensor rungs are in the profile, over
// each rung's own compute roof.
std::string bound_rule(const analysis& a) {
    const bool tensor = std::any_of(a.rows.begin(), a.rows.end(),
                                    [](const row_analysis& r) { return tensor_rung(r); });
    return tensor ? "the lowest of the rung's compute roof (FP32, or the tensor roof of its input "
                    "type) and each memory level's AI × bandwidth"
                  : "the lowest of the FP32 roof and each memory level's AI × bandwidth";
}

// "At each rung's largest size the FP32 roof bounds cublas, sm90_fp32; the DRAM roof bounds
// naive."
void bounds_summary(const analysis& a, std::vector<std::string>& out) {
    std::vector<std::string> order;
    std::vector<std::vector<std::string>> names;
    for (const auto* r : largest_rows(a)) {
        if (r->bound_roof.empty()) continue;
        auto it = std::find(order.begin(), order.end(), r->bound_roof);
        if (it == order.end()) {
            order.push_back(r->bound_roof);
            names.emplace_back();
            it = order.end() - 1;
        }
        names[std::size_t(it - order.begin())].push_back(r->row->kernel);
    }
    if (order.empty()) return;
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < order.size(); ++i)
        parts.push_back(
            fmt::format("the {} roof bounds {}", roof_word(order[i]), join(names[i], ", ")));
    out.push_back(
        fmt::format("At each rung's largest size {} ({}).", join(parts, "; "), bound_rule(a)));
}

// "FP32", "BF16": how a sentence names an input type.
std::string dtype_word(std::string_view dtype) {
    std::string out(dtype);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

// Per size and input type, the fastest rung against the cuBLAS row of its type.
void best_against_cublas(const analysis& a, std::vector<std::string>& out) {
    std::vector<std::string> dtypes;
    for (const auto& r : a.rows)
        if (std::find(dtypes.begin(), dtypes.end(), r.row->dtype) == dtypes.end())
            dtypes.push_back(r.row->dtype);
    for (const auto& s : a.source->shapes())
        for (const auto& dtype : dtypes) {
            const auto* ref = a.find(reference_kernel(dtype), s);
            const row_analysis* best = nullptr;
            for (const auto& r : a.rows)
                if (r.row->size == s && r.row->dtype == dtype &&
                    !is_reference_kernel(r.row->kernel) && r.pct_cublas &&
                    (!best || *r.pct_cublas > *best->pct_cublas))
                    best = &r;
            if (!best || !ref) continue;
            // FP32 keeps the wording of the FP32-only ladder.
            const auto type =
                compute_roof_key(dtype) == roofs::fp32 ? std::string() : dtype_word(dtype);
            out.push_back(fmt::format(
                "At {} the fastest {}{}rung is {} at {} of cuBLAS{}{} ({} against {} TFLOP/s).",
                to_string(s), type, type.empty() ? "" : " ", best->row->kernel,
                format_percent(best->pct_cublas), type.empty() ? "" : " ", type,
                format_tflops_value(*best->tflops * 1e12),
                format_tflops_value(*ref->tflops * 1e12)));
        }
}

// Whether a row's FLOP counters (FP32, and tensor where it has them) equal its refined model;
// a mismatch is added to `off`. Returns false where the row has no count and model to compare.
bool flops_compared(const row_analysis& r, bool& matches, std::vector<std::string>& off) {
    bool compared = false;
    matches = true;
    for (const auto key : {keys::flops, keys::tensor_flops}) {
        const auto* f = level(r, key);
        if (!f || !f->measured || !f->refined) continue;
        compared = true;
        if (matches && std::fabs(*f->refined_ratio() - 1) > 1e-4) {
            matches = false;
            off.push_back(fmt::format("{} ({}{})", name_of(r),
                                      key == keys::tensor_flops ? "tensor FLOPs " : "",
                                      format_ratio(*f->refined_ratio())));
        }
    }
    return compared;
}

void flop_counts(const analysis& a, std::vector<std::string>& out) {
    int matched = 0;
    double lo = 1e300, hi = -1e300;
    std::vector<std::string> off;
    for (const auto& r : a.rows) {
        bool matches = false;
        if (!flops_compared(r, matches, off) || !matches) continue;
        ++matched;
        // Executed FLOPs (FP32 + tensor) against the seed count.
        const double seed = r.row->model.textbook.flops;
        if (r.executed_flops && seed > 0) {
            lo = std::min(lo, *r.executed_flops / seed - 1);
            hi = std::max(hi, *r.executed_flops / seed - 1);
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

// "The micro-benchmarks measured FP32 at 95.1 % of its theoretical value at the measured
// clock, DRAM at 90.2 %; the bound uses the measured roofs."
void measured_roofs(const analysis& a, std::vector<std::string>& out) {
    std::vector<std::string> parts;
    for (const auto& [key, r] : a.source->peaks) {
        const auto ratio = r.ratio();
        if (!ratio) continue;
        parts.push_back(fmt::format("{} at {}", roof_word(key), format_percent(*ratio)));
    }
    if (parts.empty()) return;
    out.push_back(fmt::format(
        "The micro-benchmarks measured {} of the theoretical roofs (at the clock they ran at, "
        "where known); the bound uses the measured roofs.",
        join(parts, ", ")));
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
    for (const auto* rp : largest_rows(a)) {
        const auto& r = *rp;
        if (!r.ai_refined || r.bound_roof.empty() || !r.bound_attainable) continue;
        out.across.push_back(fmt::format(
            "{}: the refined model expects {} at DRAM against {} on paper; the lowest roof is "
            "the {} roof, at {} TFLOP/s.",
            name_of(r), format_ai(*r.ai_refined), format_ai(r.ai_textbook), roof_word(r.bound_roof),
            format_tflops_value(*r.bound_attainable)));
    }
    return out;
}

// "### <title>": one bullet per step, one sub-bullet per line.
std::string steps_markdown(std::string_view title, std::string_view intro,
                           const std::vector<finding_group>& steps) {
    if (steps.empty()) return {};
    std::string md = fmt::format("### {}\n\n{}\n\n", title, intro);
    for (const auto& g : steps) {
        md += fmt::format("- **{}**\n", g.heading);
        for (const auto& l : g.lines) md += "  - " + l + "\n";
    }
    return md + "\n";
}

constexpr std::string_view steps_intro =
    "Each step from one rung to the next at the focus size, in ladder order: what it buys in "
    "TFLOP/s, then each level whose counters changed (by more than 1 %; DRAM by more than "
    "10 %), from the first rung's value to the second's, then which factor of Little's law "
    "moved (cycles = instructions × L ÷ W; docs/why.md). The levels and counters: "
    "docs/report.md.";

}  // namespace

findings_list findings(const analysis& a) {
    if (a.source && a.source->source == profile_source::predicted) return predicted_findings(a);
    findings_list out;
    if (!a.source) return out;
    for (const auto* big : largest_rows(a)) {
        const auto rows = rows_of(a, big->row->kernel);
        finding_group g;
        g.heading = name_of(*big);
        if (const auto s = bound_line(a, *big)) {
            // The measured cause, and for a rung far below every roof the bound that holds it.
            const auto ex = execution_of(*big->row, a.source->gpu, big->executed_flops);
            const auto why = why_sentence(ex, big->pct_bound_roof);
            g.lines.push_back(why ? *s + " " + *why : *s);
            const auto brief = short_why(ex, big->pct_bound_roof);
            g.summary = brief ? *s + " " + *brief : *s;
        }
        for (auto& s : top_causes(rows, *big, 2)) g.lines.push_back(std::move(s));
        if (!g.lines.empty()) out.rungs.push_back(std::move(g));
        if (auto m = model_gap(*big)) out.model_gaps.push_back(std::move(*m));
    }
    out.tensor_steps = tensor_ladder_steps(a);
    out.fp32_steps = fp32_ladder_steps(a);
    out.contradictions = fewer_bytes_yet_slower(a);
    bounds_summary(a, out.across);
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
        line(fmt::format(
            "Per rung at its largest size, in ladder order: the roof that bounds it ({}) and how "
            "far below it the rung runs, then its largest gaps between measurement and the "
            "models, with their causes. Other sizes appear where the behaviour changes.",
            bound_rule(a)));
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
    md += steps_markdown(
        "Fewer bytes, yet slower",
        "Rungs that move no more L1 global-load and DRAM bytes than an earlier rung and still "
        "run slower, each against the fastest such earlier rung; the execution counters say "
        "what set the time instead.",
        f.contradictions);
    md += steps_markdown("FP32 ladder, step by step", steps_intro, f.fp32_steps);
    md += steps_markdown("Tensor ladder, step by step", steps_intro, f.tensor_steps);
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
