// The reference row: cuBLAS SGEMM in pedantic FP32 (no TF32), the same call that verifies
// every other rung.
#include "can_run.hpp"
#include "common.cuh"
#include "core/error.hpp"
#include "rung.hpp"

namespace tgemm {
namespace {

void launch_cublas(const gemm_args& g, const launch_context& ctx) {
    // cuBLAS is column-major: a row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ, so pass B
    // first and swap m and n.
    const auto st = cublasSgemm(ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(g.size.n),
                                static_cast<int>(g.size.m), static_cast<int>(g.size.k), &g.alpha,
                                g.b_as<float>(), static_cast<int>(g.size.n), g.a_as<float>(),
                                static_cast<int>(g.size.k), &g.beta, g.c_as<float>(),
                                static_cast<int>(g.size.n));
    if (st != CUBLAS_STATUS_SUCCESS)
        throw error(error_kind::internal,
                    std::string("cublasSgemm failed: ") + cublasGetStatusString(st));
}

rung_model model_cublas(const shape& s, const model_context& mc) {
    rung_model m;
    m.textbook.flops = model::seed_flops(s);
    // No seed formula for a library kernel: the textbook row is the compulsory traffic.
    m.textbook.global_bytes = model::compulsory_read_bytes(s) + model::compulsory_write_bytes(s);
    m.textbook.formula = "compulsory: A, B, C read once, C written once, × 4 B";
    m.refined.dram_read_bytes = model::compulsory_read_bytes(s);
    m.refined.dram_write_bytes = model::dram_write_bytes(s, mc);
    if (model::compulsory_read_bytes(s) > 0.5 * double(mc.l2_bytes))
        m.refined.notes.emplace_back(
            "DRAM: A, B and C exceed half the L2, so cuBLAS's own kernel re-reads strips of A "
            "and B as its tiles allow; its tiling is not modelled, so the compulsory reads are "
            "a lower bound");
    model::add_dram_write_notes(m.refined);
    m.refined.notes.push_back(
        "cuBLAS picks its own kernel per shape; only its compulsory DRAM traffic is modelled");
    return m;
}

rung make_cublas() {
    return {.id = "cublas",
            .display_name = "cuBLAS SGEMM (reference)",
            .order = 0,
            .seed = "reference; pedantic FP32 math mode",
            .params = "library heuristic",
            .kernel_symbol = "",
            .launch = launch_cublas,
            .model = model_cublas,
            .can_run = kernels::runs_any_shape()};
}

}  // namespace
}  // namespace tgemm

TGEMM_REGISTER_RUNG(tgemm::make_cublas())
