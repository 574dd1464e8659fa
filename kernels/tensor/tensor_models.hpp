#pragma once
// Refined models of the BF16 tensor-core rungs 13–17 (kernels/tensor/): for one shape, the
// Nsight Compute counters each kernel will read, counted from the kernel's own index arithmetic,
// tile padding, guards and schedule (the shared functions of bf16_*_config.hpp and
// ws_schedule.hpp), plus the seeds' textbook count. Measured with α = 0.5 and β = 3, so every
// model reads C (β ≠ 0). Host-only C++; derivations and the comparison with the H100
// calibration in docs/models/13_17_tensor.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "model/rung_model.hpp"

namespace tgemm::kernels::tensor_model {

// The seeds' count: global traffic from the CTA tile's reuse, shared-memory traffic from the
// warp's (or warpgroup's) fragment reuse.
struct tensor_textbook {
    double flops = 0;         // 2MNK + 2MN
    double global_bytes = 0;  // (MNK/BN + MNK/BM)·2 B + C read and written, 2·MN·2 B
    double smem_bytes = 0;    // operand bytes the MMAs read from shared memory
    std::string formula;
    [[nodiscard]] double dram_ai() const { return global_bytes > 0 ? flops / global_bytes : 0; }
    [[nodiscard]] double smem_ai() const { return smem_bytes > 0 ? flops / smem_bytes : 0; }
};

// What a tensor rung's model predicts: the seeds' textbook count, and the counters as every
// rung's refined model holds them (model/refined_model.hpp: tensor FLOPs, executed and
// tile-padded; the epilogue's FFMA/FMUL/FADD; shared-memory wavefronts of the LSU, ldmatrix,
// stmatrix and wgmma paths; cp.async and TMA bytes; L1 and L2 request bytes; DRAM bytes), with
// one note per assumption. An empty field means "not predicted" (or not applicable).
struct tensor_counts {
    tensor_textbook textbook;
    refined_model refined;
};

// Bytes one shared-memory wavefront of the wgmma path moves:
// sm__sass_data_bytes_mem_shared_op_gmma = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma ×
// 128.
inline constexpr double gmma_wavefront_bytes = 128;

// Rungs 13–17 (the configurations of tensor_rungs.hpp).
[[nodiscard]] tensor_counts model_bf16_wmma(const shape& s, const model_context& mc);
[[nodiscard]] tensor_counts model_bf16_mma(const shape& s, const model_context& mc);
[[nodiscard]] tensor_counts model_bf16_wgmma(const shape& s, const model_context& mc);
[[nodiscard]] tensor_counts model_bf16_ws(const shape& s, const model_context& mc);
[[nodiscard]] tensor_counts model_bf16_cluster(const shape& s, const model_context& mc);
// cuBLAS BF16 (GemmEx): its kernel is cuBLAS's choice, so only compulsory traffic.
[[nodiscard]] tensor_counts model_cublas_bf16(const shape& s, const model_context& mc);

// The tuning sweep's controls measured beside rungs 16 and 17 (tensor_rungs.hpp): the same
// model, other configurations.
[[nodiscard]] tensor_counts model_ws_tma_control(const shape& s, const model_context& mc);
[[nodiscard]] tensor_counts model_cluster_nomc_control(const shape& s, const model_context& mc);

}  // namespace tgemm::kernels::tensor_model
