#pragma once
// What a rung's analytic model says about one shape: the seed's textbook count and the refined
// prediction of what the hardware counters will see.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/shape.hpp"
#include "gpu/first_wave.hpp"
#include "gpu/gpu_info.hpp"
#include "gpu/l2_retention.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/sm_limits.hpp"
#include "gpu/spec.hpp"
#include "model/refined_model.hpp"

namespace tgemm {

// The machine facts a refined model may depend on: those of the GPU it predicts (the spec
// database's, or a measured device's own), never constants of one architecture.
struct model_context {
    std::int64_t l2_bytes = 0;
    int sm_count = 0;
    sm_limits limits;       // for gpu/occupancy.hpp
    int l2_partitions = 0;  // 0: unknown, and the L2 traffic model (kernels/l2_traffic) is off
    // How long the L2 keeps a line every SM reads, and a set swept again by readers that move
    // (measured; empty: the step at half the L2, and no swept curve).
    l2_retention_curves l2_retention;
    // Requests for one sector one response of the L2 request coalescer serves at most (0: not
    // known; gpu/spec.hpp).
    int l2_coalescer_fanout = 0;
    // The logged first waves' partition sides, by CTAs dealt to each SM (index 1 … 5; empty: not
    // logged; gpu/first_wave.hpp), for the L2 fabric of launches that fit in one wave.
    std::array<std::span<const std::string_view>, 6> first_wave{};
    // What the collector's counted window holds on this GPU besides the kernel (gpu/spec.hpp).
    double collector_window_fabric_bytes = 0;
    // How a launch of no more CTAs than SMs is dealt (gpu/first_wave.hpp; empty: not logged).
    small_launch_dispatch small_launches{};
};

// The context of `gpu`. Throws error_kind::input when its SM limits are unknown (an old profile
// of a GPU the spec database does not know): no model can place its CTAs then.
[[nodiscard]] inline model_context model_context_for(const gpu_info& gpu) {
    if (!gpu.limits.known() || gpu.l2_bytes <= 0 || gpu.sm_count <= 0)
        throw error(error_kind::input, "no SM limits, L2 size or SM count for GPU '" + gpu.key +
                                           "' (compute capability " + gpu.cc +
                                           "): the models cannot predict it");
    model_context mc{gpu.l2_bytes,
                     gpu.sm_count,
                     gpu.limits,
                     l2_partitions_of(gpu.key, gpu.cc),
                     l2_retention_curves_of(gpu.key),
                     l2_coalescer_fanout_of(gpu.key, gpu.cc)};
    for (int per = 1; per < int(mc.first_wave.size()); ++per)
        mc.first_wave[per] = first_wave_sides_of(gpu.key, per);
    mc.collector_window_fabric_bytes = double(collector_window_fabric_bytes_of(gpu.key));
    mc.small_launches = small_launch_dispatch_of(gpu.key);
    return mc;
}

struct textbook_model {
    double flops = 0;         // the seed count, 2MNK + 2MN
    double global_bytes = 0;  // every element load/store issued by threads, × 4 B, no caches
    std::string formula;      // how global_bytes was counted, e.g. "(2MNK + 2MN)·4 B"
    // Seeds 000/001 count loads per output element (17 / 11 / 9).
    std::optional<double> loads_per_output;
    // Textbook shared-memory element accesses, where the seed gives them (2N³/V, K/4 per result).
    std::optional<double> smem_accesses;
    [[nodiscard]] double ai() const { return global_bytes > 0 ? flops / global_bytes : 0; }
};

// Theoretical occupancy: how many warps of the launch one SM holds at the target GPU's limits
// (gpu/occupancy.hpp), as Nsight Compute's sm__maximum_warps_per_active_cycle_pct counts it.
struct occupancy_estimate {
    int ctas_per_sm = 0;
    int warps_per_sm = 0;
    int max_warps_per_sm = 0;  // the SM's limit, threads_per_sm / 32
    std::string limiter;       // "registers", "shared memory" or "threads"
    [[nodiscard]] double pct() const {
        return max_warps_per_sm > 0 ? 100.0 * warps_per_sm / max_warps_per_sm : 0;
    }
};

struct rung_model {
    textbook_model textbook;
    refined_model refined;
    // Empty for a kernel whose launch the tool does not know (the cuBLAS rows).
    std::optional<occupancy_estimate> occupancy;
};

// The occupancy of a CTA asking `c` of an SM with limits `l`.
[[nodiscard]] inline occupancy_estimate estimate_occupancy(const sm_limits& l,
                                                           const cta_resources& c) {
    const auto lim = limits_of(l, c);
    occupancy_estimate o;
    o.ctas_per_sm = lim.ctas();
    o.warps_per_sm = o.ctas_per_sm * ((c.threads + 31) / 32);
    o.max_warps_per_sm = l.threads_per_sm / 32;
    o.limiter = lim.limiter();
    return o;
}

// Shared pieces that most rungs' models use.
namespace model {

inline constexpr double fp32_bytes = 4.0;

// 2MNK + 2MN: K multiplies and K-1 adds per cell, then α·, β·, + (seed 003).
[[nodiscard]] inline double seed_flops(const shape& s) {
    return 2.0 * s.m * s.n * s.k + 2.0 * s.m * s.n;
}
// What an `α·acc + β·C` epilogue kernel executes: FFMA = M·N·K_exec + MN, FMUL = MN, so
// 2·FFMA + FMUL = 2·M·N·K_exec + 3MN. K_exec is K rounded up to the kernel's K step when it
// multiplies zero padding.
[[nodiscard]] inline double executed_flops(const shape& s, std::int64_t k_exec) {
    return 2.0 * s.m * s.n * k_exec + 3.0 * s.m * s.n;
}
[[nodiscard]] inline std::int64_t round_up(std::int64_t x, std::int64_t to) {
    return (x + to - 1) / to * to;
}
[[nodiscard]] inline std::int64_t ceil_div(std::int64_t x, std::int64_t d) {
    return (x + d - 1) / d;
}
// "1 CTA", "2 CTAs": a count of CTAs in a note.
[[nodiscard]] inline std::string ctas(int n) {
    return std::to_string(n) + (n == 1 ? " CTA" : " CTAs");
}

// Compulsory DRAM traffic: A and B read once, C read once (β ≠ 0) and written once.
[[nodiscard]] inline double compulsory_read_bytes(const shape& s) {
    return fp32_bytes * (double(s.m) * s.k + double(s.k) * s.n + double(s.m) * s.n);
}
[[nodiscard]] inline double compulsory_write_bytes(const shape& s) {
    return fp32_bytes * double(s.m) * s.n;
}

// DRAM writes that happen *during* the kernel. L2 is write-back: C's lines stay dirty in L2
// when the kernel ends and are written later, outside its counters, unless the kernel's
// traffic pushes them out first. This coarse rule, for the rows without a wave model (cuBLAS,
// naive_uncoalesced), takes C as written once the footprint exceeds half the L2 (each of
// Hopper's two L2 partitions caches the data of its own SMs), and as staying in L2 otherwise;
// the tiled rungs derive which tiles are written from their waves (kernels/wave_dram.hpp,
// c_written_bytes; docs/models/dram-waves.md "DRAM writes").
[[nodiscard]] inline double dram_write_bytes(const shape& s, const model_context& mc) {
    const double footprint = compulsory_read_bytes(s);
    return footprint > 0.5 * static_cast<double>(mc.l2_bytes) ? compulsory_write_bytes(s) : 0.0;
}

// The tolerance on DRAM reads that ShippedRung.RefinedModelPredictsTheCounters allows around
// the model (or its band).
inline constexpr double dram_tolerance = 0.10;
// The L2 traffic model's tolerance (kernels/l2_traffic.hpp; issue 10: L2 bytes 10 %), and the
// floor under it: at 1024³ a row moves ~1 MB of 6-30 MB, the size of what the collector's
// preparation may leave (Collector.KnownTrafficKernels asserts under 1 MB of DRAM writes from a
// read-only kernel after it; 2.3 KB measured on the H100, docs/measurement.md). The fabric bytes
// are derived from the model's DRAM reads, so they also carry that model's tolerance on their A and
// B part.
inline constexpr double l2_tolerance = 0.10;
inline constexpr double l2_floor_bytes = 1e6;
// The DRAM write tolerance (issue 10: 10 % or 1 MB, the floor being what the preparation may
// leave) around a value of `bytes`.
[[nodiscard]] inline double dram_write_allowance(double bytes) {
    return std::max(l2_floor_bytes, dram_tolerance * bytes);
}

// The note every caller of dram_write_bytes adds once its DRAM values are set.
inline void add_dram_write_notes(refined_model& r) {
    r.notes.emplace_back(
        "DRAM writes: the model counts C written once where it must leave L2; the measured "
        "writes are the kernel's own (the collector leaves L2 clean, docs/measurement.md) and "
        "miss what stays dirty in L2 at the kernel's end, which the model does not derive");
}

// Sets `r`'s DRAM read band and its note.
inline void set_dram_read_band(refined_model& r, double low, double high, std::string reason) {
    r.notes.push_back("DRAM band: reads between " + std::to_string(std::llround(low / 1e6)) +
                      " and " + std::to_string(std::llround(high / 1e6)) + " MB: " + reason);
    r.set_band(keys::dram_read_bytes, {low, high, std::move(reason)});
}

}  // namespace model
}  // namespace tgemm
