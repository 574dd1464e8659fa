#pragma once
// How many CTAs of a kernel one SM holds at once: the one occupancy calculation of the tool,
// used by every rung's model and by the rungs' compile-time checks of their launch bounds. It
// counts as CUDA's own calculator does (cuda_occupancy.h, behind
// cudaOccupancyMaxActiveBlocksPerMultiprocessor), at the largest shared-memory carveout:
// - threads: whole warps, at most limits.threads_per_sm / 32 of them, and limits.ctas_per_sm;
// - registers: a warp takes registers·32 rounded up to the allocation unit, from one of the
//   register file's partitions, so a partition holds ⌊(registers_per_sm / partitions) /
//   per-warp⌋ warps;
// - shared memory: the CTA's bytes plus the driver's reserve, rounded up to the allocation
//   unit, out of smem_per_sm.
#include <algorithm>
#include <cstdint>

#include "core/error.hpp"
#include "gpu/sm_limits.hpp"

namespace tgemm {

// What one CTA of a kernel asks of the SM.
struct cta_resources {
    int threads = 0;
    int registers = 0;            // per thread, as ptxas allocates them; 0: not counted
    std::int64_t smem_bytes = 0;  // static + dynamic shared memory
};

// The resident CTAs per SM each resource alone allows (0: one CTA does not fit), as Nsight
// Compute's launch__occupancy_limit_* metrics report them. A resource the CTA does not count
// (registers 0, no shared memory) does not limit.
struct occupancy_limits {
    static constexpr int unlimited = 1 << 30;
    int threads = 0;  // whole warps out of threads_per_sm, and the CTA-count limit
    int registers = unlimited;
    int shared_memory = unlimited;

    [[nodiscard]] constexpr int ctas() const {
        return std::max(0, std::min({threads, registers, shared_memory}));
    }
    // The resource that sets ctas(): "threads", "registers" or "shared memory" (the first of
    // them on a tie).
    [[nodiscard]] constexpr const char* limiter() const {
        const int n = ctas();
        return n == threads ? "threads" : n == registers ? "registers" : "shared memory";
    }
};

// Throws error_kind::internal when the limits are unknown (a GPU the spec database has no SM
// limits for).
[[nodiscard]] constexpr occupancy_limits limits_of(const sm_limits& l, const cta_resources& c) {
    if (!l.known()) throw error(error_kind::internal, "occupancy: the GPU's SM limits are unknown");
    occupancy_limits o;
    if (c.threads <= 0) {
        o.threads = 0;
        return o;
    }
    const auto round_up = [](std::int64_t x, std::int64_t unit) {
        return (x + unit - 1) / unit * unit;
    };
    const int warps = (c.threads + 31) / 32;
    o.threads = std::min(l.ctas_per_sm, l.threads_per_sm / 32 / warps);
    if (c.registers > l.registers_per_thread) {
        o.registers = 0;
    } else if (c.registers > 0) {
        const auto per_warp = round_up(std::int64_t(c.registers) * 32, l.register_unit);
        const auto warps_by_registers =
            (l.registers_per_sm / l.register_partitions / per_warp) * l.register_partitions;
        o.registers = static_cast<int>(warps_by_registers / warps);
    }
    if (c.smem_bytes > l.smem_per_cta_optin) {
        o.shared_memory = 0;
    } else {
        const auto smem = round_up(c.smem_bytes + l.smem_reserved_per_cta, l.smem_unit);
        if (smem > 0) o.shared_memory = static_cast<int>(l.smem_per_sm / smem);
    }
    return o;
}

// Resident CTAs per SM; 0 when one CTA does not fit.
[[nodiscard]] constexpr int ctas_per_sm(const sm_limits& l, const cta_resources& c) {
    return limits_of(l, c).ctas();
}

// The CTAs per SM a model may place: at least one. Throws error_kind::usage when one CTA of
// the kernel does not fit an SM of this GPU; the rung's can_run refuses such a GPU, so a model
// is not asked for it.
[[nodiscard]] constexpr int resident_ctas_per_sm(const sm_limits& l, const cta_resources& c) {
    const int n = ctas_per_sm(l, c);
    if (n < 1)
        throw error(error_kind::usage,
                    "one CTA of this kernel does not fit an SM of this GPU (its threads, "
                    "registers or shared memory exceed the SM's limits)");
    return n;
}

}  // namespace tgemm
