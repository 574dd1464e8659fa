#pragma once
// How each SM's unified data cache is split between shared memory and L1 for one kernel: the
// split every launch of the tool names (kernels/rung_registry.cpp, rung::bind).
//
// Why it is named: a kernel that states no preference runs with whatever split the driver
// chooses, and the driver keeps the split earlier kernels left where the new one fits in it
// (measured on the H200: thread_tiling's L2 requests at 1024³ were 543.2 MB alone, 572.5 MB
// inside the whole ladder and 492.8 MB after a kernel that asked for the largest L1,
// docs/validation/carveout/). A rung's L1 hits, and with them every counter behind the L1,
// would then depend on the ladder's order.
//
// The rule: the smallest shared-memory capacity the SM supports that holds every CTA the
// occupancy calculation places (gpu/occupancy.hpp, at the largest carveout), so the named split
// never costs a CTA, and the rest of the cache is L1.
#include <array>
#include <cstdint>
#include <span>

#include "core/error.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/sm_limits.hpp"

namespace tgemm {

// The shared-memory capacities (KB) an SM can be configured to. Each list ends at the largest
// carveout, smem_per_sm, which is how the limits name their list. Sources: NVIDIA's Ampere and
// Hopper tuning guides ("unified shared memory/L1/texture cache"): the A100 (8.0) supports 0, 8,
// 16, 32, 64, 100, 132 or 164 KB and 8.6 up to 100 KB; the H100 (9.0) adds 196 and 228 KB. A GPU
// of 100 KB per SM (12.0 too) is given the 8.6 list, not checked on one. What the H100 and H200
// choose under this rule is checked with Nsight Compute's launch__shared_mem_config_size
// (docs/measurement.md, "The L1 and shared-memory split").
inline constexpr std::array<int, 8> shared_capacities_kb_cc80{0, 8, 16, 32, 64, 100, 132, 164};
inline constexpr std::array<int, 10> shared_capacities_kb_cc90{0,   8,   16,  32,  64,
                                                               100, 132, 164, 196, 228};
inline constexpr std::array<int, 6> shared_capacities_kb_cc86{0, 8, 16, 32, 64, 100};

// The list whose largest capacity is the limits' smem_per_sm; empty when none is.
[[nodiscard]] constexpr std::span<const int> shared_capacities_kb(const sm_limits& l) {
    const auto ends_at = [&](std::span<const int> list) {
        return std::int64_t(list.back()) * 1024 == l.smem_per_sm;
    };
    if (ends_at(shared_capacities_kb_cc90)) return shared_capacities_kb_cc90;
    if (ends_at(shared_capacities_kb_cc80)) return shared_capacities_kb_cc80;
    if (ends_at(shared_capacities_kb_cc86)) return shared_capacities_kb_cc86;
    return {};
}

struct shared_split {
    std::int64_t shared_bytes = 0;  // the capacity asked for
    // cudaFuncAttributePreferredSharedMemoryCarveout: percent of smem_per_sm. The driver takes
    // the supported capacity nearest a percentage; this one lies above the next smaller
    // capacity and at most at the one asked for, so rounding up and rounding to the nearest
    // both land on it.
    int carveout_percent = 0;
};

// The split for a CTA asking `c` of an SM with limits `l`. Throws error_kind::internal when the
// GPU's capacities are unknown or the CTAs do not fit the largest one (the occupancy calculation
// counts against that one, so they always do).
[[nodiscard]] constexpr shared_split shared_split_for(const sm_limits& l, const cta_resources& c) {
    const auto capacities = shared_capacities_kb(l);
    if (capacities.empty())
        throw error(
            error_kind::internal,
            "shared-memory split: no capacity list ends at this GPU's shared memory per SM");
    const auto unit = std::int64_t(l.smem_unit);
    const auto per_cta = (c.smem_bytes + l.smem_reserved_per_cta + unit - 1) / unit * unit;
    const auto needed = std::int64_t(ctas_per_sm(l, c)) * per_cta;
    std::int64_t below = -1;
    for (const int kb : capacities) {
        const auto bytes = std::int64_t(kb) * 1024;
        if (bytes >= needed) {
            const auto pct = static_cast<int>(bytes * 100 / l.smem_per_sm);
            if (pct * l.smem_per_sm <= below * 100)
                throw error(error_kind::internal,
                            "shared-memory split: no percentage names the capacity asked for");
            return {bytes, pct};
        }
        below = bytes;
    }
    throw error(error_kind::internal,
                "shared-memory split: the CTAs per SM need more than the largest capacity");
}

}  // namespace tgemm
