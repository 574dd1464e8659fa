#include "render/markdown_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "model/levels.hpp"
#include "render/execution_table.hpp"
#include "render/findings.hpp"
#include "render/format.hpp"
#include "render/gap_causes.hpp"
#include "render/md_table.hpp"
#include "render/names.hpp"
#include "render/prediction_section.hpp"
#include "render/report_sections.hpp"
#include "render/roofline_layout.hpp"
#include "render/rung_colours.hpp"

namespace tgemm::render {

namespace {

std::string cell_value(std::string_view key, std::optional<double> v) {
    if (!v) return std::string(missing_mark);
    if (key.ends_with("_bytes")) return format_si(*v, "B");
    return format_count(*v, "");
}

std::optional<double> ratio_of(std::optional<double> num, std::optional<double> den) {
    if (!num || !den || *den <= 0) return std::nullopt;
    return *num / *den;
}

// The title and the line that says what the numbers are and where they came from.
std::string report_heading(const analysis& a, const report_options& opts) {
    const auto& p = *a.source;
    const auto label = opts.profile_label.empty() ? std::string("(not saved to a file)")
                                                  : md_code(opts.profile_label);
    std::string s;
    if (p.source == profile_source::predicted) {
        s += fmt::format("# {}: roofline report for {}\n\n", predicted_tag, p.gpu.name);
        s += fmt::format(
            "**{}.** Nothing in this report ran on {}: every figure comes from the analytic "
            "models and the GPU specification. Profile: {}{}.\n\n",
            predicted_tag, p.gpu.name, label,
            p.env.command.empty() ? "" : ", made by " + md_code(p.env.command));
    } else {
        s += fmt::format("# Roofline report: {}\n\n", p.gpu.name);
        s += fmt::format("**Measured** on {}{}{}. Profile: {}.\n\n", p.gpu.name,
                         p.env.command.empty() ? "" : " by " + md_code(p.env.command),
                         p.env.date.empty() ? "" : " on " + p.env.date, label);
    }
    return s;
}

class report_writer {
  public:
    report_writer(const analysis& a, const report_options& o)
        : m_a(a), m_p(*a.source), m_opts(o), m_predicted(m_p.source == profile_source::predicted) {}

    std::string write() {
        heading();
        findings_section();
        section(plots_section(m_a, m_opts));
        section(peaks_section(m_a));
        method_section();
        section(hierarchy_section(m_a));
        section(execution_section(m_a));
        section(published_section(m_a));
        section(prediction_section(m_a, m_opts.calibration, m_opts.calibration_label));
        if (m_opts.compare && m_opts.compare->source)
            section(gpu_comparison_section(m_a, *m_opts.compare, m_opts.compare_label));
        for (const auto& s : m_p.shapes()) performance_section(s);
        not_in_profile_section();
        comparison_section();
        notes_section();
        return m_out;
    }

  private:
    // A section written by report_sections; remembers whether it printed a dash.
    void section(const std::string& md) {
        if (md.find(missing_mark) != std::string::npos) m_dashes = true;
        m_out += md;
    }
    void line(std::string_view s = {}) {
        m_out += s;
        m_out += '\n';
    }
    // A cell that may be "—"; remembers that the notes must explain the dash.
    std::string cell(std::string text) {
        if (text == missing_mark) m_dashes = true;
        return text;
    }

    // "DRAM", "FP32", "L2 (model AI)": the bounding roof, and whether a level's AI came from
    // the refined model because its counters are missing.
    static std::string bound_cell(const row_analysis& r) {
        if (r.bound_roof.empty()) return std::string(missing_mark);
        const bool model_ai =
            std::any_of(r.hierarchy.begin(), r.hierarchy.end(),
                        [](const auto& p) { return p.attainable && !p.ai_measured; });
        return roof_word(r.bound_roof) + (model_ai && r.row->time ? " (model AI)" : "");
    }

    void heading() { m_out += report_heading(m_a, m_opts); }

    void findings_section() {
        line("## Findings");
        line();
        m_out += findings_markdown(m_a);
    }

    void method_section() {
        if (m_predicted)
            predicted_method();
        else
            measured_method();
    }

    void predicted_method() {
        const auto& e = m_p.env;
        line("## How it was made");
        line();
        line("- Nothing was measured: there are no timings and no counters.");
        line("- Peaks come from the GPU specification and its clocks (table above).");
        line(
            "- Each kernel's point uses the refined model's FLOPs and DRAM bytes; the roof "
            "at that intensity is the predicted rate.");
        if (!e.command.empty()) line("- Command: " + md_code(e.command));
        if (!e.tool_version.empty()) line("- Tool: tgemm-roofline " + e.tool_version);
        line();
    }

