#pragma once
#include <nlohmann/json.hpp>

#include "profile/profile.hpp"

namespace tgemm {

void to_json(nlohmann::json& j, const profile& p);
// Validates as it reads: throws error_kind::input with a message naming the problem (the
// caller prefixes the file name).
[[nodiscard]] profile profile_from_json(const nlohmann::json& j);

// One row of "measurements", as the profile writes and reads it (a partial profile keeps the
// rows of later --repeat runs in this form too, profile/partial_profile.hpp). `where` names the
// row in messages: "measurements[3]".
[[nodiscard]] nlohmann::json measurement_to_json(const measurement& m);
[[nodiscard]] measurement measurement_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace tgemm
