#pragma once
// DRAM writes of a measured row against the model (model::dram_write_bytes and its band,
// kernels/dram_writes.hpp): the same check for the shipped profiles and the shapes chosen after
// the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/levels.hpp"
#include "model/rung_model.hpp"

namespace tgemm::test {

// Where C must leave L2, inside the typed band (C less the L2 … every stored sector once) plus the
// residue the collector's preparation may leave; where the model keeps C in L2 (no band), within
// that residue of zero. A library row (cuBLAS: only its compulsory traffic is modelled) from
// below only: what must leave L2 less what the L2 may still hold dirty at the end.
inline void expect_dram_writes(const refined_model& pred, double measured, double l2_bytes,
                               bool library, const std::string& where) {
    const double model = pred.get(keys::dram_write_bytes).value_or(NAN);
    const double residue = model::write_residue_bytes;
    if (library) {
        EXPECT_GE(measured, model - std::min(model, l2_bytes)) << where << ": DRAM writes";
        return;
    }
    if (const auto* b = pred.band(keys::dram_write_bytes)) {
        EXPECT_GE(measured, b->low) << where << ": DRAM writes below their band";
        EXPECT_LE(measured, b->high + residue)
            << where << ": DRAM writes " << measured << " above their band's " << b->high;
        return;
    }
    EXPECT_LE(std::fabs(measured - model), residue)
        << where << ": DRAM writes " << measured << " against the model's " << model;
}

}  // namespace tgemm::test
