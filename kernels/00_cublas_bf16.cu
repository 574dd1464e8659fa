// The BF16 reference row: cuBLAS GemmEx with BF16 A, B and C and FP32 accumulation
// (CUBLAS_COMPUTE_32F), the library's own tensor-core kernel for each shape.
#include "rung.hpp"
#include "tensor/cublas_gemm_ex.hpp"
#include "tensor/tensor_rung.hpp"

namespace tgemm {
namespace {

rung make() {
    return {.id = "cublas_bf16",
            .display_name = "cuBLAS BF16 (reference)",
            .order = 1,
            .types = {element_type::bf16, element_type::bf16},
            .seed = "reference for the BF16 rungs: GemmEx, BF16 in and out, FP32 accumulate",
            .params = "library heuristic",
            .kernel_symbol = "",
            .prepare =
                [](const gemm_args& g, const launch_context& ctx) {
                    return kernels::prepare_gemm_ex(g, ctx, CUDA_R_16BF, CUDA_R_16BF);
                },
            .model = kernels::rung_model_of(kernels::tensor_model::model_cublas_bf16),
            .can_run = [](const gpu_info& gpu, const shape&) -> std::optional<std::string> {
                // The library takes any shape; BF16 GEMM needs compute capability 8.0.
                if (kernels::cc_major(gpu) < 8)
                    return "BF16 GEMM needs compute capability 8.0 or newer; this GPU is " + gpu.cc;
                return std::nullopt;
            }};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
