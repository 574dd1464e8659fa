#include <filesystem>
#include <iostream>

#include "analysis/analysis.hpp"
#include "analysis/repeatability.hpp"
#include "analysis/timing_noise.hpp"
#include "cli/commands.hpp"
#include "cli/render_stored.hpp"
#include "core/atomic_file.hpp"
#include "ladder/current_models.hpp"
#include "profile/profile_file.hpp"
#include "render/markdown_report.hpp"
#include "render/md_table.hpp"
#include "render/render_all.hpp"

namespace tgemm::cli {

namespace {

// The caption, then the table when it has rows, as markdown.
void print_table(std::ostream& out, const text_table& t) {
    out << t.caption << "\n";
    if (t.rows.empty()) return;
    std::vector<render::align> aligns(t.header.size(), render::align::right);
    aligns[0] = aligns[1] = render::align::left;
    if (aligns.size() > 2 && t.header[2] == "value") aligns[2] = render::align::left;
    render::md_table md(t.header, aligns);
    for (const auto& row : t.rows) md.add_row(row);
    out << "\n" << md.str();
}

}  // namespace

int run_report(const report_options& o, std::ostream& out, std::ostream&) {
    const auto p = read_profile(o.profile);
    if (o.repeatability) {
        print_table(out, repeatability_table(p));
        return 0;
    }
    if (o.summary) {
        out << render::benchmark_table(analyze(with_current_models(p)));
        // A profile before 1.4 has no noise: its summary is the table alone, as it was.
        if (const auto noise = timing_noise_table(p); !noise.caption.empty()) {
            out << "\n";
            print_table(out, noise);
        }
        return 0;
    }
    const std::filesystem::path dir =
        o.out.empty() ? std::filesystem::path("reports") / p.gpu.key : std::filesystem::path(o.out);
    ensure_writable_dir(dir);
    render_stored(p, dir, o.profile);
    out << "wrote " << (dir / "report.md").string() << " and " << (dir / "roofline.png").string()
        << "\n";
    return 0;
}

}  // namespace tgemm::cli
