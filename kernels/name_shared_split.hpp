#pragma once
// Gives every kernel of a launch the L1/shared split gpu/shared_split.hpp derives for it, through
// cudaFuncAttributePreferredSharedMemoryCarveout. rung::bind calls it, so every verified, timed
// and counted launch of the tool, and every `run-kernel` launch Nsight Compute profiles, runs
// with the split its rung asks for rather than one an earlier kernel left.
#include "gpu/sm_limits.hpp"
#include "launch_info.hpp"

namespace tgemm::kernels {

// Throws error_kind::internal when CUDA refuses the attribute or the limits name no capacity
// list; does nothing for limits that are not known (a launch context without a GPU's limits).
void name_shared_split(const launch_info& info, const sm_limits& limits);

}  // namespace tgemm::kernels
