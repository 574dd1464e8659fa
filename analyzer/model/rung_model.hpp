#pragma once
// What a rung's analytic model says about one shape: the seed's textbook count and the refined
// prediction of what the hardware counters will see.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"

namespace tgemm {

// The machine facts a refined model may depend on.
struct model_context {
    std::int64_t l2_bytes = 50LL << 20;
    int sm_count = 132;
};

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

struct refined_model {
    // Keys from model/levels.hpp. Absent means "this model does not predict it".
    std::map<std::string, double, std::less<>> values;
    // One line per assumption or derivation step, shown in the report.
    std::vector<std::string> notes;

    [[nodiscard]] std::optional<double> get(std::string_view key) const {
        const auto it = values.find(key);
        if (it == values.end()) return std::nullopt;
        return it->second;
    }
    void set(std::string_view key, double v) { values[std::string(key)] = v; }
};

struct rung_model {
    textbook_model textbook;
    refined_model refined;
};

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
// Compulsory DRAM traffic: A and B read once, C read once (β ≠ 0) and written once.
[[nodiscard]] inline double compulsory_read_bytes(const shape& s) {
    return fp32_bytes * (double(s.m) * s.k + double(s.k) * s.n + double(s.m) * s.n);
}
[[nodiscard]] inline double compulsory_write_bytes(const shape& s) {
    return fp32_bytes * double(s.m) * s.n;
}

// DRAM writes that happen *during* the kernel. L2 is write-back: C's lines stay dirty in L2
// when the kernel ends and are written later, outside its counters, unless the kernel's
// traffic pushes them out first. Measured on the H100 (ncu, cold L2): 1024³ (12 MB touched)
// writes ~0 B, 2048³ (48 MB) writes 14 of C's 16 MB, 4096³ (192 MB) writes all 64 MB. The model
// takes C as written once the footprint exceeds half the L2 (each of the H100's two L2
// partitions caches the data of its own SMs), and as staying in L2 otherwise.
[[nodiscard]] inline double dram_write_bytes(const shape& s, const model_context& mc) {
    const double footprint = compulsory_read_bytes(s);
    return footprint > 0.5 * static_cast<double>(mc.l2_bytes) ? compulsory_write_bytes(s) : 0.0;
}

}  // namespace model
}  // namespace tgemm
