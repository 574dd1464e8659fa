#pragma once
// On which L2 partition's SMs the first CTAs of a launch run, as measured on the GPU: for CTAs
// 0 … SMs−1 in launch order, '0' where the SM that took it reads through SM 0's partition and '1'
// where it reads through the other (the CTA placement logs against the partition map,
// docs/validation/<gpu>-cta-placement*.log and <gpu>-l2-partition-map.log; docs/models/l2.md
// "Which partition each SM reads through"). One string per logged launch; the logs dealt 1, 2, 4
// and 5 CTAs to each SM. The L2 fabric model (kernels/one_wave_fabric.hpp) uses them for launches
// that fit in one wave.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace tgemm {

// The logged first waves of GPU `key` for a launch that deals `ctas_per_sm` CTAs to each SM (the
// log of that count; 3 takes the log of 4, the nearest count logged above it). Empty where
// nothing was logged: another GPU, or more than 5 CTAs per SM.
[[nodiscard]] std::span<const std::string_view> first_wave_sides_of(std::string_view key,
                                                                    int ctas_per_sm);

// The CTA counts per SM the logs hold, for the test that reads them back from the logs.
inline constexpr int logged_ctas_per_sm[] = {1, 2, 4, 5};

// How a launch of no more CTAs than SMs is dealt, read off every such launch logged
// (CtaPlacement.SmallLaunches, docs/validation/<gpu>-cta-placement-small*.log; docs/models/l2.md,
// "A launch of one wave"): its n CTAs take the first n SMs of `priority`, and launch order lists
// those by column (from a start column that moves between launches, then on round the columns),
// by group within a column and by SM number within a group; column −1 (SMs 124-131) first.
struct small_launch_dispatch {
    std::span<const std::int16_t> priority;
    std::span<const std::int16_t> column;  // by SM
    std::span<const std::int16_t> group;   // by SM
    std::string_view sides;                // by SM: '0' on SM 0's L2 partition, '1' on the other
    int columns = 0;
    [[nodiscard]] bool known() const { return !priority.empty(); }
    // The SMs of CTAs 0 … n − 1 when the listing starts at column `start`.
    [[nodiscard]] std::vector<int> order(int n, int start) const;
};

// GPU `key`'s; empty where no such launch was logged.
[[nodiscard]] small_launch_dispatch small_launch_dispatch_of(std::string_view key);

}  // namespace tgemm
