#pragma once
// The checkpoint of a measuring run (collect/pair_loop.hpp): the profile so far, written next
// to the target profile as <profile>.partial after every batch of pairs, with what the run was (its
// work list, settings, GPU and tool version) so that --resume refuses to continue a different one.
// The file is a profile with one more key, "checkpoint", which profile readers ignore.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.hpp"
#include "core/work_list.hpp"
#include "profile/profile.hpp"

namespace tgemm {

// Everything that decides which rows a run measures and how: two runs with the same identity
// measure the same pairs the same way, so the rows of one may complete the other.
struct run_identity {
    std::vector<std::string> kernels;  // rung ids, in the run's order
    std::vector<shape> sizes;
    std::vector<shape> tensor_sizes;  // measured by the tensor-core rungs only
    shard part;
    int repeat = 1;
    bool counters = true;
    // --cupti-ranges: "user" or "kernel" (collect/counter_session.hpp); checkpoints written before
    // the option read as "user", the only kind then.
    std::string counted_ranges = "user";
    bool peaks = true;
    int min_runs = 0;
    double noise_target = 0;
    double max_time_s = 0;
    std::string gpu;       // the spec key, "h100"
    std::string gpu_uuid;  // the card; empty when the runtime gave none
    std::string tool_version;

    friend bool operator==(const run_identity&, const run_identity&) = default;
};

// The first field that differs, as "<what>: <in the file> in the file, <now> in this command",
// or nothing when they are the same run.
[[nodiscard]] std::optional<std::string> identity_difference(const run_identity& file,
                                                             const run_identity& now);

struct partial_profile {
    profile done;  // the header and the rows of the first run so far, in work-list order
    run_identity identity;
    bool peaks_pending = false;  // written before the peak micro-benchmarks finished
    // --repeat N: the rows of runs 2 … N so far, each in work-list order.
    std::vector<std::vector<measurement>> later_runs;
};

// <profile>.partial: profiles/h100.json → profiles/h100.json.partial.
[[nodiscard]] std::filesystem::path partial_path_for(const std::filesystem::path& profile_path);

[[nodiscard]] std::string dump_partial(const partial_profile& p);
// Validates as read_profile does; errors (error_kind::input) name `origin` and the key.
[[nodiscard]] partial_profile parse_partial(std::string_view text, const std::string& origin);
[[nodiscard]] partial_profile read_partial(const std::filesystem::path& path);
// Atomically (temporary file and rename): a run killed while writing leaves the previous one.
void write_partial(const std::filesystem::path& path, const partial_profile& p);

}  // namespace tgemm
