#pragma once
// The profile: everything one measure run produced. It is the seam between the GPU side and
// everything that renders; see docs/profile-format.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "core/work_list.hpp"
#include "gpu/gpu_info.hpp"
#include "gpu/roof.hpp"
#include "model/rung_model.hpp"

namespace tgemm {

inline constexpr int profile_schema_major = 1;
// 1.1: measured peaks (roof fields); 1.2: the GPU's SM limits (gpu.sm_limits); 1.3: the run's
// work list and shard (env.work_list), the GPU's index and UUID, and each merged row's
// provenance (docs/fleet.md); 1.4: each row's timing noise (time_ms.noise, noise_target,
// noise_met) and, for --repeat N, how its values moved over the N runs (repeats).
inline constexpr int profile_schema_minor = 4;
inline constexpr std::string_view profile_schema_prefix = "tgemm-roofline/profile/";

enum class profile_source { measured, predicted };

// The work list of the run (core/work_list.hpp): its size, and which shard of it this profile
// holds when it is one.
struct work_list_record {
    std::int64_t size = 0;
    shard part;  // whole() for a whole run or a merge

    friend bool operator==(const work_list_record&, const work_list_record&) = default;
};

struct env_info {
    std::string tool_version;
    std::string driver;  // "580.159.04" or the CUDA driver API version
    std::string cuda;    // runtime version, "13.0"
    std::string command;
    std::string date;  // ISO 8601 UTC
    std::string host;
    std::optional<int> gpu_index;  // the node's index of the GPU: CUDA_VISIBLE_DEVICES=N gives N
    std::string gpu_uuid;          // "GPU-xxxxxxxx-...", when the runtime reports one
    // Absent in profiles before 1.3: then the rows are taken as one whole run.
    std::optional<work_list_record> work_list;
};

// Where a merged row was measured: its run's env, and its position in the work list. Only
// `merge` writes it; a single run's rows have their profile's env.
struct row_provenance {
    std::string host;
    std::optional<int> gpu_index;
    std::string gpu_uuid;
    std::string driver;
    std::string date;
    std::string shard;  // "i/n", empty for a whole run
    std::int64_t work_index = 0;

    friend bool operator==(const row_provenance&, const row_provenance&) = default;
};

struct timing {
    double median_ms = 0;
    double min_ms = 0;
    double max_ms = 0;
    int runs = 0;
    bool l2_flushed = true;  // L2 flushed before every timed launch
    // 1.4: the relative standard error of the median when timing stopped
    // (collect/stopping_rule.hpp), the target it was held to (--noise-target) and whether it got
    // there before the time limit. All absent before 1.4; the noise alone when too few runs
    // could estimate it.
    std::optional<double> noise;
    std::optional<double> noise_target;
    std::optional<bool> noise_met;
};

// How one value moved over the repeated runs of a work list (--repeat N).
struct value_spread {
    double min = 0;
    double median = 0;
    double max = 0;

    friend bool operator==(const value_spread&, const value_spread&) = default;
    // (max − min) / median: 0 when nothing moved, +infinity when a median of 0 moved.
    [[nodiscard]] double relative() const;
};

// A row's values over the runs of --repeat N (1.4). The row itself holds the first run's
// values, so that its counters come from one launch each and stay consistent with each other
// (a median per counter could mix runs); this says how far the other runs were from them.
struct repeat_summary {
    int n = 0;                              // the runs that measured this row
    std::optional<value_spread> median_ms;  // over the runs' median times
    std::map<std::string, value_spread, std::less<>> counters;

    friend bool operator==(const repeat_summary&, const repeat_summary&) = default;
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
    std::optional<std::string> skipped;        // why this (rung, shape) was not measured
    std::optional<row_provenance> provenance;  // set by merge
    std::optional<repeat_summary> repeats;     // set by a --repeat N run, N >= 2

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
