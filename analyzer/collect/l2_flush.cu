#include "collect/l2_flush.hpp"

namespace tgemm {

namespace {

__global__ void l2_flush_kernel(const float4* p, std::size_t n, float* sink) {
    float acc = 0.0f;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float4 v = __ldcg(p + i);  // cache in L2 only
        acc += v.x + v.y + v.z + v.w;
    }
    // Never true for the zero-filled buffer; keeps the loads from being optimised away.
    if (acc == 1.2345e-30f) *sink = acc;
}

}  // namespace

void flush_l2_by_reading(const float* buffer, std::size_t count, float* sink, cudaStream_t stream) {
    l2_flush_kernel<<<1024, 256, 0, stream>>>(reinterpret_cast<const float4*>(buffer), count / 4,
                                              sink);
}

}  // namespace tgemm
