#pragma once
// A stored or just-measured profile rendered as a report folder: with the two-GPU section when
// another GPU of the same architecture has a measured profile, and one "not measured" line for
// each rung of this build that the profile has no row of.
#include <filesystem>
#include <string>
#include <vector>

#include "profile/profile.hpp"
#include "render/markdown_report.hpp"

namespace tgemm::cli {

// The registered rungs, in ladder order, as the report names them.
[[nodiscard]] std::vector<render::ladder_rung> registered_ladder();

void render_stored(const profile& p, const std::filesystem::path& out_dir,
                   const std::string& label);

}  // namespace tgemm::cli
