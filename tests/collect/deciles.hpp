#pragma once
// Deciles of a distribution as one printed line, for the GPU tests that trace CTAs
// (cta_drift_test.cpp, cta_steps_test.cpp).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace tgemm::test {

// Deciles 1 … 9 of `v` (sorted here), "-" where empty.
inline std::string deciles(std::vector<double> v) {
    if (v.empty()) return "-";
    std::sort(v.begin(), v.end());
    std::string s;
    for (int d = 1; d <= 9; ++d) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%s%.2f", d > 1 ? " " : "", v[v.size() * d / 10]);
        s += buf;
    }
    return s;
}

}  // namespace tgemm::test
