#include <filesystem>
#include <iostream>

#include "analysis/analysis.hpp"
#include "cli/commands.hpp"
#include "cli/render_stored.hpp"
#include "core/atomic_file.hpp"
#include "ladder/current_models.hpp"
#include "profile/profile_file.hpp"
#include "render/markdown_report.hpp"
#include "render/render_all.hpp"

namespace tgemm::cli {

int run_report(const report_options& o, std::ostream& out, std::ostream&) {
    const auto p = read_profile(o.profile);
    if (o.summary) {
        out << render::benchmark_table(analyze(with_current_models(p)));
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
