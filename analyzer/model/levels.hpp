#pragma once
// The names of every quantity the tool measures or predicts. Counters, the refined model and
// the profile file all use these keys, so a model value and its counter meet by name.
#include <array>
#include <string_view>

namespace tgemm::keys {

inline constexpr std::string_view flops = "flops";  // 2·FFMA + FADD + FMUL, executed
inline constexpr std::string_view ffma = "ffma";
inline constexpr std::string_view fadd = "fadd";
inline constexpr std::string_view fmul = "fmul";
inline constexpr std::string_view dram_read_bytes = "dram_read_bytes";
inline constexpr std::string_view dram_write_bytes = "dram_write_bytes";
inline constexpr std::string_view l2_bytes = "l2_bytes";
inline constexpr std::string_view l2_read_bytes = "l2_read_bytes";
inline constexpr std::string_view l2_write_bytes = "l2_write_bytes";
// lts__t_bytes split by who asked (docs/models/l2.md): the SMs' L1/TEX units, and the other
// L2 partition forwarding a miss on a line whose home is here (Hopper's L2 is two halves).
inline constexpr std::string_view l2_tex_bytes = "l2_tex_bytes";
inline constexpr std::string_view l2_fabric_bytes = "l2_fabric_bytes";
inline constexpr std::string_view l1_global_load_bytes = "l1_global_load_bytes";
inline constexpr std::string_view l1_global_store_bytes = "l1_global_store_bytes";
inline constexpr std::string_view l1_global_load_requests = "l1_global_load_requests";
inline constexpr std::string_view smem_load_wavefronts = "smem_load_wavefronts";
inline constexpr std::string_view smem_store_wavefronts = "smem_store_wavefronts";
inline constexpr std::string_view smem_load_bank_conflicts = "smem_load_bank_conflicts";
inline constexpr std::string_view smem_store_bank_conflicts = "smem_store_bank_conflicts";
inline constexpr std::string_view smem_load_bytes = "smem_load_bytes";
inline constexpr std::string_view smem_store_bytes = "smem_store_bytes";
inline constexpr std::string_view smem_ldgsts_bytes = "smem_ldgsts_bytes";
// Tensor cores (docs/tensor/README.md: these count FLOPs, 2·M·N·K for an aligned GEMM). wgmma
// runs on the HGMMA path, mma.sync and WMMA on HMMA.
inline constexpr std::string_view tensor_hgmma_bf16_flops = "tensor_hgmma_bf16_flops";
inline constexpr std::string_view tensor_hgmma_fp16_flops = "tensor_hgmma_fp16_flops";
inline constexpr std::string_view tensor_hmma_bf16_flops = "tensor_hmma_bf16_flops";
inline constexpr std::string_view tensor_hmma_fp16_flops = "tensor_hmma_fp16_flops";
// Shared memory as the tensor kernels use it: wgmma's operand reads (128-byte wavefronts),
// ldmatrix and stmatrix (part of the _op_ld and _op_st wavefronts above too).
inline constexpr std::string_view smem_gmma_wavefronts = "smem_gmma_wavefronts";
inline constexpr std::string_view smem_ldsm_wavefronts = "smem_ldsm_wavefronts";
inline constexpr std::string_view smem_ldsm_bank_conflicts = "smem_ldsm_bank_conflicts";
inline constexpr std::string_view smem_stsm_wavefronts = "smem_stsm_wavefronts";
// TMA: bytes delivered to shared memory (a multicast box counted at each CTA it reaches), the
// multicast part of them, and bytes stored from shared memory to global memory.
inline constexpr std::string_view tma_load_bytes = "tma_load_bytes";
inline constexpr std::string_view tma_multicast_bytes = "tma_multicast_bytes";
inline constexpr std::string_view tma_store_bytes = "tma_store_bytes";
// Reads requested from L2 (32-byte sectors, a multicast box once) before the L2 request
// coalescer, and the part of them it merged with an identical request in flight.
inline constexpr std::string_view l2_requested_bytes = "l2_requested_bytes";
inline constexpr std::string_view l2_coalesced_bytes = "l2_coalesced_bytes";
inline constexpr std::string_view duration_ns = "duration_ns";
inline constexpr std::string_view sm_clock_hz = "sm_clock_hz";

// Execution: why a kernel runs below its roofs (docs/why.md). Each is the Nsight Compute metric
// of the same meaning, so the validation compares them by name.
inline constexpr std::string_view sm_cycles_active = "sm_cycles_active";  // summed over SMs
inline constexpr std::string_view inst_executed = "inst_executed";        // warp instructions
inline constexpr std::string_view achieved_occupancy_pct = "achieved_occupancy_pct";
inline constexpr std::string_view issue_active_pct = "issue_active_pct";  // per scheduler
inline constexpr std::string_view ipc = "ipc";  // warp instructions per active cycle, per SM
inline constexpr std::string_view fma_pipe_pct = "fma_pipe_pct";
inline constexpr std::string_view tensor_pipe_pct = "tensor_pipe_pct";
// Warp-cycles: every resident warp adds one per cycle to warps_active and one to exactly one
// stall_* reason ("selected" is the warp that issued), so stall_x / warp_cycles is the share of
// the warps' time spent in state x.
inline constexpr std::string_view warp_cycles = "warp_cycles";
inline constexpr std::string_view stall_prefix = "stall_";

// Derived, not a counter of its own: dram_read_bytes + dram_write_bytes.
inline constexpr std::string_view dram_bytes = "dram_bytes";
// Derived: the four tensor_*_flops above (the tensor-core FLOPs a kernel executed).
inline constexpr std::string_view tensor_flops = "tensor_flops";

}  // namespace tgemm::keys
