#include "tensor/tensor_rung.hpp"

#include "can_run.hpp"
#include "common.cuh"

namespace tgemm::kernels {

int cc_major(const gpu_info& gpu) {
    try {
        return gpu.cc.empty() ? 0 : std::stoi(gpu.cc.substr(0, gpu.cc.find('.')));
    } catch (const std::exception&) {
        return 0;
    }
}

std::optional<std::string> tensor_can_run(const gpu_info& gpu, const shape& s, tensor_arch arch,
                                          int tile_m) {
    if (s.n % 8 != 0 || s.k % 8 != 0) {
        // Name only the sizes at fault: "N = 3500 and K = 1200" would blame a K that is fine.
        std::string bad;
        if (s.n % 8 != 0) bad = "N = " + std::to_string(s.n);
        if (s.k % 8 != 0) bad += (bad.empty() ? "" : " and ") + ("K = " + std::to_string(s.k));
        return bad + (s.n % 8 != 0 && s.k % 8 != 0 ? " are not multiples" : " is not a multiple") +
               " of 8: rows of bf16 A, B and C must be whole 16-byte units for TMA and the "
               "16-byte copies";
    }
    if (auto why = int_indices_exceeded(s)) return why;
    const int major = cc_major(gpu);
    if (arch == tensor_arch::sm80 && major < 8)
        return "needs compute capability 8.0 or newer (bf16 mma.sync); this GPU is " + gpu.cc;
    if (arch == tensor_arch::sm90a) {
        if (major != 9)
            return "needs wgmma, which only compute capability 9.0 (Hopper) has; this GPU is " +
                   gpu.cc;
        if (!TGEMM_HAS_SM90A)
            return "this build has no sm_90a code (wgmma): configure with "
                   "CMAKE_CUDA_ARCHITECTURES including 90a";
    }
    if (tile_m > 0) return grid_rows_exceeded(s, tile_m);
    return std::nullopt;
}

decltype(rung::can_run) tensor_can_run_on(tensor_arch arch, int tile_m) {
    return [arch, tile_m](const gpu_info& gpu, const shape& s) {
        return tensor_can_run(gpu, s, arch, tile_m);
    };
}

tensor::problem tensor_problem(const gemm_args& g) {
    return {static_cast<int>(g.size.m),
            static_cast<int>(g.size.n),
            static_cast<int>(g.size.k),
            g.alpha,
            g.beta,
            g.a_as<__nv_bfloat16>(),
            g.b_as<__nv_bfloat16>(),
            g.c_as<__nv_bfloat16>()};
}

rung_model to_rung_model(const tensor_model::tensor_counts& c) {
    rung_model m;
    m.textbook.flops = c.textbook.flops;
    m.textbook.global_bytes = c.textbook.global_bytes;
    m.textbook.formula = c.textbook.formula;
    if (c.textbook.smem_bytes > 0) m.textbook.smem_accesses = c.textbook.smem_bytes / 2.0;
    m.refined = c.refined;
    return m;
}

decltype(rung::model) rung_model_of(tensor_model_fn model) {
    return [model](const shape& s, const model_context& mc) { return to_rung_model(model(s, mc)); };
}

}  // namespace tgemm::kernels
