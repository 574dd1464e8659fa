#pragma once
// The L2 traffic model's counters (kernels/l2_traffic.hpp) against a measured row: L2 writes and
// fabric bytes within the model's tolerance of its value, or of its band's ends, the same check
// for the shipped profiles and the shapes chosen after the model.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/levels.hpp"
#include "model/rung_model.hpp"

namespace tgemm::test {

// Whether `measured` lies within the model's tolerance (plus `extra` bytes) of `key`'s value or
// band; a failure message names the row. A key the model does not predict is a failure too: every
// rung with a store model gets both counters.
inline ::testing::AssertionResult within_l2_model(const refined_model& pred, double measured,
                                                  std::string_view key, double extra,
                                                  const std::string& where) {
    const auto value = pred.get(key);
    if (!value) return ::testing::AssertionFailure() << where << ": no model of " << key;
    const auto* band = pred.band(key);
    const double low = band ? band->low : *value;
    const double high = band ? band->high : *value;
    const double tol = model::l2_tolerance;
    const double lo = std::min((1 - tol) * low, low - model::l2_floor_bytes) - extra;
    const double hi = std::max((1 + tol) * high, high + model::l2_floor_bytes) + extra;
    if (measured >= lo && measured <= hi) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << where << ": " << key << " measured " << measured << ", model " << *value
           << (band ? " (band " + std::to_string(low) + " … " + std::to_string(high) + ": " +
                          band->reason + ")"
                    : std::string())
           << ", allowed " << lo << " … " << hi;
}

// L2 writes and fabric bytes of one row. The fabric's A and B part is the model's DRAM reads less
// C, which that model may miss by its own tolerance: that much more is allowed.
inline void expect_l2_traffic(const refined_model& pred, double l2_writes, double fabric,
                              double c_bytes, const std::string& where) {
    EXPECT_TRUE(within_l2_model(pred, l2_writes, keys::l2_write_bytes, 0, where));
    const double ab_reads = std::max(0.0, pred.dram_read_bytes.value_or(0) - c_bytes);
    EXPECT_TRUE(within_l2_model(pred, fabric, keys::l2_fabric_bytes,
                                model::dram_tolerance * ab_reads, where));
}

// L2 read requests (the request coalescer's input, docs/models/l2.md) of one row: within the L2
// tolerance of the model or its band. Returns whether there was something to compare: a measured
// value (`measured` not NaN) and a model of it.
inline bool expect_l2_requests(const refined_model& pred, double measured,
                               const std::string& where) {
    if (!pred.l2_requested_bytes || std::isnan(measured)) return false;
    EXPECT_TRUE(within_l2_model(pred, measured, keys::l2_requested_bytes, 0, where));
    return true;
}

// The L2's totals (kernels/l2_totals.hpp) of one row, each where it was measured (`measured`
// gives a key's value, NaN where absent): within the L2 tolerance (plus `extra` bytes: a named
// DRAM read miss's excess, which the fabric's reads carry) of the model's band. Returns how many
// were compared; a rung with an L2 request and fabric model must have both predicted.
template <class Measured>
int expect_l2_totals(const refined_model& pred, const Measured& measured, const std::string& where,
                     double extra = 0) {
    if (!pred.l2_requested_bytes || !pred.l2_fabric_bytes) return 0;
    int n = 0;
    for (const auto key : {keys::l2_read_bytes, keys::l2_bytes}) {
        const double m = measured(key);
        if (std::isnan(m)) continue;
        EXPECT_TRUE(within_l2_model(pred, m, key, extra, where));
        ++n;
    }
    return n;
}

}  // namespace tgemm::test
