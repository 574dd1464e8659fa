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

// Predicted counters; an empty optional means "not predicted" (or not applicable).
struct tensor_counts {
    tensor_textbook textbook;
    // sm__ops_path_tensor_op_{hmma,hgmma}_src_bf16_dst_fp32: executed, tile-padded.
    double tensor_flops = 0;
    // smsp__sass_thread_inst_executed_op_{ffma,fmul,fadd}_pred_on (epilogue, stream-K sums).
    std::optional<double> ffma, fmul, fadd;
    // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} (include ldmatrix/stmatrix).
    std::optional<double> smem_load_wavefronts, smem_store_wavefronts;
    // sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ldsm,stsm}.
    std::optional<double> ldsm_wavefronts, stsm_wavefronts;
    // sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.
    std::optional<double> ldsm_bank_conflicts;
    // sm__sass_data_bytes_mem_shared_op_gmma (= l1tex wavefronts op_gmma × 128).
    std::optional<double> gmma_bytes;
    // smsp__sass_data_bytes_mem_shared_op_ldgsts: cp.async bytes written to shared memory.
    std::optional<double> ldgsts_bytes;
    // l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld (multicast counted at each receiving
    // SM), …_tma_ld_dest_multicast, l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.
    std::optional<double> tma_load_bytes, tma_multicast_bytes, tma_store_bytes;
    // l1tex__t_bytes_pipe_lsu_mem_global_op_{ld,st}.
    std::optional<double> l1_global_load_bytes, l1_global_store_bytes;
    // lrc__request_sectors_op_read_coalescable × 32: reads requested from L2, before the L2
    // request coalescer.
    std::optional<double> l2_requested_bytes;
    // dram__bytes_{read,write}.
    double dram_read_bytes = 0;
    double dram_write_bytes = 0;
    // One line per assumption or derivation step, printed in reports.
    std::vector<std::string> notes;
};

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
