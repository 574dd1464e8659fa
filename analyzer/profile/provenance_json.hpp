#pragma once
// The fleet fields of a profile (schema 1.3, docs/fleet.md): the run's work list and shard, the
// GPU's index and UUID in env, and a merged row's provenance. Apart from profile_json.cpp so
// that the core layout and these optional additions read separately.
#include <nlohmann/json.hpp>
#include <string>

#include "profile/profile.hpp"

namespace tgemm {

// Adds the optional env fields to `env` (an object already holding the others).
void env_fleet_to_json(nlohmann::json& env, const env_info& e);
// Reads them when present; a profile before 1.3 has none. Throws error_kind::input naming the
// key.
void read_env_fleet(const nlohmann::json& env, env_info& e);

[[nodiscard]] nlohmann::json to_json(const row_provenance& p);
[[nodiscard]] row_provenance read_row_provenance(const nlohmann::json& j, const std::string& where);

}  // namespace tgemm
