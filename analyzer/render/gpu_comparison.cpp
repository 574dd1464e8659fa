// gpu_comparison_section (report_sections.hpp): this GPU against another, roof by roof and
// rung by rung, and per class of rung whether it followed the ratio of its bounding roof.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/strings.hpp"
#include "render/format.hpp"
#include "render/gap_causes.hpp"
#include "render/md_table.hpp"
#include "render/names.hpp"
#include "render/report_sections.hpp"
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

// The DRAM and FP32 ratios of two GPUs closer than this (in log) cannot tell memory-bound from
// compute-bound rungs apart.
constexpr double alike_ratios = 0.03;
// Below this share of its bounding roof a rung is limited by something the roofs do not show.
constexpr double far_from_roof = 0.5;

double log_gap(double a, double b) {
    return std::fabs(std::log(a / b));
}

// One roof on both GPUs: this one's over the other's.
struct roof_pair {
    std::string name;
    double ratio = 0;  // 0: one of the profiles lacks the roof
    std::string basis = "theoretical";
};

// Measured on both where both have a measured value, else theoretical. With a table, adds a
// row per basis to it.
roof_pair compare_roof(const profile& pa, const profile& pb, std::string_view key,
                       std::string_view unit, md_table* table) {
    roof_pair out{roof_table_name(key)};
    const auto ia = pa.peaks.find(key);
    const auto ib = pb.peaks.find(key);
    if (ia == pa.peaks.end() || ib == pb.peaks.end() || ib->second.theoretical <= 0) return out;
    const auto& ra = ia->second;
    const auto& rb = ib->second;
    if (table)
        table->add_row({out.name + ", theoretical", format_si(ra.theoretical, unit),
                        format_si(rb.theoretical, unit), times(ra.theoretical / rb.theoretical)});
    out.ratio = ra.theoretical / rb.theoretical;
    if (ra.measured && rb.measured && *rb.measured > 0) {
        if (table)
            table->add_row({out.name + ", measured", format_si(*ra.measured, unit),
                            format_si(*rb.measured, unit), times(*ra.measured / *rb.measured)});
        out.ratio = *ra.measured / *rb.measured;
        out.basis = "measured";
    }
    return out;
}

// A rung at one size, timed on both GPUs.
struct pair_row {
    const row_analysis* a;
    const row_analysis* b;
    [[nodiscard]] double ratio() const { return *a->tflops / *b->tflops; }
};

// What the section compares: the two analyses, their DRAM and FP32 ratios, the common rows.
struct gpu_pair {
    const analysis& a;
    const analysis& b;
    std::string ka;  // GPU keys, for headers
    std::string kb;
    roof_pair dram;
    roof_pair fp32;
    bool alike = false;  // the two ratios cannot tell memory- from compute-bound rungs
    std::vector<pair_row> pairs;
};

// The roofs table; sets g.dram and g.fp32.
std::string roofs_table(gpu_pair& g) {
    const auto& pa = *g.a.source;
    const auto& pb = *g.b.source;
    md_table t({"roof", g.ka, g.kb, fmt::format("{} / {}", g.ka, g.kb)},
               {align::left, align::right, align::right, align::right});
    g.dram = compare_roof(pa, pb, roofs::dram, "B/s", &t);
    g.fp32 = compare_roof(pa, pb, roofs::fp32, "FLOP/s", &t);
    (void)compare_roof(pa, pb, roofs::l2, "B/s", &t);
    (void)compare_roof(pa, pb, roofs::smem, "B/s", &t);
    g.alike = g.dram.ratio <= 0 || g.fp32.ratio <= 0 ||
              log_gap(g.dram.ratio, g.fp32.ratio) < alike_ratios;
    return t.str() + "\n";
}

// Rows both profiles timed, in this report's size and ladder order.
std::vector<pair_row> common_rows(const analysis& a, const analysis& b) {
    std::vector<pair_row> pairs;
    for (const auto& s : a.source->shapes())
        for (const auto* ra : rows_at(a, s))
            if (const auto* rb = b.find(ra->row->kernel, s);
                rb && ra->tflops && rb->tflops && *rb->tflops > 0)
                pairs.push_back({ra, rb});
    return pairs;
}

std::string bound_cell(const row_analysis& r) {
    return r.bound_roof.empty() ? std::string(missing_mark) : roof_word(r.bound_roof);
}

// TFLOP/s on both GPUs per common row, and which roof ratio each speed-up is closer to.
std::string speedup_table(const gpu_pair& g) {
    std::string md = fmt::format(
        "TFLOP/s (2MNK / median time) on both GPUs for the rungs and sizes both profiles have; "
        "ratio = {} / {}. A speed-up \"follows\" the DRAM or the FP32 ratio it is closer to (in "
        "log); the {} DRAM ratio is {}, the {} FP32 ratio {}.\n\n",
        g.ka, g.kb, g.dram.basis, times(g.dram.ratio), g.fp32.basis, times(g.fp32.ratio));
    const auto follows = [&](double s) {
        if (g.alike) return std::string(missing_mark);
        return log_gap(s, g.dram.ratio) < log_gap(s, g.fp32.ratio) ? std::string("DRAM ratio")
                                                                   : std::string("FP32 ratio");
    };
    md_table t({"kernel", "size", fmt::format("TFLOP/s {}", g.ka), fmt::format("TFLOP/s {}", g.kb),
                fmt::format("{} / {}", g.ka, g.kb), fmt::format("bound on {}", g.ka),
                fmt::format("bound on {}", g.kb), "follows"},
               {align::left, align::left, align::right, align::right, align::right, align::left,
                align::left, align::left});
    for (const auto& p : g.pairs)
        t.add_row({p.a->row->kernel, to_string(p.a->row->size),
                   format_tflops_value(*p.a->tflops * 1e12),
                   format_tflops_value(*p.b->tflops * 1e12), times(p.ratio()), bound_cell(*p.a),
                   bound_cell(*p.b), follows(p.ratio())});
    return md + t.str() + "\n";
}

