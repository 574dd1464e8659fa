#include "render/report_sections.hpp"

#include "render/markdown_report.hpp"

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
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

bool predicted(const analysis& a) {
    return a.source->source == profile_source::predicted;
}

std::string unit_of(std::string_view key, const roof& r) {
    if (!r.unit.empty()) return r.unit;
    return key == roofs::fp32 || key.starts_with("tensor") ? "FLOP/s" : "B/s";
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

}  // namespace

namespace {

// One plot of the report folder: the PNG embedded, the SVG linked, a caption.
struct plot_entry {
    std::string stem;  // "tflops": tflops.png and tflops.svg
    std::string alt;
    std::string caption;
};

bool any_tensor_row(const analysis& a) {
    return std::any_of(a.rows.begin(), a.rows.end(),
                       [](const row_analysis& r) { return r.compute_roof != roofs::fp32; });
}

std::string hierarchical_caption(const analysis& a, const shape& focus) {
    return fmt::format(
        "Hierarchical roofline at {}: each rung has one point per memory level ({}) at that "
        "level's {} arithmetic intensity, under the level's bandwidth roof and {}; the "
        "lowest roof over a rung bounds it.",
        to_string(focus), level_names(a, focus), predicted(a) ? "predicted" : "measured",
        any_tensor_row(a) ? "its compute roof (FP32, or the tensor roof of its input type; "
                            "a tensor rung's rate counts its tensor FLOPs)"
                          : "the FP32 roof");
}

std::string roofline_caption(const analysis& a) {
    return predicted(a) ? fmt::format(
                              "DRAM roofline at every size ({}): dashed markers sit at the refined "
                              "model's DRAM arithmetic intensity, on the roof, hollow markers at "
                              "the textbook intensity; colour is the kernel, shape the size.",
                              sizes_list(a))
                        : fmt::format(
                              "DRAM roofline at every size ({}): filled markers sit at the "
                              "measured DRAM arithmetic intensity and the executed FLOP rate, "
                              "hollow markers at the textbook intensity, on the roof; colour is "
                              "the kernel, shape the size.",
                              sizes_list(a));
}

std::string tflops_caption(const analysis& a, std::string_view at) {
    const bool has_cublas = std::any_of(a.rows.begin(), a.rows.end(), [](const auto& r) {
        return is_reference_kernel(r.row->kernel);
    });
    if (!predicted(a) && any_tensor_row(a))
        return fmt::format(
            "TFLOP/s of each rung{} (2MNK / median time){}, the FP32 roof and the tensor roofs "
            "the rows use; % of cuBLAS is against the cuBLAS row of the rung's input type.",
            at, has_cublas ? " against cuBLAS of each input type" : "");
    if (predicted(a))
        return fmt::format("Predicted TFLOP/s of each rung{} at its bounding roof (hollow bars){}.",
                           at,
                           published_points(a.source->gpu.key).empty()
                               ? ""
                               : ", with the published measurements as filled diamonds");
    return fmt::format("TFLOP/s of each rung{} (2MNK / median time){}.", at,
                       has_cublas ? " against cuBLAS and the FP32 roof" : " against the FP32 roof");
}

// The plots in reading order; those at the focus size only where there is one.
std::vector<plot_entry> report_plots(const analysis& a, const report_options& o) {
    const auto& gpu = a.source->gpu.name;
    const bool pred = predicted(a);
    const auto focus = a.focus_size();
    const auto at = focus ? " at " + to_string(*focus) : std::string();
    std::vector<plot_entry> plots;
    if (focus)
        plots.push_back({o.hierarchical_stem, fmt::format("Hierarchical roofline of {}{}", gpu, at),
                         hierarchical_caption(a, *focus)});
    plots.push_back({"", fmt::format("Roofline of {}", gpu), roofline_caption(a)});
    if (focus)
        plots.push_back(
            {o.bytes_stem, fmt::format("Bytes per level on {}{}", gpu, at),
             fmt::format("Bytes per level{}: one panel per level, each rung's {} bytes side by "
                         "side on one log scale.",
                         at, pred ? "textbook and refined" : "textbook, refined and measured")});
    plots.push_back(
        {o.ai_stem, fmt::format("Arithmetic intensity against size on {}", gpu),
         fmt::format("DRAM arithmetic intensity of each rung against N ({}): {} solid, textbook "
                     "dashed, the DRAM ridge for reference.",
                     square_sizes(a), pred ? "refined model" : "measured")});
    if (focus)
        plots.push_back({o.tflops_stem, fmt::format("TFLOP/s per rung on {}{}", gpu, at),
                         tflops_caption(a, at)});
    return plots;
}

}  // namespace

