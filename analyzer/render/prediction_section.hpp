#pragma once
// "Predicted TFLOP/s from the H100 calibration" (analysis/performance_model.hpp): for a
// predicted report, each published measurement beside the prediction; for a measured report
// of another GPU, every timed row beside its prediction. Both with the error, its median and
// whether the prediction puts the rungs in the measured order.
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace tgemm::render {

struct prediction_check {
    std::string kernel;
    shape size;
    // Published, or measured on this GPU; empty for a predicted row nobody published.
    std::optional<double> observed_tflops;
    double predicted_tflops = 0;
    std::string bound;
    [[nodiscard]] std::optional<double> error() const {
        if (!observed_tflops) return std::nullopt;
        return *observed_tflops / predicted_tflops - 1;
    }
};

struct prediction_summary {
    std::vector<prediction_check> rows;
    int compared = 0;  // rows with an observed figure
    double median_abs_error = 0;
    // Pairs of compared rows at one size whose order the prediction swaps, of all such pairs.
    int swapped_pairs = 0;
    int pairs = 0;
};

// Empty when there is no calibration, it is this report's own GPU, or no row has a calibration
// row. A predicted profile lists every row (the published figure where there is one).
[[nodiscard]] std::optional<prediction_summary> check_predictions(const analysis& a,
                                                                  const profile* calibration);

// The section with its heading; empty when check_predictions is.
[[nodiscard]] std::string prediction_section(const analysis& a, const profile* calibration,
                                             const std::string& calibration_label);

// A predicted report's TFLOP/s table: kernels × sizes, each cell the calibrated prediction and,
// in brackets, the published figure where there is one; empty when check_predictions is or the
// profile is measured.
[[nodiscard]] std::string predicted_tflops_table(const analysis& a, const profile* calibration);

// One line for the summary page; empty when check_predictions is.
[[nodiscard]] std::string prediction_summary_line(const analysis& a, const profile* calibration);

}  // namespace tgemm::render
