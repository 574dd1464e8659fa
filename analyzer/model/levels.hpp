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
inline constexpr std::string_view duration_ns = "duration_ns";
inline constexpr std::string_view sm_clock_hz = "sm_clock_hz";

// Derived, not a counter of its own: dram_read_bytes + dram_write_bytes.
inline constexpr std::string_view dram_bytes = "dram_bytes";

}  // namespace tgemm::keys
