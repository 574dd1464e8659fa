#pragma once
// What the main command does with a checkpoint next to the profile (<profile>.partial,
// profile/partial_profile.hpp), before it measures anything: continue it (--resume, when it is
// this command's run), or refuse in one line. A run never overwrites a stopped run's pairs
// unasked.
#include <filesystem>
#include <optional>

#include "profile/partial_profile.hpp"

namespace tgemm::cli {

// Without --resume: nothing when there is no checkpoint; error_kind::usage when there is one
// (add --resume, or delete it). With --resume: the checkpoint, when it was made by a run of the
// same identity; error_kind::usage when there is none or it is another run's (naming what
// differs and the command that made it); error_kind::input when it cannot be read.
[[nodiscard]] std::optional<partial_profile> stopped_run_to_resume(
    const std::filesystem::path& partial, bool resume, const run_identity& now);

}  // namespace tgemm::cli