    void measured_method() {
        const auto& e = m_p.env;
        line("## How it was measured");
        line();
        line("- Command: " + (e.command.empty() ? std::string(missing_mark) : md_code(e.command)));
        std::vector<std::string> versions;
        versions.push_back("tgemm-roofline " + (e.tool_version.empty() ? "—" : e.tool_version));
        versions.push_back("driver " + (e.driver.empty() ? "—" : e.driver));
        versions.push_back("CUDA " + (e.cuda.empty() ? "—" : e.cuda));
        if (!e.host.empty()) versions.push_back("host " + e.host);
        if (!e.date.empty()) versions.push_back("date " + e.date);
        line("- Versions: " + join(versions, " · "));
        clocks_line();
        timing_lines();
        counter_and_verification_lines();
        line(
            "- TFLOP/s counts 2MNK per GEMM, as cuBLAS benchmarks do. % of DRAM roofline divides "
            "the executed FLOP rate (measured FLOPs / median time) by min(FP32 peak, AI × DRAM "
            "bandwidth) at the measured DRAM intensity; % of bound divides it by the bounding "
            "roof of the hierarchical roofline (the lowest of the FP32 roof and each memory "
            "level's AI × bandwidth).");
        if (std::any_of(m_a.rows.begin(), m_a.rows.end(),
                        [](const row_analysis& r) { return r.compute_roof != roofs::fp32; }))
            line(
                "- Tensor rows (BF16, FP16 inputs): executed FLOPs add the tensor-core FLOPs, "
                "the tensor roof of the row's input type takes the FP32 peak's place, and % of "
                "cuBLAS is against the cuBLAS row of that type (cublas_bf16, cublas_fp16).");
        line();
    }

    // "8" where every row has the same count, "3–8" where they differ.
    static std::string count_range(int lo, int hi) {
        return lo == hi ? std::to_string(lo) : fmt::format("{}–{}", lo, hi);
    }

    static std::string row_name(const row_analysis& r) {
        return fmt::format("{} at {}", r.row->kernel, to_string(r.row->size));
    }

    void clocks_line() {
        std::string clocks = fmt::format(
            "- Clocks: SM {:.0f} MHz (the device's maximum), memory {:.0f} MHz as CUDA reports it",
            m_p.gpu.sm_clock_mhz, m_p.gpu.mem_clock_mhz);
        double lo = 1e300, hi = 0;
        for (const auto& r : m_a.rows)
            if (const auto hz = r.row->counter(keys::sm_clock_hz)) {
                lo = std::min(lo, *hz / 1e6);
                hi = std::max(hi, *hz / 1e6);
            }
        if (hi > 0)
            clocks +=
                fmt::format("; SM clock during the profiled launches {:.0f}–{:.0f} MHz", lo, hi);
        line(clocks + ".");
    }

    // The cache policy of the timed launches and how many there were.
    void timing_lines() {
        std::vector<std::string> unflushed;
        int runs_lo = 1 << 30, runs_hi = 0;
        for (const auto& r : m_a.rows) {
            if (!r.row->time) continue;
            runs_lo = std::min(runs_lo, r.row->time->runs);
            runs_hi = std::max(runs_hi, r.row->time->runs);
            if (!r.row->time->l2_flushed) unflushed.push_back(row_name(r));
        }
        if (unflushed.empty())
            line(
                "- Cache policy: L2 flushed before each timed launch and before each profiled "
                "launch.");
        else
            line(
                fmt::format("- Cache policy: L2 flushed before each profiled launch, but not "
                            "before the timed launches of {}.",
                            join(unflushed, ", ")));
        if (runs_hi > 0)
            line(
                fmt::format("- Repeats: {} timed launches per row after warm-up; the tables give "
                            "the median, the minimum and the spread (max − min) / median.",
                            count_range(runs_lo, runs_hi)));
    }

    void counter_and_verification_lines() {
        int passes_lo = 1 << 30, passes_hi = 0;
        for (const auto& r : m_a.rows)
            if (r.row->counter_passes) {
                passes_lo = std::min(passes_lo, *r.row->counter_passes);
                passes_hi = std::max(passes_hi, *r.row->counter_passes);
            }
        if (passes_hi > 0)
            line(fmt::format("- Counters: one profiled launch per replay pass, {} passes per row.",
                             count_range(passes_lo, passes_hi)));
        std::vector<std::string> unverified;
        for (const auto& r : m_a.rows)
            if (!r.row->verified) unverified.push_back(row_name(r));
        if (unverified.empty())
            line("- Verification: every row matched cuBLAS before it was timed.");
        else
            line("- Verification: NOT verified against cuBLAS: " + join(unverified, ", ") + ".");
    }

