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

// Derived, not a counter of its own: dram_read_bytes + dram_write_bytes.
inline constexpr std::string_view dram_bytes = "dram_bytes";
// Derived: the four tensor_*_flops above (the tensor-core FLOPs a kernel executed).
inline constexpr std::string_view tensor_flops = "tensor_flops";

}  // namespace tgemm::keys
