#pragma once
// Roofs for a profile, from the GPU's own figures (its attributes when measured, the spec
// database when predicted).
#include <map>
#include <string>

#include "gpu/gpu_info.hpp"
#include "gpu/roof.hpp"
#include "gpu/spec.hpp"

namespace tgemm {

[[nodiscard]] gpu_info gpu_info_from_spec(const gpu_spec& spec);
[[nodiscard]] std::map<std::string, roof, std::less<>> theoretical_roofs(const gpu_info& g);

}  // namespace tgemm
