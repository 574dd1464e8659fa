#include "name_shared_split.hpp"

#include <cuda_runtime_api.h>

#include "core/throw.hpp"
#include "gpu/shared_split.hpp"

namespace tgemm::kernels {

void name_shared_split(const launch_info& info, const sm_limits& limits) {
    if (!limits.known() || !info.kernel) return;
    const auto split = shared_split_for(limits, info.cta());
    const auto name = [&](const void* kernel) {
        if (!kernel) return;
        const auto e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            split.carveout_percent);
        if (e != cudaSuccess)
            TGEMM_THROW(internal, "cudaFuncSetAttribute (shared-memory carveout {} %): {}",
                        split.carveout_percent, cudaGetErrorString(e));
    };
    name(info.kernel);
    for (const void* k : info.other_paths) name(k);
}

}  // namespace tgemm::kernels
