// `tgemm-roofline fleet A.json B.json ... [-o FILE] [--margin PCT]`: the fleet report over
// profiles of one GPU model (analysis/fleet.hpp, docs/fleet.md).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "analysis/fleet.hpp"
#include "analysis/fleet_models.hpp"
#include "cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "profile/profile_file.hpp"
#include "render/fleet_report.hpp"
#include "render/md_table.hpp"

namespace tgemm::cli {

int run_fleet(const fleet_options& o, const std::string& command_line, std::ostream& out) {
    std::vector<profile> profiles;
    profiles.reserve(o.inputs.size());
    for (const auto& path : o.inputs) profiles.push_back(read_profile(path));
    std::vector<fleet_input> inputs;
    for (std::size_t i = 0; i < profiles.size(); ++i) inputs.push_back({o.inputs[i], &profiles[i]});
    // One section per model (its cards against their median), and across models when there are
    // several.
    std::vector<std::string> keys;
    for (const auto& p : profiles)
        if (std::find(keys.begin(), keys.end(), p.gpu.key) == keys.end()) keys.push_back(p.gpu.key);
    std::string md;
    std::size_t flags = 0;
    if (keys.size() == 1) {
        const auto a = analyze_fleet(inputs, o.margin_pct / 100);
        flags = a.flags.size();
        md = render::fleet_markdown(a, command_line);
    } else {
        md = fmt::format("# Fleet report: {} cards of {} GPU models\n\nMade by {}.\n\n",
                         profiles.size(), keys.size(), render::md_code(command_line));
        md += render::models_markdown(analyze_models(inputs)) + "\n";
        for (const auto& key : keys) {
            std::vector<fleet_input> same;
            for (const auto& in : inputs)
                if (in.data->gpu.key == key) same.push_back(in);
            if (same.size() < 2) {
                md += fmt::format("## {}: one card ({}), nothing to compare it with\n\n", key,
                                  same.front().origin);
                continue;
            }
            const auto a = analyze_fleet(same, o.margin_pct / 100);
            flags += a.flags.size();
            md += render::fleet_markdown(a, command_line, 2) + "\n";
        }
    }
    const std::filesystem::path file =
        o.out.empty() ? std::filesystem::path("reports") / profiles.front().gpu.key / "fleet.md"
                      : std::filesystem::path(o.out);
    ensure_writable_dir(file.has_parent_path() ? file.parent_path() : ".");
    write_file_atomic(file, md);
    out << "wrote " << file.string() << " (" << profiles.size() << " cards, " << flags
        << " flagged value(s))\n";
    return 0;
}

}  // namespace tgemm::cli