// Each rung's largest common size (most FLOPs; the cube where two sizes tie).
std::vector<const pair_row*> largest_per_rung(const std::vector<pair_row>& pairs) {
    std::vector<const pair_row*> largest;
    for (const auto& p : pairs) {
        auto it = std::find_if(largest.begin(), largest.end(), [&](const pair_row* q) {
            return q->a->row->kernel == p.a->row->kernel;
        });
        if (it == largest.end())
            largest.push_back(&p);
        else if (p.a->useful_flops > (*it)->a->useful_flops ||
                 (p.a->useful_flops == (*it)->a->useful_flops && p.a->row->size.square()))
            *it = &p;
    }
    return largest;
}

// "- Bound by the DRAM roof on h100 (naive, …): that roof is 1.43× (measured) on h200; …".
std::string class_line(const gpu_pair& g, const std::string& key,
                       const std::vector<const pair_row*>& largest) {
    // The bounding roof's own ratio: DRAM-bound rungs gain with DRAM, L2-bound ones with L2,
    // shared-memory- and FP32-bound ones with neither (same SMs, same clock).
    const auto expected = key == roofs::fp32 ? g.fp32
                          : key == roofs::dram
                              ? g.dram
                              : compare_roof(*g.a.source, *g.b.source, key, "B/s", nullptr);
    std::vector<std::string> members, did, did_not, far;
    for (const auto* p : largest) {
        if (p->b->bound_roof != key) continue;
        members.push_back(p->a->row->kernel);
        const double s = p->ratio();
        // A roof that did not change: "followed" means no change either. A roof that did:
        // closer to its ratio than to no change.
        const bool followed =
            expected.ratio > 0 && (log_gap(expected.ratio, 1.0) < alike_ratios
                                       ? log_gap(s, 1.0) < alike_ratios
                                       : log_gap(s, expected.ratio) < log_gap(s, 1.0));
        (followed ? did : did_not).push_back(fmt::format("{} ({})", p->a->row->kernel, times(s)));
        if (p->b->pct_bound_roof && *p->b->pct_bound_roof < far_from_roof)
            far.push_back(fmt::format("{} ({} of it)", p->a->row->kernel,
                                      format_percent(*p->b->pct_bound_roof)));
    }
    std::string s = fmt::format("- Bound by the {} roof on {} ({}): ", roof_word(key), g.kb,
                                join(members, ", "));
    if (expected.ratio <= 0) {
        s += fmt::format("one of the profiles has no {} roof to compare", roof_word(key));
    } else {
        s += fmt::format("that roof is {} ({}) on {}", times(expected.ratio), expected.basis, g.ka);
        if (!did.empty()) s += fmt::format("; {} followed it", join(did, ", "));
        if (!did_not.empty()) s += fmt::format("; {} did not", join(did_not, ", "));
    }
    if (!far.empty())
        s += fmt::format(
            "; {} ran far below that roof on {}, so what limits {} is not a roof drawn here "
            "(latency, L1 traffic, instruction issue)",
            join(far, ", "), g.kb, far.size() == 1 ? "it" : "them");
    return s + ".\n";
}

// Per class of rung (its bound on the other GPU), at each rung's largest common size.
std::string classes(const gpu_pair& g) {
    if (g.alike)
        return fmt::format(
            "The DRAM and FP32 ratios are alike ({} and {}), so the speed-ups cannot tell "
            "memory-bound from compute-bound rungs apart.\n\n",
            times(g.dram.ratio), times(g.fp32.ratio));
    const auto largest = largest_per_rung(g.pairs);
    std::vector<std::string> keys;
    for (const auto* p : largest) {
        const auto& key = p->b->bound_roof;
        if (!key.empty() && std::find(keys.begin(), keys.end(), key) == keys.end())
            keys.push_back(key);
    }
    std::string md = fmt::format(
        "At each rung's largest common size, by its bound on {}. A rung should speed up by the "
        "ratio of the roof that bounds it (measured on both GPUs where both were measured), "
        "and only if it runs close to that roof:\n\n",
        g.kb);
    for (const auto& key : keys) md += class_line(g, key, largest);
    return md + "\n";
}

}  // namespace

std::string gpu_comparison_section(const analysis& a, const analysis& b,
                                   std::string_view other_label) {
    gpu_pair g{a, b, a.source->gpu.key, b.source->gpu.key, {}, {}, false, {}};
    const std::string label = other_label.empty() ? b.source->gpu.name : std::string(other_label);
    std::string md = fmt::format("## {} against {}\n\n", a.source->gpu.name, label);
    md += roofs_table(g);
    g.pairs = common_rows(a, b);
    if (g.pairs.empty())
        return md + fmt::format("The two profiles have no timed rung at a common size.\n\n");
    return md + speedup_table(g) + classes(g);
}

}  // namespace tgemm::render
