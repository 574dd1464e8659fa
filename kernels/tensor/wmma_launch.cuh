#pragma once
// The host launch of the WMMA kernel (bf16_wmma.cuh) (tensor/launch_common.hpp).
#include <cuda.h>

#include "tensor/bf16_wmma.cuh"
#include "tensor/launch_common.hpp"

namespace tgemm::tensor {

inline prepared prepare_wmma(const problem& p, cudaStream_t stream) {
    using cfg = bf16_wmma::config;
    auto* kernel = &bf16_wmma::bf16_wmma_kernel;
    check_cuda(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg::smem_bytes),
        "cudaFuncSetAttribute (WMMA shared memory)");
    const dim3 grid((p.n + cfg::bn - 1) / cfg::bn, (p.m + cfg::bm - 1) / cfg::bm);
    return [=] { kernel<<<grid, cfg::threads, cfg::smem_bytes, stream>>>(p); };
}

}  // namespace tgemm::tensor
