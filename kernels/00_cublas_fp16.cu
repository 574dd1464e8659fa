// The FP16 reference row: cuBLAS GemmEx with FP16 A and B, FP32 C and FP32 accumulation
// (CUBLAS_COMPUTE_32F). No rung of the ladder is FP16: the row shows cuBLAS's FP16 tensor path
// beside its BF16 one.
#include "rung.hpp"
#include "tensor/cublas_gemm_ex.hpp"
#include "tensor/tensor_rung.hpp"

namespace tgemm {
namespace {

// Compulsory traffic only, as for the other cuBLAS rows: FP16 A and B, FP32 C.
rung_model model_fn(const shape& s, const model_context& mc) {
    auto counts = kernels::tensor_model::model_cublas_bf16(s, mc);
    const double mn = double(s.m) * double(s.n);
    // C is 4 bytes, not 2: once more its bytes in each direction.
    counts.textbook.global_bytes += 2.0 * mn * 2.0;
    counts.textbook.formula = "(MK + KN)·2 B + 2MN·4 B: compulsory";
    auto& r = counts.refined;
    *r.dram_read_bytes += 2.0 * mn;
    if (*r.dram_write_bytes > 0) *r.dram_write_bytes *= 2.0;
    return kernels::to_rung_model(counts);
}

rung make() {
    return {.id = "cublas_fp16",
            .display_name = "cuBLAS FP16 in, FP32 out (reference)",
            .order = 2,
            .types = {element_type::fp16, element_type::fp32},
            .seed = "reference: GemmEx, FP16 A and B, FP32 C, FP32 accumulate",
            .params = "library heuristic",
            .kernel_symbol = "",
            .prepare =
                [](const gemm_args& g, const launch_context& ctx) {
                    return kernels::prepare_gemm_ex(g, ctx, CUDA_R_16F, CUDA_R_32F);
                },
            .model = model_fn,
            .can_run = [](const gpu_info& gpu, const shape&) -> std::optional<std::string> {
                if (kernels::cc_major(gpu) < 7)
                    return "FP16 tensor cores need compute capability 7.0 or newer; this GPU is " +
                           gpu.cc;
                return std::nullopt;
            }};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make())
