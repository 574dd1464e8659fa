// `tgemm-roofline fleet A.json B.json ... [-o FILE] [--margin PCT]`: the fleet report over
// profiles of one GPU model (analysis/fleet.hpp, docs/fleet.md).
#include <filesystem>
#include <iostream>

#include "analysis/fleet.hpp"
#include "cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "profile/profile_file.hpp"
#include "render/fleet_report.hpp"

namespace tgemm::cli {

int run_fleet(const fleet_options& o, const std::string& command_line, std::ostream& out) {
    std::vector<profile> profiles;
    profiles.reserve(o.inputs.size());
    for (const auto& path : o.inputs) profiles.push_back(read_profile(path));
    std::vector<fleet_input> inputs;
    for (std::size_t i = 0; i < profiles.size(); ++i) inputs.push_back({o.inputs[i], &profiles[i]});
    const auto a = analyze_fleet(inputs, o.margin_pct / 100);
    const std::filesystem::path file =
        o.out.empty() ? std::filesystem::path("reports") / profiles.front().gpu.key / "fleet.md"
                      : std::filesystem::path(o.out);
    ensure_writable_dir(file.has_parent_path() ? file.parent_path() : ".");
    write_file_atomic(file, render::fleet_markdown(a, command_line));
    out << "wrote " << file.string() << " (" << a.cards.size() << " cards, " << a.flags.size()
        << " flagged value(s))\n";
    return 0;
}

}  // namespace tgemm::cli
