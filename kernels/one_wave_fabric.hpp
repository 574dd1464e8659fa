#pragma once
// Which strips of A and B a launch that fits in one wave reads on one L2 partition only. Host-only
// C++; derivation and the measurements behind it: docs/models/l2.md, "A launch of one wave".
//
// A strip of A (a row of tiles) is read by the CTAs of that row, of B (a column) by those of the
// column. Where all of them run on SMs of one partition, each line of the strip crosses the fabric
// only when homed on the other partition, (P-1)/P of the lines, instead of once per other
// partition. Which SM takes which CTA: the first wave is dealt in an order the GPU repeats (the
// logged first waves, gpu/first_wave.hpp), but where in that order CTA 0 lands moves from launch
// to launch (SM 0 took CTA 44 in one run, 76 or 8 in others). So CTA i takes the side the logged
// wave gave CTA (i + t) mod SMs, averaged over every start t and every logged run. A launch of no
// more CTAs than SMs is dealt otherwise, by a rule read off every such launch logged
// (gpu/first_wave.hpp, small_launch_dispatch), averaged over its start columns.
#include <cstdint>
#include <span>
#include <string_view>

#include "core/shape.hpp"
#include "gpu/first_wave.hpp"

namespace tgemm::kernels {

struct one_wave_grid {
    int tile_m = 0;
    int tile_n = 0;
    // blockIdx.x walks the tiles down M (naive_uncoalesced) rather than across N: then the CTAs
    // consecutive in launch order share a strip of B, not of A.
    bool x_down_m = false;
};

// The CTAs of the grid: one per tile.
[[nodiscard]] std::int64_t grid_ctas(const shape& s, const one_wave_grid& g);

// The share of A's and B's bytes (by the strips' sizes, M×K and K×N in all) that lies in strips
// whose readers all sit on one side, with the CTAs dealt as above over `runs` (each a string of
// '0' and '1', one character per SM): the mean over every start of every run, and the least and
// most of any start. All 0 when `runs` is empty.
struct one_sided {
    double mean = 0;
    double least = 0;
    double most = 0;
};
[[nodiscard]] one_sided one_sided_share(const shape& s, const one_wave_grid& g,
                                        std::span<const std::string_view> runs);

// The same for a launch of no more CTAs than SMs, dealt as `d` says, over every start column.
// All 0 when `d` is not known or the grid has more CTAs than `d` has SMs.
[[nodiscard]] one_sided small_launch_share(const shape& s, const one_wave_grid& g,
                                           const small_launch_dispatch& d);

}  // namespace tgemm::kernels
