#pragma once
// Predicted time of a (rung, shape) on a target GPU from its measurement on a calibration GPU
// (the H100 profile), with nothing fitted to the target (docs/prediction.md):
//
//   t_exec  = t_cal × (SMs_cal × f_cal × r_cal) ÷ (SMs_tgt × f_tgt × r_tgt), f the GPUs'
//             maximum SM clocks;
//             r = min(1, W / L): instructions a scheduler issues per cycle (Little's law,
//             analysis/execution.hpp); L, a warp's cycles per instruction, is the calibration's
//             (the same code, latencies counted in cycles); W on the target is the calibration's
//             W × the ratio of the two GPUs' theoretical occupancies of the launch;
//   t_dram  = the target model's DRAM bytes ÷ (target DRAM peak × the calibration's measured
//             DRAM efficiency);
//   t_math  = executed FLOPs ÷ (target compute peak × the calibration's measured efficiency);
//   t       = max(t_exec, t_dram, t_math).
//
// On the calibration GPU itself t = t_cal. Without the calibration's execution counters (an
// older profile) r is taken as proportional to W (latency-bound).
#include <optional>
#include <string>

#include "profile/profile.hpp"

namespace tgemm {

struct time_prediction {
    double seconds = 0;
    double tflops = 0;  // 2MNK / seconds
    // Which term set the time: "latency", "issue", "DRAM", or the compute roof's key.
    std::string bound;
    bool used_execution_counters = false;
};

// `cal`: the measured row of the calibration profile; `target`: the target GPU's row for the
// same (rung, shape) (its model for the target's L2 and occupancy; measured or predicted).
// Empty when the calibration row has no time or either GPU lacks what the terms need.
[[nodiscard]] std::optional<time_prediction> predict_time(const measurement& cal,
                                                          const profile& calibration,
                                                          const measurement& target,
                                                          const profile& target_profile);

}  // namespace tgemm
