#pragma once
#include <nlohmann/json.hpp>

#include "profile/profile.hpp"

namespace tgemm {

void to_json(nlohmann::json& j, const profile& p);
// Validates as it reads: throws error_kind::input with a message naming the problem (the
// caller prefixes the file name).
[[nodiscard]] profile profile_from_json(const nlohmann::json& j);

}  // namespace tgemm
