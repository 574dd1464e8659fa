#pragma once
// The model context of a GPU of the spec database, as a predicted profile builds it: the model
// tests state which GPU their numbers are for.
#include <string_view>

#include "gpu/peaks.hpp"
#include "gpu/spec.hpp"
#include "model/rung_model.hpp"

namespace tgemm::test {

inline model_context context_of(std::string_view gpu_key) {
    return model_context_for(gpu_info_from_spec(find_gpu(gpu_key)));
}

// 50 MiB of L2, 132 SMs, compute capability 9.0: what the shipped H100 profile was measured on.
inline model_context h100() {
    return context_of("h100");
}

// For counts Nsight Compute made: its counts hold none of the collector's own window
// (gpu_spec::collector_window_fabric_bytes), so the model leaves it out.
inline model_context for_ncu(model_context mc) {
    mc.collector_window_fabric_bytes = 0;
    return mc;
}

}  // namespace tgemm::test
