#pragma once
#include <filesystem>
#include <optional>

#include "profile/profile.hpp"

namespace tgemm {

// Reads and validates; errors name the file and what is wrong with it.
[[nodiscard]] profile read_profile(const std::filesystem::path& path);
[[nodiscard]] profile parse_profile(std::string_view text, const std::string& origin);
[[nodiscard]] std::string dump_profile(const profile& p);

// Writes atomically. When `path` already holds a profile, it is kept beside the new one as
// `<stem>.previous-<date>.json`; the return value is that path, so the caller can say so.
std::optional<std::filesystem::path> write_profile(const std::filesystem::path& path,
                                                   const profile& p);

}  // namespace tgemm
