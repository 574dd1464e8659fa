// BF16 GEMM with wgmma and TMA, one warpgroup per CTA: TMA copies of A (K-major) and B
// (N-major), 128-byte swizzle, each stage completing on an mbarrier; the warpgroup waits for
// its own wgmma. Kernel: kernels/tensor/bf16_wgmma.cuh; model:
// kernels/tensor/tensor_wgmma_model.cpp; derivation: docs/models/13_17_tensor.md.
#include "rung.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_rung.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/wgmma_launch.cuh"

namespace tgemm {
namespace {

using cfg = tensor_rungs::wgmma;

rung make() {
    return {.id = "bf16_wgmma",
            .display_name = "BF16 wgmma + TMA, one warpgroup",
            .order = 150,
            .types = {element_type::bf16, element_type::bf16},
            .seed =
                "seed 003's tensor-core ladder, continued on Hopper: wgmma.mma_async + "
                "cp.async.bulk.tensor",
            .params =
                "BM=128 BN=128 BK=64, 128 threads (two m64n128k16 per k16), 4 TMA stages "
                "of 32 KiB, 128-byte swizzle",
            .kernel_symbol = "bf16_wgmma_kernel",
            .config = kernels::with_kernel(tensor_rungs::wgmma_launch,
                                           bf16_wgmma::bf16_wgmma_kernel<cfg>),
            .prepare = [](const gemm_args& g, const launch_context& ctx) -> bound_launch {
                return tensor::prepare_wgmma<cfg>(kernels::tensor_problem(g), ctx.stream);
            },
            .model = kernels::rung_model_of(kernels::tensor_model::model_bf16_wgmma),
            .can_run = kernels::tensor_can_run_on(kernels::tensor_arch::sm90a, cfg::bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
