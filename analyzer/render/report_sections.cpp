#include "render/report_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/peak_checks.hpp"
#include "analysis/published.hpp"
#include "core/strings.hpp"
#include "render/format.hpp"
#include "render/gap_causes.hpp"
#include "render/md_table.hpp"
#include "render/roofline_layout.hpp"

namespace tgemm::render {

namespace {

// The DRAM and FP32 ratios of two GPUs closer than this (in log) cannot tell memory-bound from
// compute-bound rungs apart.
constexpr double alike_ratios = 0.03;
// Below this share of its bounding roof a rung is limited by something the roofs do not show.
constexpr double far_from_roof = 0.5;

std::string code(std::string_view s) {
    return fmt::format("`{}`", s);
}

bool predicted(const analysis& a) {
    return a.source->source == profile_source::predicted;
}

// "FP32", "DRAM", "L2", "shared memory": the peaks table's names.
std::string peak_name(std::string_view key) {
    auto s = roof_word(key);
    std::replace(s.begin(), s.end(), '-', ' ');
    return s;
}

std::string unit_of(std::string_view key, const roof& r) {
    if (!r.unit.empty()) return r.unit;
    return key == roofs::fp32 || key.starts_with("tensor") ? "FLOP/s" : "B/s";
}

// The rows at `s`, in ladder order (the profile's first-seen kernel order).
std::vector<const row_analysis*> rows_at(const analysis& a, const shape& s) {
    std::vector<const row_analysis*> rows;
    for (const auto& k : a.source->kernels())
        if (const auto* r = a.find(k, s)) rows.push_back(r);
    return rows;
}

std::string sizes_list(const analysis& a) {
    std::vector<std::string> out;
    for (const auto& s : a.source->shapes()) out.push_back(to_string(s));
    return join(out, ", ");
}

// The square sizes, "1024³, 2048³, 4096³"; all sizes where none is square.
std::string square_sizes(const analysis& a) {
    std::vector<std::string> out;
    for (const auto& s : a.source->shapes())
        if (s.square()) out.push_back(to_string(s));
    return out.empty() ? sizes_list(a) : join(out, ", ");
}

// The level names the rows at the focus size have, in hierarchy order: "DRAM, L2 and shared".
std::string level_names(const analysis& a, const shape& s) {
    std::vector<std::string> names;
    for (const auto* r : rows_at(a, s))
        for (const auto& p : r->hierarchy)
            if (std::find(names.begin(), names.end(), p.name) == names.end())
                names.push_back(p.name);
    if (names.size() < 2) return names.empty() ? std::string("DRAM") : names.front();
    const std::vector<std::string> head(names.begin(), names.end() - 1);
    return join(head, ", ") + " and " + names.back();
}

std::string default_method(const gpu_info& g, std::string_view key) {
    if (key == roofs::fp32)
        return fmt::format("{} SMs × {} lanes × 2 FLOP × {:.0f} MHz", g.sm_count,
                           g.fp32_lanes_per_sm, g.sm_clock_mhz);
    if (key == roofs::dram)
        return fmt::format("{}/8 B × {:.0f} MHz × 2 transfers", g.bus_width_bits, g.mem_clock_mhz);
    return "GPU specification";
}

// Peaks keys in reading order: compute roofs, then memory from DRAM inwards, then the rest.
std::vector<std::string> peak_order(const profile& p) {
    std::vector<std::string> order;
    for (const auto key : {roofs::fp32, roofs::tensor_tf32, roofs::tensor_fp16, roofs::tensor_bf16,
                           roofs::dram, roofs::dram_copy, roofs::l2, roofs::smem})
        if (p.peaks.contains(key)) order.emplace_back(key);
    for (const auto& [k, r] : p.peaks)
        if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    return order;
}

bool any_measured_roof(const analysis& a) {
    return std::any_of(a.source->peaks.begin(), a.source->peaks.end(),
                       [](const auto& kv) { return kv.second.measured.has_value(); });
}

double log_gap(double a, double b) {
    return std::fabs(std::log(a / b));
}

}  // namespace

std::string plots_section(const analysis& a, const report_options& o) {
    const auto& p = *a.source;
    const bool pred = predicted(a);
    const auto tag = pred ? fmt::format(", {}", predicted_tag) : std::string();
    const auto focus = a.focus_size();
    const auto at = focus ? " at " + to_string(*focus) : std::string();
    const bool has_cublas = std::any_of(a.rows.begin(), a.rows.end(),
                                        [](const auto& r) { return r.row->kernel == "cublas"; });
    std::string md = "## Plots\n\n";
    const auto plot = [&](std::string_view png, std::string_view svg, std::string_view alt,
                          std::string_view caption) {
        md += fmt::format("![{}{}]({})\n\n", alt, tag, png);
        md += fmt::format("{} Vector version: [{}]({}).\n\n", caption, svg, svg);
    };
    const auto stem = [](const std::string& s, std::string_view ext) {
        return fmt::format("{}.{}", s, ext);
    };
    if (pred)
        md += fmt::format("Every plot here is {}: the markers and bars are the models'.\n\n",
                          predicted_tag);
    if (focus)
        plot(stem(o.hierarchical_stem, "png"), stem(o.hierarchical_stem, "svg"),
             fmt::format("Hierarchical roofline of {}{}", p.gpu.name, at),
             fmt::format("Hierarchical roofline{}: each rung has one point per memory level ({}) "
                         "at that level's {} arithmetic intensity, under the level's bandwidth "
                         "roof and the FP32 roof; the lowest roof over a rung bounds it.",
                         at, level_names(a, *focus), pred ? "predicted" : "measured"));
    plot(o.png_path, o.svg_path, fmt::format("Roofline of {}", p.gpu.name),
         pred ? fmt::format("DRAM roofline at every size ({}): dashed markers sit at the refined "
                            "model's DRAM arithmetic intensity, on the roof, hollow markers at the "
                            "textbook intensity; colour is the kernel, shape the size.",
                            sizes_list(a))
              : fmt::format("DRAM roofline at every size ({}): filled markers sit at the measured "
                            "DRAM arithmetic intensity and the executed FLOP rate, hollow markers "
                            "at the textbook intensity, on the roof; colour is the kernel, shape "
                            "the size.",
                            sizes_list(a)));
    if (focus)
        plot(stem(o.bytes_stem, "png"), stem(o.bytes_stem, "svg"),
             fmt::format("Bytes per level on {}{}", p.gpu.name, at),
             fmt::format("Bytes per level{}: one panel per level, each rung's {} bytes side by "
                         "side on one log scale.",
                         at, pred ? "textbook and refined" : "textbook, refined and measured"));
    plot(stem(o.ai_stem, "png"), stem(o.ai_stem, "svg"),
         fmt::format("Arithmetic intensity against size on {}", p.gpu.name),
         fmt::format("DRAM arithmetic intensity of each rung against N ({}): {} solid, textbook "
                     "dashed, the DRAM ridge for reference.",
                     square_sizes(a), pred ? "refined model" : "measured"));
    if (focus)
        plot(stem(o.tflops_stem, "png"), stem(o.tflops_stem, "svg"),
             fmt::format("TFLOP/s per rung on {}{}", p.gpu.name, at),
             pred ? fmt::format("Predicted TFLOP/s of each rung{} at its bounding roof (hollow "
                                "bars){}.",
                                at,
                                published_points(p.gpu.key).empty()
                                    ? ""
                                    : ", with the published measurements as filled diamonds")
                  : fmt::format("TFLOP/s of each rung{} (2MNK / median time){}.", at,
                                has_cublas ? " against cuBLAS and the FP32 roof"
                                           : " against the FP32 roof"));
    return md;
}

std::string peaks_section(const analysis& a) {
    const auto& p = *a.source;
    const auto& g = p.gpu;
    std::string md = "## GPU and peaks\n\n";
    md += fmt::format(
        "{} ({}), compute capability {}: {} SMs × {} FP32 lanes, SM clock {:.0f} MHz, memory "
        "clock {:.0f} MHz on a {}-bit bus, L2 {:.0f} MiB.\n\n",
        g.name, code(g.key), g.cc, g.sm_count, g.fp32_lanes_per_sm, g.sm_clock_mhz, g.mem_clock_mhz,
        g.bus_width_bits, double(g.l2_bytes) / (1 << 20));
    const bool any_measured = std::any_of(p.peaks.begin(), p.peaks.end(),
                                          [](const auto& kv) { return kv.second.measured; });
    const auto order = peak_order(p);
    if (!any_measured) {
        md += predicted(a) ? "Nothing was measured on this GPU: every roof below is theoretical, "
                             "from the GPU specification.\n\n"
                           : "This profile has no measured peaks (an older profile, or a run "
                             "with `--no-peaks`): the plots and the bound use the theoretical "
                             "roofs.\n\n";
        md_table t({"roof", "theoretical", "how derived"}, {align::left, align::right});
        for (const auto& key : order) {
            const auto& r = p.peaks.at(key);
            t.add_row({peak_name(key), format_si(r.theoretical, unit_of(key, r)),
                       r.method.empty() ? default_method(g, key) : r.method});
        }
        md += t.str();
    } else {
        md_table t({"roof", "theoretical", "how derived", "theoretical at measured clock",
                    "measured", "measured / reference", "clock", "how measured", "note"},
                   {align::left, align::right, align::left, align::right, align::right,
                    align::right, align::right, align::left, align::left});
        for (const auto& key : order) {
            const auto& r = p.peaks.at(key);
            const auto unit = unit_of(key, r);
            t.add_row(
                {peak_name(key), format_si(r.theoretical, unit),
                 r.method.empty() ? default_method(g, key) : r.method,
                 format_si(r.theoretical_at_clock, unit), format_si(r.measured, unit),
                 format_ratio(r.ratio()),
                 r.clock_mhz ? fmt::format("{:.0f} MHz", *r.clock_mhz) : std::string(missing_mark),
                 r.measured_by.empty() ? std::string(missing_mark) : r.measured_by, r.note});
        }
        md += t.str();
        md += fmt::format(
            "\nmeasured / reference divides the measured value by the theoretical one at the "
            "clock the benchmark ran at (where the roof scales with the SM clock and the clock "
            "was read), else by the theoretical one. A measured value may exceed its reference "
            "by at most {:.0f} % without a note saying why.\n",
            (peak_tolerance - 1) * 100);
    }
    for (const auto& key : order) {
        const auto& r = p.peaks.at(key);
        const auto ratio = r.ratio();
        if (!ratio || *ratio <= peak_tolerance || !r.note.empty()) continue;
        const auto unit = unit_of(key, r);
        md += fmt::format(
            "\n**{}: the measured {} is {} above its reference {}, and the profile has no note "
            "saying why. A benchmark cannot beat the hardware: this is a measurement bug, or "
            "the theoretical figure is wrong.**\n",
            peak_name(key), format_si(*r.measured, unit), format_percent(*ratio - 1),
            format_si(r.reference(), unit));
    }
    const auto fp32 = a.roof_value(roofs::fp32);
    const auto dram = a.roof_value(roofs::dram);
    md +=
        fmt::format("\nRidge point (FP32 roof / DRAM roof): {} theoretical", format_ai(a.ridge()));
    if (any_measured && fp32 && dram && *fp32 / *dram != a.ridge())
        md += fmt::format(", {} with the measured roofs", format_ai(*fp32 / *dram));
    md += "; left of it a kernel is DRAM-bound on the DRAM roofline.\n\n";
    md += fmt::format(
        "The hierarchical bound (the lowest of the FP32 roof and each memory level's AI × "
        "bandwidth) uses {}; the DRAM roofline's columns (attainable = min(FP32 peak, AI × DRAM "
        "bandwidth), % of DRAM roofline) use the theoretical FP32 and DRAM roofs.\n\n",
        any_measured ? "each roof's measured value where there is one, else the theoretical"
                     : "the theoretical roofs");
    return md;
}

std::string hierarchy_section(const analysis& a) {
    const auto focus = a.focus_size();
    if (!focus) return {};
    const bool pred = predicted(a);
    std::string md = fmt::format("## Hierarchical roofline at {}\n\n", to_string(*focus));
    md += fmt::format(
        "Per rung and memory level at {}: the bytes by {}; the "
        "arithmetic intensity each gives (FLOPs / bytes), the level's roof "
        "and the TFLOP/s it allows at the {} AI (AI × roof, capped by the FP32 roof). "
        "**bound** marks the lowest roof, the one that bounds the rung; an FP32 bound means "
        "every level allows more.{}\n\n",
        to_string(*focus),
        pred ? "the textbook and the refined model"
             : "the textbook, the refined model and the counters",
        pred ? "refined" : "measured (else refined)",
        any_measured_roof(a) ? " Roofs marked (measured) come from the micro-benchmarks." : "");
    // A prediction has no measured columns.
    std::vector<std::string> header = {
        "kernel",      "level",      "bytes textbook", "bytes refined", "bytes measured",
        "AI textbook", "AI refined", "AI measured",    "roof",          "attainable TFLOP/s",
        "bound"};
    std::vector<align> aligns = {align::left,  align::left,  align::right, align::right,
                                 align::right, align::right, align::right, align::right,
                                 align::right, align::right, align::left};
    const auto drop_measured = [&](auto& v) {
        if (pred) v.erase(v.begin() + 7), v.erase(v.begin() + 4);
    };
    drop_measured(header);
    drop_measured(aligns);
    md_table t(header, aligns);
    const auto add = [&](std::vector<std::string> cells) {
        drop_measured(cells);
        t.add_row(std::move(cells));
    };
    const auto roof_cell = [&](std::string_view key, std::string_view unit) {
        const auto v = a.roof_value(key);
        if (!v) return std::string(missing_mark);
        const auto it = a.source->peaks.find(key);
        const bool measured = it != a.source->peaks.end() && it->second.measured;
        return format_si(*v, unit) + (measured ? " (measured)" : "");
    };
    const auto ai = [](std::optional<double> v) {
        return v ? format_ai_value(*v) : std::string(missing_mark);
    };
    const std::string dash(missing_mark);
    for (const auto* r : rows_at(a, *focus)) {
        const auto mark = [&](std::string_view key) {
            return r->bound_roof == key ? std::string("**bound**") : std::string();
        };
        for (const auto& p : r->hierarchy)
            add({r->row->kernel, p.name, format_si(p.bytes_textbook, "B"),
                 format_si(p.bytes_refined, "B"), format_si(p.bytes_measured, "B"),
                 ai(p.ai_textbook), ai(p.ai_refined), ai(p.ai_measured),
                 roof_cell(p.roof_key, "B/s"), format_tflops_value(p.attainable),
                 mark(p.roof_key)});
        const auto fp32 = a.roof_value(roofs::fp32);
        add({r->row->kernel, "FP32 compute", dash, dash, dash, dash, dash, dash,
             roof_cell(roofs::fp32, "FLOP/s"), format_tflops_value(fp32), mark(roofs::fp32)});
    }
    if (t.row_count() == 0) return {};
    md += t.str();
    std::vector<std::string> roofless;
    for (const auto* r : rows_at(a, *focus))
        for (const auto& p : r->hierarchy)
            if (!a.roof_value(p.roof_key) &&
                std::find(roofless.begin(), roofless.end(), p.name) == roofless.end())
                roofless.push_back(p.name);
    if (!roofless.empty())
        md += fmt::format(
            "\nThis profile (schema {}.{}) has no {} roof: those levels show bytes and AI but "
            "allow no FLOP/s and bound no rung.\n",
            a.source->schema_major, a.source->schema_minor, join(roofless, " or "));
    md +=
        "\nShared-memory bytes are wavefronts × 128 B (the width of the shared-memory data path; "
        "a bank-conflicted wavefront counts in full) plus cp.async bytes; the textbook's are its "
        "element accesses × 4 B. Attainable counts executed FLOPs, as the roofs do.\n\n";
    return md;
}

std::optional<double> predicted_tflops(const row_analysis& r) {
    if (!r.bound_attainable) return std::nullopt;
    const double useful_share =
        r.executed_flops && *r.executed_flops > 0 ? r.useful_flops / *r.executed_flops : 1.0;
    return *r.bound_attainable * useful_share;
}

std::string published_section(const analysis& a) {
    if (!predicted(a)) return {};
    const auto& g = a.source->gpu;
    const auto points = published_points(g.key);
    std::string md = "## Published measurements beside the prediction\n\n";
    if (points.empty())
        return md + fmt::format("No published measurements of {} are on record.\n\n", g.name);
    md += fmt::format(
        "**Published** TFLOP/s were measured on a real {} by the source named in each row, not "
        "by this tool. **Predicted** TFLOP/s are this tool's roof for the same rung and size: "
        "the bounding roof's FLOP/s × 2MNK / executed FLOPs, a ceiling from the models, not a "
        "measurement.\n\n",
        g.name);
    md_table t({"kernel", "published name", "size", "published TFLOP/s", "% of published cuBLAS",
                "predicted roof TFLOP/s", "published / predicted", "source"},
               {align::left, align::left, align::left, align::right, align::right, align::right,
                align::right, align::left});
    double lo = 1e300, hi = 0;
    for (const auto& pt : points) {
        const published_point* ref = nullptr;
        for (const auto& q : points)
            if (q.kernel == "cublas" && q.size == pt.size) ref = &q;
        const auto* r = a.find(pt.kernel, pt.size);
        const auto pred = r ? predicted_tflops(*r) : std::nullopt;
        std::optional<double> share;
        if (pred && *pred > 0) {
            share = pt.tflops * 1e12 / *pred;
            lo = std::min(lo, *share);
            hi = std::max(hi, *share);
        }
        t.add_row({std::string(pt.kernel), std::string(pt.published_name), to_string(pt.size),
                   format_tflops_value(pt.tflops * 1e12),
                   ref ? format_percent(pt.tflops / ref->tflops) : std::string(missing_mark),
                   format_tflops_value(pred), format_percent(share), std::string(pt.source)});
    }
    md += t.str();
    if (hi > 0)
        md += fmt::format(
            "\nThe published kernels reach {} to {} of the roofs this tool predicts for "
            "them.\n",
            format_percent(lo), format_percent(hi));
    md += "\n";
    return md;
}

std::string gpu_comparison_section(const analysis& a, const analysis& b,
                                   std::string_view other_label) {
    const auto& pa = *a.source;
    const auto& pb = *b.source;
    const auto ka = pa.gpu.key;
    const auto kb = pb.gpu.key;
    const std::string label = other_label.empty() ? pb.gpu.name : std::string(other_label);
    std::string md = fmt::format("## {} against {}\n\n", pa.gpu.name, label);

    // The roofs: measured on both where both have a measured value, else theoretical.
    struct roof_pair {
        std::string name;
        double ratio = 0;
        std::string basis;
    };
    md_table roofs_t({"roof", ka, kb, fmt::format("{} / {}", ka, kb)},
                     {align::left, align::right, align::right, align::right});
    const auto pair_of = [&](std::string_view key, std::string_view unit, md_table* table) {
        roof_pair out{peak_name(key), 0, "theoretical"};
        const auto ia = pa.peaks.find(key);
        const auto ib = pb.peaks.find(key);
        if (ia == pa.peaks.end() || ib == pb.peaks.end() || ib->second.theoretical <= 0) return out;
        const auto& ra = ia->second;
        const auto& rb = ib->second;
        if (table)
            table->add_row({out.name + ", theoretical", format_si(ra.theoretical, unit),
                            format_si(rb.theoretical, unit),
                            times(ra.theoretical / rb.theoretical)});
        out.ratio = ra.theoretical / rb.theoretical;
        if (ra.measured && rb.measured && *rb.measured > 0) {
            if (table)
                table->add_row({out.name + ", measured", format_si(*ra.measured, unit),
                                format_si(*rb.measured, unit), times(*ra.measured / *rb.measured)});
            out.ratio = *ra.measured / *rb.measured;
            out.basis = "measured";
        }
        return out;
    };
    const auto dram = pair_of(roofs::dram, "B/s", &roofs_t);
    const auto fp32 = pair_of(roofs::fp32, "FLOP/s", &roofs_t);
    pair_of(roofs::l2, "B/s", &roofs_t);
    pair_of(roofs::smem, "B/s", &roofs_t);
    md += roofs_t.str();
    md += "\n";

    // Rows both profiles have, in this report's size and ladder order.
    struct pair_row {
        const row_analysis* a;
        const row_analysis* b;
        [[nodiscard]] double ratio() const { return *a->tflops / *b->tflops; }
    };
    std::vector<pair_row> pairs;
    for (const auto& s : pa.shapes())
        for (const auto* ra : rows_at(a, s))
            if (const auto* rb = b.find(ra->row->kernel, s);
                rb && ra->tflops && rb->tflops && *rb->tflops > 0)
                pairs.push_back({ra, rb});
    if (pairs.empty())
        return md + fmt::format("The two profiles have no timed rung at a common size.\n\n");
    const bool alike =
        dram.ratio <= 0 || fp32.ratio <= 0 || log_gap(dram.ratio, fp32.ratio) < alike_ratios;
    // Which roof ratio a speed-up is closer to, in log.
    const auto follows = [&](double s) {
        if (alike) return std::string(missing_mark);
        return log_gap(s, dram.ratio) < log_gap(s, fp32.ratio) ? std::string("DRAM ratio")
                                                               : std::string("FP32 ratio");
    };
    md += fmt::format(
        "TFLOP/s (2MNK / median time) on both GPUs for the rungs and sizes both profiles have; "
        "ratio = {} / {}. A speed-up \"follows\" the DRAM or the FP32 ratio it is closer to (in "
        "log); the {} DRAM ratio is {}, the {} FP32 ratio {}.\n\n",
        ka, kb, dram.basis, times(dram.ratio), fp32.basis, times(fp32.ratio));
    md_table t({"kernel", "size", fmt::format("TFLOP/s {}", ka), fmt::format("TFLOP/s {}", kb),
                fmt::format("{} / {}", ka, kb), fmt::format("bound on {}", ka),
                fmt::format("bound on {}", kb), "follows"},
               {align::left, align::left, align::right, align::right, align::right, align::left,
                align::left, align::left});
    const auto bound_cell = [](const row_analysis& r) {
        return r.bound_roof.empty() ? std::string(missing_mark) : roof_word(r.bound_roof);
    };
    for (const auto& p : pairs)
        t.add_row({p.a->row->kernel, to_string(p.a->row->size),
                   format_tflops_value(*p.a->tflops * 1e12),
                   format_tflops_value(*p.b->tflops * 1e12), times(p.ratio()), bound_cell(*p.a),
                   bound_cell(*p.b), follows(p.ratio())});
    md += t.str();
    md += "\n";

    // Per class (the bound on the other GPU), at each rung's largest common size.
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
    if (alike) {
        md += fmt::format(
            "The DRAM and FP32 ratios are alike ({} and {}), so the speed-ups cannot tell "
            "memory-bound from compute-bound rungs apart.\n\n",
            times(dram.ratio), times(fp32.ratio));
        return md;
    }
    std::vector<std::string> classes;
    for (const auto* p : largest) {
        const auto& key = p->b->bound_roof;
        if (!key.empty() && std::find(classes.begin(), classes.end(), key) == classes.end())
            classes.push_back(key);
    }
    md += fmt::format(
        "At each rung's largest common size, by its bound on {}. A rung should speed up by the "
        "ratio of the roof that bounds it (measured on both GPUs where both were measured), "
        "and only if it runs close to that roof:\n\n",
        kb);
    for (const auto& key : classes) {
        // The bounding roof's own ratio: DRAM-bound rungs gain with DRAM, L2-bound ones with
        // L2, shared-memory- and FP32-bound ones with neither (same SMs, same clock).
        const auto expected = key == roofs::fp32   ? fp32
                              : key == roofs::dram ? dram
                                                   : pair_of(key, "B/s", nullptr);
        std::vector<std::string> members, did, did_not, far;
        for (const auto* p : largest) {
            if (p->b->bound_roof != key) continue;
            members.push_back(p->a->row->kernel);
            const double s = p->ratio();
            const auto item = fmt::format("{} ({})", p->a->row->kernel, times(s));
            // A roof that did not change: "followed" means no change either. A roof that did:
            // closer to its ratio than to no change.
            const bool followed =
                expected.ratio > 0 && (log_gap(expected.ratio, 1.0) < alike_ratios
                                           ? log_gap(s, 1.0) < alike_ratios
                                           : log_gap(s, expected.ratio) < log_gap(s, 1.0));
            (followed ? did : did_not).push_back(item);
            if (p->b->pct_bound_roof && *p->b->pct_bound_roof < far_from_roof)
                far.push_back(fmt::format("{} ({} of it)", p->a->row->kernel,
                                          format_percent(*p->b->pct_bound_roof)));
        }
        const auto list = [](const std::vector<std::string>& v) { return join(v, ", "); };
        std::string s = fmt::format("- Bound by the {} roof on {} ({}): ", roof_word(key), kb,
                                    join(members, ", "));
        if (expected.ratio <= 0) {
            s += fmt::format("one of the profiles has no {} roof to compare", roof_word(key));
        } else {
            s += fmt::format("that roof is {} ({}) on {}", times(expected.ratio), expected.basis,
                             ka);
            if (!did.empty()) s += fmt::format("; {} followed it", list(did));
            if (!did_not.empty()) s += fmt::format("; {} did not", list(did_not));
        }
        if (!far.empty())
            s += fmt::format(
                "; {} ran far below that roof on {}, so what limits {} is not a roof drawn here "
                "(latency, L1 traffic, instruction issue)",
                list(far), kb, far.size() == 1 ? "it" : "them");
        md += s + ".\n";
    }
    md += "\n";
    return md;
}

}  // namespace tgemm::render
