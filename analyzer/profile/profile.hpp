#pragma once
// The profile: everything one measure run produced. It is the seam between the GPU side and
// everything that renders; see docs/profile-format.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "model/rung_model.hpp"

namespace tgemm {

inline constexpr int profile_schema_major = 1;
inline constexpr int profile_schema_minor = 1;  // 1.1: measured peaks (roof fields)
inline constexpr std::string_view profile_schema_prefix = "tgemm-roofline/profile/";

enum class profile_source { measured, predicted };

struct gpu_info {
    std::string key;
    std::string name;
    std::string cc;  // "9.0"
    int sm_count = 0;
    int fp32_lanes_per_sm = 0;
    double sm_clock_mhz = 0;   // the device's maximum SM clock
    double mem_clock_mhz = 0;  // as CUDA reports it
    int bus_width_bits = 0;
    std::int64_t l2_bytes = 0;
    std::int64_t smem_per_block_optin = 0;
};

struct env_info {
    std::string tool_version;
    std::string driver;  // "580.159.04" or the CUDA driver API version
    std::string cuda;    // runtime version, "13.0"
    std::string command;
    std::string date;  // ISO 8601 UTC
    std::string host;
};

// One roof: the datasheet value and, when the tool's micro-benchmarks measured it, the
// measured value with the clock it ran at.
struct roof {
    double theoretical = 0;  // at the GPU's maximum SM clock (gpu_info::sm_clock_mhz)
    std::optional<double> measured;
    std::string unit;         // "FLOP/s", "B/s"
    std::string method;       // how theoretical was derived
    std::string measured_by;  // the benchmark: kernel, working set, repeats
    // The average SM clock while the benchmark ran, and the theoretical value at that clock
    // (for roofs that scale with the SM clock: FP32, tensor, shared memory, L2).
    std::optional<double> clock_mhz;
    std::optional<double> theoretical_at_clock;
    std::string note;  // why a measured value exceeds its theoretical one, or other caveats

    // measured / theoretical at the measured clock when known, else / theoretical.
    [[nodiscard]] std::optional<double> ratio() const;
    [[nodiscard]] double reference() const {
        return theoretical_at_clock ? *theoretical_at_clock : theoretical;
    }
    // The roof the plots and the bound use: measured when there is one.
    [[nodiscard]] double effective() const { return measured ? *measured : theoretical; }
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

// Keys of the roofs in profile::peaks.
namespace roofs {
inline constexpr std::string_view fp32 = "fp32";
inline constexpr std::string_view dram = "dram";
inline constexpr std::string_view dram_copy = "dram_copy";  // read + write, cudaMemcpy D2D
inline constexpr std::string_view l2 = "l2";
inline constexpr std::string_view smem = "smem";
inline constexpr std::string_view tensor_fp16 = "tensor_fp16";
inline constexpr std::string_view tensor_bf16 = "tensor_bf16";
inline constexpr std::string_view tensor_tf32 = "tensor_tf32";
}  // namespace roofs

[[nodiscard]] std::string to_string(profile_source s);

}  // namespace tgemm
