#pragma once
// Which sizes a main-job run measures: every rung at --sizes, and the tensor-core rungs also
// at --tensor-sizes (by default, or when that option is given).
#include <vector>

#include "cli/options.hpp"
#include "core/shape.hpp"

namespace tgemm::cli {

struct size_plan {
    std::vector<shape> shapes;       // all of them, in the order given
    std::vector<shape> tensor_only;  // those only the tensor-core rungs run
};

// Throws error_kind::usage on a malformed size.
[[nodiscard]] size_plan plan_sizes(const main_options& o);

}  // namespace tgemm::cli
