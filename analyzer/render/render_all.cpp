#include "render/render_all.hpp"

#include <optional>

#include "analysis/analysis.hpp"
#include "core/atomic_file.hpp"
#include "render/ai_size_chart.hpp"
#include "render/bytes_chart.hpp"
#include "render/cairo_backend.hpp"
#include "render/chart_cairo.hpp"
#include "render/hierarchical_layout.hpp"
#include "render/markdown_report.hpp"
#include "render/roofline_layout.hpp"
#include "render/tflops_chart.hpp"

namespace tgemm::render {

report_files render_report(const profile& p, const std::filesystem::path& out_dir,
                           const std::string& profile_label, const comparison& compare,
                           const std::vector<ladder_rung>& ladder) {
    // Fail on the folder before spending time on the drawing.
    ensure_writable_dir(out_dir);
    const auto a = analyze(p);

    render_options ro;
    ro.measure = cairo_text_width();
    const auto sc = layout_roofline(a, ro);

    report_options mo;
    mo.profile_label = profile_label;
    mo.ladder = ladder;
    mo.calibration = compare.calibration;
    mo.calibration_label = compare.calibration_label;
    std::optional<analysis> other;
    if (compare.other) {
        other = analyze(*compare.other);
        mo.compare = &*other;
        mo.compare_label = compare.label;
    }
    report_files files;
    files.png = out_dir / mo.png_path;
    files.svg = out_dir / mo.svg_path;
    files.hier_png = out_dir / "hierarchical-roofline.png";
    files.hier_svg = out_dir / "hierarchical-roofline.svg";
    files.bytes_png = out_dir / "bytes-per-level.png";
    files.bytes_svg = out_dir / "bytes-per-level.svg";
    files.ai_png = out_dir / "ai-vs-size.png";
    files.ai_svg = out_dir / "ai-vs-size.svg";
    files.tflops_png = out_dir / "tflops.png";
    files.tflops_svg = out_dir / "tflops.svg";
    files.markdown = out_dir / "report.md";
    files.details = out_dir / "details.md";
    write_file_atomic(files.png, render_png(sc));
    write_file_atomic(files.svg, render_svg(sc));
    for (const auto& size : p.shapes()) {
        profile one = p;
        std::erase_if(one.measurements, [&](const measurement& m) { return m.size != size; });
        const auto a1 = analyze(one);
        const auto sc1 = layout_roofline(a1, ro);
        files.per_size_png.push_back(out_dir / per_size_roofline(mo, size, ".png"));
        files.per_size_svg.push_back(out_dir / per_size_roofline(mo, size, ".svg"));
        write_file_atomic(files.per_size_png.back(), render_png(sc1));
        write_file_atomic(files.per_size_svg.back(), render_svg(sc1));
    }
    // The layout needs at least one row; a profile whose every row was skipped has none.
    if (a.focus_size()) {
        const auto hier = layout_hierarchical_roofline(a, ro);
        write_file_atomic(files.hier_png, render_png(hier));
        write_file_atomic(files.hier_svg, render_svg(hier));
    }

    chart_options co;
    co.measure = ro.measure;
    const auto write_chart = [](const chart& c, const std::filesystem::path& png,
                                const std::filesystem::path& svg) {
        write_file_atomic(png, render_chart_png(c));
        write_file_atomic(svg, render_chart_svg(c));
    };
    write_chart(layout_bytes_per_level(a, co), files.bytes_png, files.bytes_svg);
    write_chart(layout_ai_vs_size(a, co), files.ai_png, files.ai_svg);
    write_chart(layout_tflops(a, co), files.tflops_png, files.tflops_svg);
    // The report last: it links to the images, so it never points at files not yet written.
    write_file_atomic(files.details, markdown_report(a, mo));
    write_file_atomic(files.markdown, summary_report(a, mo, "details.md"));
    return files;
}

}  // namespace tgemm::render
