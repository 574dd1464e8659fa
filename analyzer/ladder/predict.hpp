#pragma once
// A profile with no measurement in it: the spec's roofs and each rung's refined model, for a
// GPU this machine does not have. Every renderer labels it as a prediction.
#include <string>
#include <vector>

#include "core/work_list.hpp"
#include "gpu/spec.hpp"
#include "profile/profile.hpp"
#include "rung.hpp"

namespace tgemm {

// `tensor_only`: shapes only the tensor-core rungs are predicted at, as a measurement would
// measure them. `part`: only that shard's pairs of the work list, recorded as a measured shard
// records them, so `merge` puts shards of a prediction together as it does a measurement's.
[[nodiscard]] profile predict_profile(const gpu_spec& spec, const std::vector<const rung*>& rungs,
                                      const std::vector<shape>& shapes, const std::string& command,
                                      const std::string& date,
                                      const std::vector<shape>& tensor_only = {},
                                      const shard& part = {});

}  // namespace tgemm
