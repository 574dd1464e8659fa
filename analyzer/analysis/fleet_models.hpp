#pragma once
// The fleet report across GPU models: the two-GPU comparison of the report (render/
// gpu_comparison.cpp) for N models. Each model is the median of its cards; every roof and every
// rung at every size is set against the first model, and a rung against the ratio of the roof
// that bounds it there (a memory-bound rung should follow the memory roof, a compute-bound one
// the compute roof).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/fleet.hpp"

namespace tgemm {

struct fleet_model {
    std::string key;   // "h100"
    std::string name;  // "NVIDIA H100 80GB HBM3"
    std::size_t cards = 0;
};

struct model_row {
    std::string what;  // "dram" or "naive 4096³"
    std::string unit;
    bool rung = false;
    std::vector<std::optional<double>> per_model;  // the median of the model's cards
    // Rungs: the roof that bounds the row on the first model, and that roof's value on each
    // model over the first's (nullopt where a model lacks it).
    std::string bound_roof;
    std::vector<std::optional<double>> roof_ratio;
};

struct models_analysis {
    std::vector<fleet_model> models;  // in the order the first card of each appears
    std::vector<model_row> roofs;
    std::vector<model_row> rungs;
};

// A rung follows its roof when its speed-up over the first model is within this of that roof's
// ratio (log distance: 5 % either way), as the two-GPU section judges it.
inline constexpr double follows_roof_within = 0.05;

// Throws error_kind::input when a profile is not measured or fewer than two models are given.
[[nodiscard]] models_analysis analyze_models(std::span<const fleet_input> inputs);

}  // namespace tgemm