std::string plots_section(const analysis& a, const report_options& o) {
    const auto tag = predicted(a) ? fmt::format(", {}", predicted_tag) : std::string();
    std::string md = "## Plots\n\n";
    if (predicted(a))
        md += fmt::format("Every plot here is {}: the markers and bars are the models'.\n\n",
                          predicted_tag);
    for (const auto& p : report_plots(a, o)) {
        // The DRAM roofline keeps its own paths (report_options::png_path, svg_path).
        const auto png = p.stem.empty() ? o.png_path : p.stem + ".png";
        const auto svg = p.stem.empty() ? o.svg_path : p.stem + ".svg";
        md += fmt::format("![{}{}]({})\n\n", p.alt, tag, png);
        md += fmt::format("{} Vector version: [{}]({}).\n\n", p.caption, svg, svg);
        if (p.stem.empty()) {
            // The same roofline one size at a time: the plot above holds every size at once.
            std::vector<std::string> links;
            for (const auto& size : a.source->shapes())
                links.push_back(fmt::format("[{}]({}) ([svg]({}))", to_string(size),
                                            per_size_roofline(o, size, ".png"),
                                            per_size_roofline(o, size, ".svg")));
            md += fmt::format("The DRAM roofline of each size alone: {}.\n\n",
                              fmt::join(links, ", "));
        }
    }
    return md;
}

