#include "collect/l2_flush.hpp"

namespace {

// Reads `n` float4 once, cached in L2 only (ld.global.cg): every line it brings in is clean, and
// each one it evicts (the restored C, earlier kernels' results) is written back now, before the
// counted launch, not during it. The XOR keeps the loads alive; the sink is written only on a
// value the data never folds to in practice.
__global__ void tgemm_aux_l2_flush(const float4* __restrict__ p, std::size_t n, unsigned* sink) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    unsigned acc = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
        const float4 v = __ldcg(p + i);
        acc ^= __float_as_uint(v.x) ^ __float_as_uint(v.y) ^ __float_as_uint(v.z) ^
               __float_as_uint(v.w);
    }
    if (acc == 0x9e3779b9u) *sink = acc;
}

}  // namespace

namespace tgemm {

void flush_l2(float* buffer, std::size_t count, cudaStream_t stream) {
    // The last float4 of the buffer is the sink: its value is never read back.
    tgemm_aux_l2_flush<<<1024, 256, 0, stream>>>(reinterpret_cast<const float4*>(buffer),
                                                 count / 4 - 1,
                                                 reinterpret_cast<unsigned*>(buffer + count - 4));
}

}  // namespace tgemm
