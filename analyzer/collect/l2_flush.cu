#include "collect/l2_flush.hpp"

namespace tgemm {

namespace {

__global__ void l2_fill_kernel(float4* p, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

__global__ void l2_discard_kernel(char* p, std::size_t lines) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += stride)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + i * 128) : "memory");
}

}  // namespace

void flush_l2(float* buffer, std::size_t count, cudaStream_t stream) {
    l2_fill_kernel<<<1024, 256, 0, stream>>>(reinterpret_cast<float4*>(buffer), count / 4);
    l2_discard_kernel<<<1024, 256, 0, stream>>>(reinterpret_cast<char*>(buffer),
                                                count * sizeof(float) / 128);
}

}  // namespace tgemm
