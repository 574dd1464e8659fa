// `tgemm-roofline merge A.json B.json ... -o OUT.json`: profiles of one GPU model combined into
// one (profile/merge.hpp, docs/fleet.md). Writes nothing unless every input reads and agrees.
#include <iostream>

#include "cli/commands.hpp"
#include "profile/merge.hpp"
#include "profile/profile_file.hpp"

namespace tgemm::cli {

int run_merge(const merge_options& o, std::ostream& out, std::ostream& err) {
    std::vector<merge_input> inputs;
    for (const auto& path : o.inputs) inputs.push_back({path, read_profile(path)});
    const auto result = merge_profiles(inputs, o.prefer_latest);
    for (const auto& n : result.notes) err << "tgemm-roofline: " << n << "\n";
    const auto kept = write_profile(o.out, result.merged);
    if (kept) err << "tgemm-roofline: kept the previous profile as " << kept->string() << "\n";
    out << "wrote " << o.out << " (" << result.merged.measurements.size() << " rows from "
        << inputs.size() << " profiles)\n";
    return 0;
}

}  // namespace tgemm::cli
