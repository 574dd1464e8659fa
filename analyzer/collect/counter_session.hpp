#pragma once
// Hardware counters for kernel launches through the CUPTI Range Profiler. The metrics of
// collect/metric_table.hpp are packed into groups that each fit in ONE hardware pass, and the
// tool replays the launch itself, once per group (CUPTI user replay, user range): the caller's
// `prepare` (restore C, flush L2) runs after the profiler's start and outside the range pushed
// around the launch, so every counter sees the same cold, clean L2, which CUPTI's multi-pass
// kernel replay does not promise. Several launches (a batch: the pairs of one shape) share one
// profiler start per group, each in a user range of its own with its own preparation before it:
// a start and stop cost about 150 ms, a range little (docs/benchmark.md, "Profiling cost"),
// so a batch divides the main cost of profiling by its length. Only a group that would need several
// passes falls back to kernel replay with automatic ranges, which repeats the kernel alone
// (docs/cupti.md).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace tgemm {

// Another process holds this GPU's counters (CUPTI_ERROR_HARDWARE_BUSY): the one failure that
// waiting can cure (--wait-for-counters, collect/wait_for_counters.hpp).
class counters_busy : public error {
  public:
    using error::error;
};

struct counter_values {
    std::map<std::string, double, std::less<>> values;  // keys from model/levels.hpp
    int launches = 0;  // profiled launches (one per group, more if a group needed replay)
    int ranges = 0;    // CUPTI ranges over all groups: one per group in a user range, one per
                       // kernel under kernel replay
};

// One launch to count: `prepare` runs before it, outside the counted range (restore C, flush L2);
// `tensor`: also the tensor-core metrics (collect/metric_table.hpp), for a rung that uses tensor
// cores.
struct counter_job {
    std::function<void()> prepare;
    std::function<void()> launch;
    bool tensor = false;
    // Kernels `prepare` launches (the L2 flush: 1); under cupti_ranges::kernel each one gets a
    // range of its own, which the session skips.
    int prepare_kernels = 1;
};

// What a one-pass group counts (--cupti-ranges). `user`: a user range pushed around the launch
// (CUPTI_UserRange), everything between the push and the pop. `kernel`: an automatic range per
// kernel (CUPTI_AutoRange, still user replay), each kernel from its start to its end, as Nsight
// Compute counts; the preparation's kernels get ranges of their own, skipped. Under `kernel` a
// batch of several jobs needs one kernel per launch (the ranges are matched to jobs by count).
enum class cupti_ranges { user, kernel };

class counter_session {
  public:
    // Needs a current CUDA context (call after cudaSetDevice + cudaFree(0)).
    explicit counter_session(int device_index, cupti_ranges ranges = cupti_ranges::user);
    ~counter_session();
    counter_session(const counter_session&) = delete;
    counter_session& operator=(const counter_session&) = delete;

    // The counters of each job, in the jobs' order; every group's launches of the batch in one
    // profiler start.
    [[nodiscard]] std::vector<counter_values> collect(const std::vector<counter_job>& jobs);
    // One job alone.
    [[nodiscard]] counter_values collect(const std::function<void()>& prepare,
                                         const std::function<void()>& launch, bool tensor = false);
    [[nodiscard]] const std::string& chip() const;
    [[nodiscard]] const std::vector<std::vector<std::string>>& groups() const;
    // The groups a job is counted in, in the order collect() launches it for them (one launch
    // each in a user range): every group but the tensor family's unless `tensor`.
    [[nodiscard]] std::vector<std::vector<std::string>> groups_counted(bool tensor) const;

  private:
    struct impl;
    std::unique_ptr<impl> m_impl;
};

// Validates every metric name for `chip` and returns the single-pass groups, with no GPU
// (CUPTI's host API works from the chip name alone). Throws on an unknown metric.
[[nodiscard]] std::vector<std::vector<std::string>> plan_metric_groups(const std::string& chip);

}  // namespace tgemm
