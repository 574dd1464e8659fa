#pragma once
// DRAM reads and writes of a measured row against the model (its value and band,
// kernels/wave_dram.hpp, kernels/dram_writes.hpp): the same check for the shipped profiles, the
// shapes chosen after the model and Nsight Compute's counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/levels.hpp"
#include "model/rung_model.hpp"

namespace tgemm::test {

// What the DRAM reads may be: within the DRAM read tolerance (10 %) of the model's value, or of
// its typed band's ends where it gives one (kernels/wave_dram.hpp, add_l2_residency_band).
struct dram_read_limits {
    double low = 0;
    double high = 0;
};
inline dram_read_limits dram_reads_allowed(const refined_model& pred) {
    const double value = pred.dram_read_bytes.value_or(NAN);
    const auto& band = pred.dram_read_band;
    const double tol = model::dram_tolerance;
    return {(1 - tol) * (band ? band->low : value), (1 + tol) * (band ? band->high : value)};
}

// What the DRAM writes may be: within the DRAM write tolerance (10 % or 1 MB,
// model::dram_write_allowance) of the model's value, or of its typed band's ends where it gives
// one (kernels/dram_writes.hpp). `low` and `high` are the value or the band's ends.
struct dram_write_limits {
    double low = 0;
    double high = 0;
    double allowed_low = 0;
    double allowed_high = 0;
};
inline dram_write_limits dram_writes_allowed(const refined_model& pred) {
    const double model = pred.get(keys::dram_write_bytes).value_or(NAN);
    const auto* b = pred.band(keys::dram_write_bytes);
    const double low = b ? b->low : model;
    const double high = b ? b->high : model;
    return {low, high, low - model::dram_write_allowance(low),
            high + model::dram_write_allowance(high)};
}

// Within dram_writes_allowed. A library row
// (cuBLAS: only its compulsory traffic is modelled) from below only: what must leave L2 less
// what the L2 may still hold dirty at the end.
inline void expect_dram_writes(const refined_model& pred, double measured, double l2_bytes,
                               bool library, const std::string& where) {
    const double model = pred.get(keys::dram_write_bytes).value_or(NAN);
    if (library) {
        EXPECT_GE(measured, model - std::min(model, l2_bytes)) << where << ": DRAM writes";
        return;
    }
    const bool band = pred.band(keys::dram_write_bytes) != nullptr;
    const auto allowed = dram_writes_allowed(pred);
    EXPECT_GE(measured, allowed.allowed_low)
        << where << ": DRAM writes " << measured << " below the model's " << allowed.low
        << (band ? " (its band's low end)" : "");
    EXPECT_LE(measured, allowed.allowed_high)
        << where << ": DRAM writes " << measured << " above the model's " << allowed.high
        << (band ? " (its band's high end)" : "");
}

}  // namespace tgemm::test
