#pragma once
// The host launch of the mma.sync kernel (bf16_mma.cuh) (tensor/launch_common.hpp).
#include <cuda.h>

#include "tensor/bf16_mma.cuh"
#include "tensor/launch_common.hpp"

namespace tgemm::tensor {

template <class Cfg>
prepared prepare_mma(const problem& p, cudaStream_t stream) {
    auto* kernel = &bf16_mma::bf16_mma_kernel<Cfg>;
    check_cuda(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::smem_bytes),
        "cudaFuncSetAttribute (mma.sync shared memory)");
    const dim3 grid((p.n + Cfg::bn - 1) / Cfg::bn, (p.m + Cfg::bm - 1) / Cfg::bm);
    return [=] { kernel<<<grid, Cfg::threads, Cfg::smem_bytes, stream>>>(p); };
}

}  // namespace tgemm::tensor
