#pragma once
// Throughputs that the seed documents published for GPUs we have not measured. They are drawn
// as "published" points beside a predicted roofline, always with their source, and never mixed
// with the tool's own measurements.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.hpp"

namespace tgemm {

struct published_point {
    std::string_view gpu;             // spec key, "rtx5070ti"
    std::string_view kernel;          // our rung id that follows the published kernel
    std::string_view published_name;  // the name the source gives it
    shape size;
    double tflops = 0;  // as published (2MNK / time)
    std::string_view source;
};

// Every published point for `gpu_key` (empty for GPUs without any).
[[nodiscard]] std::vector<published_point> published_points(std::string_view gpu_key);

}  // namespace tgemm
