#pragma once
#include <string>

#include "collect/workspace.hpp"
#include "rung.hpp"

namespace tgemm {

struct verify_result {
    bool ok = false;
    double worst_ratio = 0;  // max |got − ref| / tolerance; ok when ≤ 1 everywhere
    std::int64_t worst_row = 0;
    std::int64_t worst_col = 0;
    float got = 0;
    float expected = 0;
    float tolerance = 0;
    std::int64_t bad_elements = 0;
    [[nodiscard]] std::string describe(const std::string& kernel) const;
};

// Runs a rung's bound launch once on a fresh copy of C and compares every element with the
// FP32 reference. NaN or an unwritten element counts as a mismatch.
[[nodiscard]] verify_result verify_rung(const bound_launch& launch, const workspace& ws);

}  // namespace tgemm