    void performance_section(const shape& s) {
        line(fmt::format("## Performance at {}", to_string(s)));
        line();
        const auto rows = rows_at(m_a, s);
        if (m_predicted) {
            md_table t({"kernel", "AI textbook", "AI refined", "bound (predicted)",
                        "roof TFLOP/s (predicted)"},
                       {align::left, align::right, align::right, align::left, align::right});
            for (const auto* r : rows)
                t.add_row({r->row->kernel, format_ai(r->ai_textbook),
                           cell(format_ai(r->ai_refined)), cell(bound_cell(*r)),
                           cell(format_tflops_value(predicted_tflops(*r)))});
            if (t.row_count() > 0) m_out += t.str();
        } else {
            md_table t({"kernel", "median ms", "min ms", "spread", "TFLOP/s", "% of cuBLAS",
                        "% of DRAM roofline", "bound", "% of bound"},
                       {align::left, align::right, align::right, align::right, align::right,
                        align::right, align::right, align::left, align::right});
            for (const auto* r : rows) {
                const auto& time = r->row->time;
                t.add_row(
                    {r->row->kernel, cell(time ? format_ms(time->median_ms) : "—"),
                     cell(time ? format_ms(time->min_ms) : "—"),
                     cell(time && time->median_ms > 0
                              ? format_percent((time->max_ms - time->min_ms) / time->median_ms)
                              : "—"),
                     cell(r->tflops ? format_tflops_value(*r->tflops * 1e12) : "—"),
                     cell(format_percent(r->pct_cublas)), cell(format_percent(r->pct_roof)),
                     cell(bound_cell(*r)), cell(format_percent(r->pct_bound_roof))});
            }
            if (t.row_count() > 0) m_out += t.str();
        }
        for (const auto& m : m_p.measurements)
            if (m.skipped && m.size == s)
                line(fmt::format("\nSkipped: {}: {}", md_code(m.kernel), *m.skipped));
        line();
    }

    // One line per rung of this build that the profile has no row of: a rung added after the
    // profile was measured shows as such instead of vanishing from the report.
    void not_in_profile_section() {
        const auto kernels = m_p.kernels();
        std::vector<const ladder_rung*> missing;
        for (const auto& r : m_opts.ladder)
            if (std::find(kernels.begin(), kernels.end(), r.id) == kernels.end())
                missing.push_back(&r);
        if (missing.empty()) return;
        const std::string done = m_predicted ? "predicted" : "measured";
        line("## Not " + done);
        line();
        line(
            fmt::format("Rungs of this build that the profile has no row of (it was {} before "
                        "they existed, or without them):",
                        done));
        line();
        for (const auto* r : missing)
            line(fmt::format("- {} ({}): not {}.", md_code(r->id), r->display_name, done));
        line();
    }

    void comparison_section() {
        line(m_predicted ? "## Textbook against refined model" : "## Model against measurement");
        line();
        if (m_predicted)
            line(
                "Textbook: the seeds' element counts, no caches. Refined: what the hardware "
                "would move (sectors, wavefronts, L2 reuse). Both are predictions.");
        else
            line(
                "Textbook: the seeds' element counts, no caches (FLOPs: the seed count 2MNK + "
                "2MN). Refined: the rung's model of what the counters see (FLOPs: what the "
                "kernel executes). Ratios are measured / refined and measured / textbook.");
        line();
        for (const auto& s : m_p.shapes())
            for (const auto* r : rows_at(m_a, s)) comparison(*r);
    }

