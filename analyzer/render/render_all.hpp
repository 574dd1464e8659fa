#pragma once
// One call from a profile to a report folder: roofline.png, roofline.svg and report.md.
#include <filesystem>
#include <string>

#include "profile/profile.hpp"

namespace tgemm::render {

struct report_files {
    std::filesystem::path png;
    std::filesystem::path svg;
    std::filesystem::path markdown;
};

// Creates `out_dir` if needed and writes the three files atomically. `profile_label` says
// where the profile came from ("profiles/h100.json") and is printed in the report's first
// lines. An unwritable folder is an error_kind::usage error naming it.
report_files render_report(const profile& p, const std::filesystem::path& out_dir,
                           const std::string& profile_label);

}  // namespace tgemm::render
