#pragma once
// Roofline arithmetic: attainable = min(compute roof, AI × bandwidth).
#include <string>

namespace tgemm {

[[nodiscard]] inline double attainable_flops(double ai, double peak_flops, double bytes_per_s) {
    const double mem = ai * bytes_per_s;
    return mem < peak_flops ? mem : peak_flops;
}
[[nodiscard]] inline double ridge_point(double peak_flops, double bytes_per_s) {
    return peak_flops / bytes_per_s;
}
[[nodiscard]] inline bool memory_bound(double ai, double peak_flops, double bytes_per_s) {
    return ai < ridge_point(peak_flops, bytes_per_s);
}

}  // namespace tgemm