    void comparison(const row_analysis& r) {
        const auto& m = *r.row;
        line(fmt::format("### {} at {}", m.kernel, to_string(m.size)));
        line();
        std::vector<level_comparison> levels = r.levels;
        level_comparison ai;
        ai.key = "ai";
        if (r.ai_textbook > 0) ai.textbook = r.ai_textbook;
        ai.refined = r.ai_refined;
        ai.measured = r.ai_measured;
        levels.push_back(ai);
        const auto value = [](const level_comparison& l, std::optional<double> v) {
            if (l.key == "ai") return v ? format_ai_value(*v) : std::string(missing_mark);
            return cell_value(l.key, v);
        };
        const auto name = [](const level_comparison& l) {
            return l.key == "ai" ? std::string("AI at DRAM (FLOP/B)") : level_display_name(l.key);
        };
        // A band is printed as its range, and a measurement against it: inside, or its ratio to
        // the nearer end.
        const auto refined_cell = [&](const level_comparison& l) {
            if (!l.band) return value(l, l.refined);
            return fmt::format("{} … {} (band)", value(l, l.band->low), value(l, l.band->high));
        };
        if (m_predicted) {
            md_table t({"quantity", "textbook", "refined", "refined / textbook"},
                       {align::left, align::right, align::right, align::right});
            for (const auto& l : levels)
                t.add_row({name(l), cell(value(l, l.textbook)), cell(refined_cell(l)),
                           cell(format_ratio(ratio_of(l.refined, l.textbook)))});
            m_out += t.str();
        } else {
            md_table t({"quantity", "textbook", "refined", "measured", "measured / refined",
                        "measured / textbook"},
                       {align::left, align::right, align::right, align::right, align::right,
                        align::right});
            const auto ratio_cell = [](const level_comparison& l) {
                if (!l.band) return format_ratio(l.refined_ratio());
                const auto r = l.band_ratio();
                if (!r) return std::string(missing_mark);
                if (*r == 1.0) return std::string("in band");
                return fmt::format("{} the {} end", format_ratio(r), *r < 1 ? "low" : "high");
            };
            for (const auto& l : levels)
                t.add_row({name(l), cell(value(l, l.textbook)), cell(refined_cell(l)),
                           cell(value(l, l.measured)), cell(ratio_cell(l)),
                           cell(format_ratio(l.textbook_ratio()))});
            m_out += t.str();
        }
        line();
        const auto& tb = m.model.textbook;
        if (!tb.formula.empty()) line(fmt::format("- Textbook bytes: {}.", tb.formula));
        if (tb.loads_per_output)
            line(
                fmt::format("- Textbook loads per output: {:.4g}; the L1 textbook figure is that "
                            "× M·N × 4 B.",
                            *tb.loads_per_output));
        if (tb.smem_accesses)
            line(
                fmt::format("- Textbook shared-memory accesses: {} element accesses (a "
                            "wavefront serves up to 32 of them).",
                            format_count(*tb.smem_accesses, "")));
        for (const auto& n : m.model.refined.notes) line("- Refined: " + n);
        if (!m_predicted) l1_store_merging(levels);
        line();
    }

    // The L2 write band's ends are L1 merging every partial-sector store (each sector of C
    // written once) and none (every stored sector); the L2 counts what L1 forwards
    // (docs/models/l2.md, "The SMs' stores on their way to L2"), so a measurement places the
    // row's merging between them.
    void l1_store_merging(const std::vector<level_comparison>& levels) {
        for (const auto& l : levels) {
            if (l.key != keys::l2_write_bytes || !l.band || !l.measured) continue;
            const double span = l.band->high - l.band->low;
            if (span <= 0) continue;
            const double merged = std::clamp((l.band->high - *l.measured) / span, 0.0, 1.0);
            line(fmt::format(
                "- Measured: the L2 writes put L1's merging of the partial-sector stores at "
                "{:.0f} % (0 %: none merged, the band's high end; 100 %: each sector of C "
                "written once, its low end).",
                100 * merged));
        }
    }

    void notes_section() {
        line("## Notes");
        line();
        if (m_dashes)
            line(
                "- — : not measured (in a measured column) or not given by that model (in a "
                "model column); never a zero.");
        line("- Spread = (max − min) / median of the timed launches.");
        line("- Numbers use SI prefixes: 1 GB = 10⁹ bytes, 1 G wavefronts = 10⁹ wavefronts.");
        line("- How each number is computed: docs/report.md.");
    }

