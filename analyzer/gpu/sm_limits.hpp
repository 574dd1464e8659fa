#pragma once
// What one SM can hold at once: the limits that decide how many CTAs of a kernel are resident
// (gpu/occupancy.hpp). Facts of the compute capability; a measured profile takes them from the
// device's own attributes where CUDA reports them (collect/device.cpp).
#include <cstdint>
#include <optional>
#include <string_view>

namespace tgemm {

struct sm_limits {
    int threads_per_sm = 0;        // resident threads (warps × 32)
    int ctas_per_sm = 0;           // resident CTAs (thread blocks)
    int registers_per_sm = 0;      // 32-bit registers
    int registers_per_thread = 0;  // the most one thread may use
    // A warp's registers are allocated in units of `register_unit` registers, each from one of
    // `register_partitions` equal parts of the register file (one per SM sub-partition).
    int register_unit = 0;
    int register_partitions = 0;
    std::int64_t smem_per_sm = 0;         // bytes, at the largest shared-memory carveout
    std::int64_t smem_per_cta_optin = 0;  // bytes one CTA may opt into
    // Bytes the driver reserves per resident CTA, counted against smem_per_sm, and the unit a
    // CTA's shared memory (its own plus the reserve) is allocated in.
    std::int64_t smem_reserved_per_cta = 0;
    int smem_unit = 0;

    [[nodiscard]] constexpr bool known() const { return threads_per_sm > 0; }
    friend constexpr bool operator==(const sm_limits&, const sm_limits&) = default;
};

// Per compute capability. Threads, CTAs, registers and shared memory: the CUDA C++ Programming
// Guide (CUDA 13.0), "Compute Capabilities", Table 30 (device and SM information) and Table 31
// (memory information); the 1 KB reserved per CTA: the same guide's shared-memory notes for
// 8.x, 9.0 and 12.x ("The 1 KB of shared memory not made available to a thread block is
// reserved for system use"; the per-SM and per-CTA rows of Table 31 differ by it), which CUDA
// reports as cudaDevAttrReservedSharedMemoryPerBlock; the allocation units and the 4 register
// partitions: cuda_occupancy.h of CUDA 13.0 (cudaOccRegAllocationGranularity 256,
// cudaOccSubPartitionsPerMultiprocessor 4, cudaOccSMemAllocationGranularity 128 for compute
// capabilities 8 to 12).
inline constexpr std::string_view sm_limits_source =
    "CUDA C++ Programming Guide (CUDA 13.0), Compute Capabilities, Tables 30 and 31 (1 KB "
    "reserved per CTA: the guide's shared-memory notes); allocation units and register "
    "partitions: CUDA 13.0's cuda_occupancy.h";

// A100 (8.0): 2048 threads, 32 CTAs, 64 K registers, 164 KB per SM, 163 KB per CTA.
inline constexpr sm_limits sm_limits_cc80{.threads_per_sm = 2048,
                                          .ctas_per_sm = 32,
                                          .registers_per_sm = 65536,
                                          .registers_per_thread = 255,
                                          .register_unit = 256,
                                          .register_partitions = 4,
                                          .smem_per_sm = 164 * 1024,
                                          .smem_per_cta_optin = 163 * 1024,
                                          .smem_reserved_per_cta = 1024,
                                          .smem_unit = 128};
// H100, H200 (9.0): 2048 threads, 32 CTAs, 64 K registers, 228 KB per SM, 227 KB per CTA.
inline constexpr sm_limits sm_limits_cc90{.threads_per_sm = 2048,
                                          .ctas_per_sm = 32,
                                          .registers_per_sm = 65536,
                                          .registers_per_thread = 255,
                                          .register_unit = 256,
                                          .register_partitions = 4,
                                          .smem_per_sm = 228 * 1024,
                                          .smem_per_cta_optin = 227 * 1024,
                                          .smem_reserved_per_cta = 1024,
                                          .smem_unit = 128};
// RTX 50 series (12.0): 1536 threads (48 warps), 24 CTAs, 64 K registers, 100 KB per SM (of a
// 128 KB unified data cache, Table 32), 99 KB per CTA.
inline constexpr sm_limits sm_limits_cc120{.threads_per_sm = 1536,
                                           .ctas_per_sm = 24,
                                           .registers_per_sm = 65536,
                                           .registers_per_thread = 255,
                                           .register_unit = 256,
                                           .register_partitions = 4,
                                           .smem_per_sm = 100 * 1024,
                                           .smem_per_cta_optin = 99 * 1024,
                                           .smem_reserved_per_cta = 1024,
                                           .smem_unit = 128};

// The limits of compute capability major.minor, where the table above has them.
[[nodiscard]] constexpr std::optional<sm_limits> sm_limits_for(int major, int minor) {
    if (major == 8 && minor == 0) return sm_limits_cc80;
    if (major == 9 && minor == 0) return sm_limits_cc90;
    if (major == 12 && minor == 0) return sm_limits_cc120;
    return std::nullopt;
}

}  // namespace tgemm
