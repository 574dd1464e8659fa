#include "collect/range_owners.hpp"

#include <numeric>

#include <fmt/format.h>

#include "core/throw.hpp"

namespace tgemm {

std::vector<std::optional<std::size_t>> range_owners(const std::vector<int>& prepare_kernels,
                                                     std::size_t total, bool kernel_ranges) {
    const std::size_t members = prepare_kernels.size();
    std::vector<std::optional<std::size_t>> owner;
    if (!kernel_ranges) {
        if (total != members)
            TGEMM_THROW(internal, "CUPTI recorded {} ranges for {} profiled launches", total,
                        members);
        for (std::size_t i = 0; i < members; ++i) owner.emplace_back(i);
        return owner;
    }
    const auto prepared = static_cast<std::size_t>(
        std::accumulate(prepare_kernels.begin(), prepare_kernels.end(), 0));
    const bool one = members == 1;
    if (members == 0 || (one ? total <= prepared : total != prepared + members))
        throw ranges_unmatched(
            error_kind::internal,
            fmt::format("CUPTI recorded {} kernel ranges for {} profiled launches whose "
                        "preparations launch {} kernels",
                        total, members, prepared));
    for (std::size_t i = 0; i < members; ++i) {
        owner.insert(owner.end(), static_cast<std::size_t>(prepare_kernels[i]), std::nullopt);
        owner.insert(owner.end(), one ? total - prepared : 1, i);
    }
    return owner;
}

}  // namespace tgemm
