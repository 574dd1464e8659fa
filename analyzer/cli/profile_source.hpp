#pragma once
// Where the data for a GPU comes from when this machine does not measure it.
#include <filesystem>
#include <optional>
#include <string>

#include "profile/profile.hpp"

namespace tgemm::cli {

struct loaded_profile {
    profile data;
    std::string origin;  // a path, or "the profile built into this binary"
};

// `path` if it exists, else the embedded profile for `gpu_key`, else nothing. A file that
// exists but is corrupt is an error, never silently replaced by the embedded copy.
[[nodiscard]] std::optional<loaded_profile> load_stored_profile(const std::filesystem::path& path,
                                                                const std::string& gpu_key);

// A measured profile of another GPU of the same architecture (the H100 beside an H200), from
// profiles/<key>.json or the binary, for the report's two-GPU comparison; nothing if none.
[[nodiscard]] std::optional<loaded_profile> partner_profile(const std::string& gpu_key);

// The GPU whose measured profile calibrates every other GPU's predicted TFLOP/s
// (docs/prediction.md): the one the project measures first and most.
inline constexpr const char* calibration_gpu = "h100";

// Its measured profile, from profiles/h100.json or the binary; nothing if neither is measured.
[[nodiscard]] std::optional<loaded_profile> calibration_profile();

}  // namespace tgemm::cli