namespace {

std::string peak_method(const gpu_info& g, std::string_view key, const roof& r) {
    return r.method.empty() ? default_method(g, key) : r.method;
}

std::string theoretical_peaks(const analysis& a, const std::vector<std::string>& order) {
    const auto& p = *a.source;
    std::string md = predicted(a) ? "Nothing was measured on this GPU: every roof below is "
                                    "theoretical, from the GPU specification.\n\n"
                                  : "This profile has no measured peaks (an older profile, or a "
                                    "run with `--no-peaks`): the plots and the bound use the "
                                    "theoretical roofs.\n\n";
    md_table t({"roof", "theoretical", "how derived"}, {align::left, align::right});
    for (const auto& key : order) {
        const auto& r = p.peaks.at(key);
        t.add_row({roof_table_name(key), format_si(r.theoretical, unit_of(key, r)),
                   peak_method(p.gpu, key, r)});
    }
    return md + t.str();
}

std::string measured_peaks(const analysis& a, const std::vector<std::string>& order) {
    const auto& p = *a.source;
    md_table t({"roof", "theoretical", "how derived", "theoretical at measured clock", "measured",
                "measured / reference", "clock", "how measured", "note"},
               {align::left, align::right, align::left, align::right, align::right, align::right,
                align::right, align::left, align::left});
    for (const auto& key : order) {
        const auto& r = p.peaks.at(key);
        const auto unit = unit_of(key, r);
        t.add_row(
            {roof_table_name(key), format_si(r.theoretical, unit), peak_method(p.gpu, key, r),
             format_si(r.theoretical_at_clock, unit), format_si(r.measured, unit),
             format_ratio(r.ratio()),
             r.clock_mhz ? fmt::format("{:.0f} MHz", *r.clock_mhz) : std::string(missing_mark),
             r.measured_by.empty() ? std::string(missing_mark) : r.measured_by, r.note});
    }
    return t.str() +
           fmt::format(
               "\nmeasured / reference divides the measured value by the theoretical one at the "
               "clock the benchmark ran at (where the roof scales with the SM clock and the clock "
               "was read), else by the theoretical one. A measured value may exceed its "
               "reference by at most {:.0f} % without a note saying why.\n",
               (peak_tolerance - 1) * 100);
}

// A bold warning for each measured roof above its reference by more than the tolerance with
// no note saying why.
std::string peak_warnings(const profile& p, const std::vector<std::string>& order) {
    std::string md;
    for (const auto& key : order) {
        const auto& r = p.peaks.at(key);
        const auto ratio = r.ratio();
        if (!ratio || *ratio <= peak_tolerance || !r.note.empty()) continue;
        const auto unit = unit_of(key, r);
        md += fmt::format(
            "\n**{}: the measured {} is {} above its reference {}, and the profile has no note "
            "saying why. A benchmark cannot beat the hardware: this is a measurement bug, or "
            "the theoretical figure is wrong.**\n",
            roof_table_name(key), format_si(*r.measured, unit), format_percent(*ratio - 1),
            format_si(r.reference(), unit));
    }
    return md;
}

// The ridge point, and which roofs the bound and the DRAM roofline use.
std::string ridge_and_bound(const analysis& a, bool any_measured) {
    const auto fp32 = a.roof_value(roofs::fp32);
    const auto dram = a.roof_value(roofs::dram);
    std::string md =
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

}  // namespace

std::string peaks_section(const analysis& a) {
    const auto& p = *a.source;
    const auto& g = p.gpu;
    std::string md = "## GPU and peaks\n\n";
    md += fmt::format(
        "{} ({}), compute capability {}: {} SMs × {} FP32 lanes, SM clock {:.0f} MHz, memory "
        "clock {:.0f} MHz on a {}-bit bus, L2 {:.0f} MiB.\n\n",
        g.name, md_code(g.key), g.cc, g.sm_count, g.fp32_lanes_per_sm, g.sm_clock_mhz,
        g.mem_clock_mhz, g.bus_width_bits, double(g.l2_bytes) / (1 << 20));
    const bool any_measured = any_measured_roof(a);
    const auto order = peak_order(p);
    md += any_measured ? measured_peaks(a, order) : theoretical_peaks(a, order);
    return md + peak_warnings(p, order) + ridge_and_bound(a, any_measured);
}

namespace {

// The hierarchy table's rows: per rung, each level and then the FP32 roof. A prediction has no
// measured columns.
class hierarchy_table {
  public:
    explicit hierarchy_table(const analysis& a)
        : m_a(a),
          m_predicted(predicted(a)),
          m_table(drop_measured(header()), drop_measured(aligns())) {}

    void add_rung(const row_analysis& r) {
        const auto mark = [&](std::string_view key) {
            return r.bound_roof == key ? std::string("**bound**") : std::string();
        };
        for (const auto& p : r.hierarchy)
            add({r.row->kernel, p.name, format_si(p.bytes_textbook, "B"),
                 format_si(p.bytes_refined, "B"), format_si(p.bytes_measured, "B"),
                 ai(p.ai_textbook), ai(p.ai_refined), ai(p.ai_measured),
                 roof_cell(p.roof_key, "B/s"), format_tflops_value(p.attainable),
                 mark(p.roof_key)});
        // The row's own compute roof: FP32, or the tensor roof of its input type.
        const std::string dash(missing_mark);
        const auto& compute = r.compute_roof.empty() ? std::string(roofs::fp32) : r.compute_roof;
        add({r.row->kernel, roof_table_name(compute) + " compute", dash, dash, dash, dash, dash,
             dash, roof_cell(compute, "FLOP/s"), format_tflops_value(m_a.roof_value(compute)),
             mark(compute)});
    }

    [[nodiscard]] const md_table& table() const { return m_table; }

