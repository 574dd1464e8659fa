#pragma once
#include <optional>
#include <string_view>

namespace tgemm::cli {

// The profile shipped in profiles/<key>.json when the binary was built, if any.
[[nodiscard]] std::optional<std::string_view> embedded_profile(std::string_view key);

}  // namespace tgemm::cli
