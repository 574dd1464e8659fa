#pragma once
// Which profiled launch each CUPTI range of a one-pass group belongs to, for the two kinds of
// range the tool can count in (--cupti-ranges, collect/counter_session.hpp). No CUPTI here, so
// the mapping is tested without a GPU (tests/cli/range_owners_test.cpp).
#include <cstddef>
#include <optional>
#include <vector>

#include "core/error.hpp"

namespace tgemm {

// Kernel ranges whose count fits no reading of the batch (a launch of several kernels in a
// batch of more than one): the session counts such a batch again launch by launch.
class ranges_unmatched : public error {
  public:
    using error::error;
};

// Per range, the position of its launch among the batch's members; nullopt for a preparation
// kernel's range. `prepare_kernels`: the kernels each member's preparation launches, in the
// order the members ran. User ranges (`kernel_ranges` false): one range per member, pushed
// around its launch. Kernel ranges: each member's preparation kernels, then its launch's kernels,
// which is all the rest for a batch of one and one kernel per launch otherwise (a batch cannot
// tell where a launch of several kernels ends). Throws `internal` when user ranges do not come
// one per launch, ranges_unmatched when kernel ranges fit neither reading.
[[nodiscard]] std::vector<std::optional<std::size_t>> range_owners(
    const std::vector<int>& prepare_kernels, std::size_t total, bool kernel_ranges);

}  // namespace tgemm
