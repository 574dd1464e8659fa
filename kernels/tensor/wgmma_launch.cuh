#pragma once
// The host launch of the wgmma + TMA kernel (bf16_wgmma.cuh) (tensor/launch_common.hpp).
#include <cuda.h>

#include "tensor/bf16_wgmma.cuh"
#include "tensor/launch_common.hpp"

namespace tgemm::tensor {

template <class Cfg>
prepared prepare_wgmma(const problem& p, cudaStream_t stream) {
    CUtensorMap ma{}, mb{};
    check_map(encode_2d(ma, p.a, map_element::bf16, p.m, p.k, p.k, Cfg::bm, 64));
    check_map(encode_2d(mb, p.b, map_element::bf16, p.k, p.n, p.n, 64, 64));
    auto* kernel = &bf16_wgmma::bf16_wgmma_kernel<Cfg>;
    check_cuda(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::smem_bytes),
        "cudaFuncSetAttribute (wgmma shared memory)");
    const dim3 grid((p.n + Cfg::bn - 1) / Cfg::bn, (p.m + Cfg::bm - 1) / Cfg::bm);
    const bf16_wgmma::params prm{p.m, p.n, p.k, p.alpha, p.beta, p.c};
    return [=] { kernel<<<grid, Cfg::threads, Cfg::smem_bytes, stream>>>(ma, mb, prm); };
}

}  // namespace tgemm::tensor
