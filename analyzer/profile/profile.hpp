#pragma once
// The profile: everything one measure run produced. It is the seam between the GPU side and
// everything that renders; see docs/profile-format.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "gpu/gpu_info.hpp"
#include "gpu/roof.hpp"
#include "model/rung_model.hpp"

namespace tgemm {

inline constexpr int profile_schema_major = 1;
// 1.1: measured peaks (roof fields); 1.2: the GPU's SM limits (gpu.sm_limits).
inline constexpr int profile_schema_minor = 2;
inline constexpr std::string_view profile_schema_prefix = "tgemm-roofline/profile/";

enum class profile_source { measured, predicted };

struct env_info {
    std::string tool_version;
    std::string driver;  // "580.159.04" or the CUDA driver API version
    std::string cuda;    // runtime version, "13.0"
    std::string command;
    std::string date;  // ISO 8601 UTC
    std::string host;
};

struct timing {
    double median_ms = 0;
    double min_ms = 0;
    double max_ms = 0;
    int runs = 0;
    bool l2_flushed = true;  // L2 flushed before every timed launch
};

struct measurement {
    std::string kernel;  // rung id; "cublas" for the reference
    std::string dtype = "fp32";
    shape size;
    float alpha = 1;
    float beta = 0;
    bool verified = false;
    std::optional<double> verify_max_error;  // worst |got - ref| / tolerance
    std::optional<timing> time;
    // Keys from model/levels.hpp. A counter that was not collected is absent, never 0.
    std::map<std::string, double, std::less<>> counters;
    std::optional<int> counter_passes;
    rung_model model;
    std::optional<std::string> skipped;  // why this (rung, shape) was not measured

    [[nodiscard]] std::optional<double> counter(std::string_view key) const;
};

struct profile {
    int schema_major = profile_schema_major;
    int schema_minor = profile_schema_minor;
    profile_source source = profile_source::measured;
    gpu_info gpu;
    env_info env;
    std::map<std::string, roof, std::less<>> peaks;  // "fp32", "dram", ...
    std::vector<measurement> measurements;

    [[nodiscard]] const measurement* find(std::string_view kernel, const shape& s) const;
    [[nodiscard]] std::vector<shape> shapes() const;         // in first-seen order
    [[nodiscard]] std::vector<std::string> kernels() const;  // in first-seen order
};

[[nodiscard]] std::string to_string(profile_source s);

}  // namespace tgemm
