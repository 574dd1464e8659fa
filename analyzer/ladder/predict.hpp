#pragma once
// A profile with no measurement in it: the spec's roofs and each rung's refined model, for a
// GPU this machine does not have. Every renderer labels it as a prediction.
#include <string>
#include <vector>

#include "gpu/spec.hpp"
#include "profile/profile.hpp"
#include "rung.hpp"

namespace tgemm {

// `tensor_only`: shapes only the tensor-core rungs are predicted at, as a measurement would
// measure them.
[[nodiscard]] profile predict_profile(const gpu_spec& spec, const std::vector<const rung*>& rungs,
                                      const std::vector<shape>& shapes, const std::string& command,
                                      const std::string& date,
                                      const std::vector<shape>& tensor_only = {});

}  // namespace tgemm
