// BF16 GEMM with WMMA (seed 003's first tensor-core step): 16×16×16 fragments loaded from
// shared-memory tiles with wmma::load_matrix_sync. Kernel: kernels/tensor/bf16_wmma.cuh; model:
// kernels/tensor/tensor_wmma_model.cpp; derivation: docs/models/13_17_tensor.md.
#include "rung.hpp"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_rung.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/wmma_launch.cuh"

namespace tgemm {
namespace {

using cfg = tensor_rungs::wmma;

rung make() {
    return {.id = "bf16_wmma",
            .display_name = "BF16 WMMA 16×16×16, 128×128×32 tiles",
            .order = 130,
            .types = {element_type::bf16, element_type::bf16},
            .seed = "seed 003, tensor cores: wmma.load / wmma.mma (bf16 m16n16k16)",
            .params =
                "BM=128 BN=128 BK=32, 8 warps of 32×64, one shared-memory stage with rows "
                "padded by 8 bf16; C staged through shared memory for the α/β epilogue",
            .kernel_symbol = "bf16_wmma_kernel",
            .config = kernels::with_kernel(tensor_rungs::wmma_launch, bf16_wmma::bf16_wmma_kernel),
            .prepare = [](const gemm_args& g, const launch_context& ctx) -> bound_launch {
                return tensor::prepare_wmma(kernels::tensor_problem(g), ctx.stream);
            },
            .model = kernels::rung_model_of(kernels::tensor_model::model_bf16_wmma),
            .can_run = kernels::tensor_can_run_on(kernels::tensor_arch::sm80, cfg::bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
