#include "render/render_all.hpp"

#include "core/atomic_file.hpp"
#include "model/analysis.hpp"
#include "render/cairo_backend.hpp"
#include "render/markdown_report.hpp"
#include "render/roofline_layout.hpp"

namespace tgemm::render {

report_files render_report(const profile& p, const std::filesystem::path& out_dir,
                           const std::string& profile_label) {
    // Fail on the folder before spending time on the drawing.
    ensure_writable_dir(out_dir);
    const auto a = analyze(p);

    render_options ro;
    ro.measure = cairo_text_width();
    const auto sc = layout_roofline(a, ro);

    report_options mo;
    mo.profile_label = profile_label;
    report_files files{out_dir / mo.png_path, out_dir / mo.svg_path, out_dir / "report.md"};
    write_file_atomic(files.png, render_png(sc));
    write_file_atomic(files.svg, render_svg(sc));
    // The report last: it links to the images, so it never points at files not yet written.
    write_file_atomic(files.markdown, markdown_report(a, mo));
    return files;
}

}  // namespace tgemm::render
