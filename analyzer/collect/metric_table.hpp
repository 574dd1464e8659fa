#pragma once
// Each counter the tool reports: its key (model/levels.hpp), the CUPTI / Nsight Compute metric
// it comes from, and the factor that turns the metric's unit into the key's unit. The same
// table drives the CUPTI collector and the ncu validation script (`list metrics`).
#include <span>
#include <string_view>

namespace tgemm {

// Tensor-core metrics are collected for the rungs that use tensor cores only: every other
// rung reads zero there, and each group of them costs a profiled launch.
enum class metric_family { all, tensor };

struct metric_traits {
    std::string_view key;
    std::string_view metric;  // CUPTI Range Profiler / ncu name
    double scale;             // key value = metric value × scale
    std::string_view description;
    metric_family family = metric_family::all;
};

[[nodiscard]] std::span<const metric_traits> metric_table();

}  // namespace tgemm
