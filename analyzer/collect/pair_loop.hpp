#pragma once
// The measuring loop, apart from the GPU: it walks the run's (kernel, size) pairs, --repeat N
// times, skips the pairs a resumed run already holds, writes the checkpoint (the partial
// profile, profile/partial_profile.hpp) before the first pair and after each, stops between
// pairs when asked (Ctrl-C, collect/stop_request.hpp), and turns a failure during a pair into
// one line that says which pair it was and what was kept. Measuring one pair is a parameter:
// measure.cpp passes the GPU's, tests/cli/pair_loop_test.cpp a fake, so all of this is tested
// on the CPU.
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/work_list.hpp"
#include "profile/partial_profile.hpp"
#include "profile/profile.hpp"

namespace tgemm {

struct progress_event {
    int done = 0;
    int total = 0;
    std::string what;  // "naive 4096³: counters"
};

// Measures one pair in run `run` (0 to repeat − 1) of the repeat. A failure it throws ends the
// loop; a verification failure is a row, not a throw.
using pair_measurer = std::function<measurement(const work_item&, int run)>;
// Measures consecutive pairs of one shape together (the GPU's: their counters in one profiler
// start per metric group, collect/counter_session.hpp); returns one row per pair, in order.
using batch_measurer = std::function<std::vector<measurement>(std::span<const work_item>, int run)>;
// A batch measurer that measures its pairs one after the other.
[[nodiscard]] batch_measurer pair_by_pair(pair_measurer measure);

struct pair_run {
    std::vector<work_item> items;      // this run's pairs (its shard of the list), in order
    std::vector<std::string> kernels;  // rung ids, as work_item::kernel indexes them
    int repeat = 1;                    // --repeat: how many times the pairs are measured
    batch_measurer measure;
    // The most pairs measured as one batch (--counter-batch); a batch never spans two shapes.
    // The checkpoint is written after each batch and a stop request is seen between batches,
    // so a killed run loses at most the batch in flight.
    std::size_t batch = 1;
    // The signal that asks the loop to stop, or 0: by default the one collect/stop_request.hpp
    // recorded.
    std::function<int()> stop_signal;
    std::function<void(const progress_event&)> on_progress;
};

// The checkpoint: where it goes and what it holds. `content.done` is the profile header with the
// first run's rows so far; the loop appends to it and to `content.later_runs`, and writes it.
struct checkpoint {
    std::filesystem::path path;
    partial_profile content;

    // Atomically; throws error_kind::usage naming the file when it cannot. No path: no file.
    void save() const;
};

struct pair_run_result {
    profile result;  // the header, and each pair's row: its first run's, with `repeats` for N > 1
    std::vector<std::string> failures;  // verification failures over every run, one line each
};

// Measures the pairs `cp` does not hold yet, in work-list order, run after run, in batches of
// at most `run.batch` pairs of one shape. Writes `cp` before measuring anything (an unwritable
// folder fails here) and after every batch, so a killed run loses at most the batch in flight.
// Before each batch, a stop request ends it with
// error_kind::interrupted and one line saying how many pairs were kept and how to resume; a
// batch's error is rethrown with its pairs, their place in the run, and what was kept. A checkpoint
// whose rows are not this run's pairs is refused (error_kind::input).
[[nodiscard]] pair_run_result run_pairs(const pair_run& run, checkpoint& cp);

}  // namespace tgemm
