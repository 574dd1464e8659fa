#pragma once
// A measure run: for each shape and rung, verify against cuBLAS, time, then collect counters;
// the loop around the pairs (checkpoints, --resume, --repeat, Ctrl-C) is collect/pair_loop.hpp.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/device.hpp"
#include "collect/pair_loop.hpp"
#include "collect/timer.hpp"
#include "core/work_list.hpp"
#include "profile/partial_profile.hpp"
#include "profile/profile.hpp"
#include "rung.hpp"

namespace tgemm {

struct measure_options {
    std::vector<const rung*> rungs;
    std::vector<shape> shapes;
    // Shapes measured only by the tensor-core rungs (the FP32 ladder at 8192³ would take
    // minutes under the instrumented counters): --sizes empties it.
    std::vector<shape> tensor_only_shapes;
    // The values of the anchors' Nsight Compute runs (docs/anchors.md); β ≠ 0 so C is read, as
    // the models say.
    float alpha = 0.5f;
    float beta = 3.0f;
    bool counters = true;
    // --counter-batch: the most pairs of one shape whose counters are collected together, one
    // profiler start per metric group for all of them (collect/counter_session.hpp); a killed run
    // loses at most this many pairs. 1: pair by pair.
    std::size_t counter_batch = 32;
    // --cupti-ranges: what each counted launch's range holds (collect/counter_session.hpp).
    cupti_ranges counted_ranges = cupti_ranges::user;
    // While another process holds the counters, retry for this many seconds (0: fail at once).
    double wait_for_counters_s = 0;
    std::function<void(const std::string&)> on_notice;  // one-line notices, e.g. "waiting ..."
    // Run the peak micro-benchmarks (collect/peaks_bench.hpp) first and store their values in
    // the profile's roofs.
    bool peaks = true;
    timing_policy timing;
    std::uint64_t seed = 20261122;
    std::string command;
    std::function<void(const progress_event&)> on_progress;

    // Which part of the work list this run measures (--shard); the whole list by default.
    shard part;
    // --repeat: measure the pairs this many times; each row keeps the first run's values and
    // the spread over all of them (analysis/repeatability.hpp).
    int repeat = 1;
    // The checkpoint, written before the first pair and after each (<profile>.partial); empty:
    // none.
    std::filesystem::path partial_path;
    // --resume: the checkpoint of a stopped run of the same identity, whose pairs are skipped
    // and whose header (date, peaks) the profile keeps.
    std::optional<partial_profile> resume;

    // Every (rung, shape) pair of the run, in order (core/work_list.hpp); kernel indices are
    // into `rungs`.
    [[nodiscard]] std::vector<work_item> work_list() const;
    // What --resume compares: the work list, the settings, the GPU, the tool version.
    [[nodiscard]] run_identity identity(const local_device& device) const;
};

struct measure_outcome {
    profile result;
    std::vector<std::string> failures;  // verification failures, one line each
    // Measured peaks that had no theoretical roof to go into, one line each.
    std::vector<std::string> peak_warnings;
};

[[nodiscard]] measure_outcome measure(const local_device& device, const measure_options& opts);

// The profile header (gpu, env, theoretical roofs) for a run on `device`.
[[nodiscard]] profile measured_profile_header(const local_device& device,
                                              const std::string& command);
[[nodiscard]] std::string utc_now_iso8601();

}  // namespace tgemm
