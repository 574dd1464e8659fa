#pragma once
// Schema 1.4's measurement fields: a row's timing noise (time_ms.noise, noise_target,
// noise_met) and its spread over --repeat N runs (repeats). Apart from profile_json.cpp, as the
// fleet fields are, so that the core layout and these optional additions read separately.
#include <nlohmann/json.hpp>
#include <string>

#include "profile/profile.hpp"

namespace tgemm {

// Adds the noise fields that are set to `time_ms` (an object already holding the others).
void timing_noise_to_json(nlohmann::json& time_ms, const timing& t);
// Reads them when present; a profile before 1.4 has none. Throws error_kind::input naming the
// key.
void read_timing_noise(const nlohmann::json& time_ms, timing& t, const std::string& where);

[[nodiscard]] nlohmann::json to_json(const repeat_summary& r);
[[nodiscard]] repeat_summary read_repeat_summary(const nlohmann::json& j, const std::string& where);

}  // namespace tgemm
