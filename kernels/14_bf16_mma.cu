// BF16 GEMM with mma.sync.m16n8k16 fed by ldmatrix(.trans) from XOR-swizzled shared memory, a
// 4-stage cp.async pipeline (seed 003's ldmatrix and swizzling notes). Kernel:
// kernels/tensor/bf16_mma.cuh; model: kernels/tensor/tensor_mma_model.cpp; derivation:
// docs/models/13_17_tensor.md.
#include "rung.hpp"
#include "tensor/mma_launch.cuh"
#include "tensor/tensor_launches.hpp"
#include "tensor/tensor_rung.hpp"
#include "tensor/tensor_rungs.hpp"

namespace tgemm {
namespace {

using cfg = tensor_rungs::mma;

rung make() {
    return {
        .id = "bf16_mma",
        .display_name = "BF16 mma.sync + ldmatrix, swizzled, 4-stage cp.async",
        .order = 140,
        .types = {element_type::bf16, element_type::bf16},
        .seed = "seed 003, tensor cores: ldmatrix, mma.sync m16n8k16, XOR swizzle",
        .params =
            "BM=128 BN=128 BK=32, 4 warps of 64×64 (4×8 m16n8 blocks), 4 cp.async "
            "stages; A chunks XOR (row/2 mod 4), B chunks XOR (row mod 8)",
        .kernel_symbol = "bf16_mma_kernel",
        .config = kernels::with_kernel(tensor_rungs::mma_launch, bf16_mma::bf16_mma_kernel<cfg>),
        .prepare = [](const gemm_args& g, const launch_context& ctx) -> bound_launch {
            return tensor::prepare_mma<cfg>(kernels::tensor_problem(g), ctx.stream);
        },
        .model = kernels::rung_model_of(kernels::tensor_model::model_bf16_mma),
        .can_run = kernels::tensor_can_run_on(kernels::tensor_arch::sm80, cfg::bm)};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