    const analysis& m_a;
    const profile& m_p;
    const report_options& m_opts;
    bool m_predicted;
    bool m_dashes = false;
    std::string m_out;
};

}  // namespace

std::string benchmark_table(const analysis& a) {
    if (!a.source) TGEMM_THROW(internal, "benchmark_table: the analysis has no profile");
    const auto& p = *a.source;
    const bool predicted = p.source == profile_source::predicted;
    std::string out;
    std::string head = predicted ? fmt::format("{}: {}, nothing timed", predicted_tag, p.gpu.name)
                                 : fmt::format("Measured on {}", p.gpu.name);
    if (!p.env.date.empty()) head += fmt::format(" on {}", p.env.date);
    if (!p.env.command.empty()) head += fmt::format(" by {}", md_code(p.env.command));
    out += head + ".\n\n";
    const bool typed = std::any_of(a.rows.begin(), a.rows.end(), [](const row_analysis& r) {
        return r.compute_roof != roofs::fp32;
    });
    out += fmt::format(
        "TFLOP/s (2MNK / median time) and, in brackets, % of cuBLAS{} at the same size; — where "
        "a row was skipped or not timed.\n\n",
        typed ? " of the row's input type (cublas, cublas_bf16, cublas_fp16)" : "");
    const auto shapes = p.shapes();
    auto t = kernel_by_size_table(shapes);
    for (const auto& k : p.kernels()) {
        std::vector<std::string> cells = {k};
        for (const auto& s : shapes) {
            const auto* r = a.find(k, s);
            if (!r || !r->tflops) {
                cells.emplace_back(missing_mark);
                continue;
            }
            auto c = format_tflops_value(*r->tflops * 1e12);
            if (r->pct_cublas) c += fmt::format(" ({})", format_percent(*r->pct_cublas));
            cells.push_back(std::move(c));
        }
        t.add_row(std::move(cells));
    }
    out += t.str();
    return out;
}

std::string per_size_roofline(const report_options& opts, const shape& s,
                              std::string_view extension) {
    auto stem = opts.png_path;
    if (const auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
    return fmt::format("{}-{}{}", stem, to_arg(s), extension);
}

std::string summary_report(const analysis& a, const report_options& opts,
                           const std::string& details_path) {
    if (!a.source) TGEMM_THROW(internal, "summary_report: the analysis has no profile");
    std::string s = report_heading(a, opts);
    s += fmt::format(
        "This page is the summary. Per-size tables, the bytes at every level, the model against "
        "every counter, the findings in full, the other plots and the notes: [{0}]({0}).\n\n",
        details_path);
    // A predicted profile times nothing: its table is the calibrated prediction when there is one.
    if (const auto predicted = predicted_tflops_table(a, opts.calibration); !predicted.empty())
        s += "## TFLOP/s (predicted)\n\n" + predicted + "\n";
    else
        s += "## TFLOP/s\n\n" + benchmark_table(a) + "\n";
    // Rungs of this build the profile has no row of: named here, explained in the details.
    std::vector<std::string> absent;
    const auto have = a.source->kernels();
    for (const auto& r : opts.ladder)
        if (std::find(have.begin(), have.end(), r.id) == have.end())
            absent.push_back(md_code(r.id));
    if (!absent.empty())
        s += fmt::format("Not {} in this profile: {} ({}, \"Not {}\").\n\n",
                         a.source->source == profile_source::predicted ? "predicted" : "measured",
                         fmt::join(absent, ", "), details_path,
                         a.source->source == profile_source::predicted ? "predicted" : "measured");
    s += "## Rooflines\n\n";
    if (a.focus_size())
        s += fmt::format("![Hierarchical roofline at {1}]({0}.png)\n\n", opts.hierarchical_stem,
                         to_string(*a.focus_size()));
    if (const auto focus = a.focus_size()) {
        s += fmt::format("![DRAM roofline at {}]({})\n\n", to_string(*focus),
                         per_size_roofline(opts, *focus, ".png"));
        std::vector<std::string> others;
        for (const auto& size : a.source->shapes())
            others.push_back(
                fmt::format("[{}]({})", to_string(size), per_size_roofline(opts, size, ".png")));
        s +=
            fmt::format("The DRAM roofline at each size: {}; every size in one plot: [{}]({}).\n\n",
                        fmt::join(others, ", "), opts.png_path, opts.png_path);
    }
    const auto f = findings(a);
    if (!f.rungs.empty()) {
        s += "## What bounds each rung\n\n";
        for (const auto& g : f.rungs)
            if (!g.lines.empty())
                s += fmt::format("- **{}**: {}\n", g.heading,
                                 g.summary.empty() ? g.lines.front() : g.summary);
        s += fmt::format("\nWhy, rung by rung, and where the models miss: [{0}]({0}).\n",
                         details_path);
    }
    if (const auto line = prediction_summary_line(a, opts.calibration); !line.empty())
        s += "\n## Predicted TFLOP/s\n\n" + line + "\n";
    return s;
}

std::string markdown_report(const analysis& a, const report_options& opts) {
    if (!a.source) TGEMM_THROW(internal, "markdown_report: the analysis has no profile");
    return report_writer(a, opts).write();
}

}  // namespace tgemm::render