  private:
    static std::vector<std::string> header() {
        return {
            "kernel",      "level",      "bytes textbook", "bytes refined", "bytes measured",
            "AI textbook", "AI refined", "AI measured",    "roof",          "attainable TFLOP/s",
            "bound"};
    }
    static std::vector<align> aligns() {
        return {align::left,  align::left,  align::right, align::right, align::right, align::right,
                align::right, align::right, align::right, align::right, align::left};
    }
    // The bytes and AI measured columns (4 and 7) are left out of a prediction.
    template <class T>
    std::vector<T> drop_measured(std::vector<T> v) const {
        if (m_predicted) v.erase(v.begin() + 7), v.erase(v.begin() + 4);
        return v;
    }
    void add(std::vector<std::string> cells) { m_table.add_row(drop_measured(std::move(cells))); }
    static std::string ai(std::optional<double> v) {
        return v ? format_ai_value(*v) : std::string(missing_mark);
    }
    [[nodiscard]] std::string roof_cell(std::string_view key, std::string_view unit) const {
        const auto v = m_a.roof_value(key);
        if (!v) return std::string(missing_mark);
        const auto it = m_a.source->peaks.find(key);
        const bool measured = it != m_a.source->peaks.end() && it->second.measured;
        return format_si(*v, unit) + (measured ? " (measured)" : "");
    }

    const analysis& m_a;
    bool m_predicted;
    md_table m_table;
};

// The levels some rung at `focus` has but the profile has no roof for.
std::string roofless_note(const analysis& a, const shape& focus) {
    std::vector<std::string> roofless;
    for (const auto* r : rows_at(a, focus))
        for (const auto& p : r->hierarchy)
            if (!a.roof_value(p.roof_key) &&
                std::find(roofless.begin(), roofless.end(), p.name) == roofless.end())
                roofless.push_back(p.name);
    if (roofless.empty()) return {};
    return fmt::format(
        "\nThis profile (schema {}.{}) has no {} roof: those levels show bytes and AI but allow "
        "no FLOP/s and bound no rung.\n",
        a.source->schema_major, a.source->schema_minor, join(roofless, " or "));
}

}  // namespace

std::string hierarchy_section(const analysis& a) {
    const auto focus = a.focus_size();
    if (!focus) return {};
    hierarchy_table t(a);
    for (const auto* r : rows_at(a, *focus)) t.add_rung(*r);
    if (t.table().row_count() == 0) return {};
    const bool pred = predicted(a);
    std::string md = fmt::format("## Hierarchical roofline at {}\n\n", to_string(*focus));
    const bool tensor = any_tensor_row(a);
    md += fmt::format(
        "Per rung and memory level at {}: the bytes by {}; the "
        "arithmetic intensity each gives (FLOPs / bytes), the level's roof "
        "and the TFLOP/s it allows at the {} AI (AI × roof, capped by {}). "
        "**bound** marks the lowest roof, the one that bounds the rung; {} bound means "
        "every level allows more.{}\n\n",
        to_string(*focus),
        pred ? "the textbook and the refined model"
             : "the textbook, the refined model and the counters",
        pred ? "refined" : "measured (else refined)",
        tensor ? "the rung's compute roof: FP32, or the tensor roof of its input type"
               : "the FP32 roof",
        tensor ? "a compute" : "an FP32",
        any_measured_roof(a) ? " Roofs marked (measured) come from the micro-benchmarks." : "");
    md += t.table().str();
    md += roofless_note(a, *focus);
    md +=
        "\nShared-memory bytes are wavefronts × 128 B (the width of the shared-memory data path; "
        "a bank-conflicted wavefront counts in full) plus cp.async bytes; the textbook's are its "
        "element accesses × 4 B. Attainable counts executed FLOPs, as the roofs do.\n\n";
    if (tensor)
        md +=
            "For the tensor rungs, shared-memory bytes add wgmma's operand reads (wavefronts × "
            "128 B) and the bytes TMA writes; their textbook counts the MMA operand reads at 2 B "
            "per element; executed FLOPs add the tensor-core FLOPs.\n\n";
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
            if (q.kernel == reference_kernel("fp32") && q.size == pt.size) ref = &q;
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

}  // namespace tgemm::render
