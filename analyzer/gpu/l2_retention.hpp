#pragma once
// How long an L2 keeps a clean line that SMs on both of its partitions read, as measured on the
// GPU (Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize;
// docs/validation/<gpu>-l2-capacity.log): the fraction of such lines gone after the partition has
// touched x × its half of the L2 since. The DRAM read model (kernels/wave_dram.hpp) uses it for the
// strips a wave shares with the one before.
#include <cstdint>
#include <span>
#include <string_view>

namespace tgemm {

struct retention_point {
    double x = 0;        // distinct bytes touched since, over the partition's half of the L2
    double evicted = 0;  // the share of the lines gone by then
};

// The measured curve of GPU `key`; empty where none was measured (the models then take a step at
// x = 1: every line kept up to half the L2, none beyond).
[[nodiscard]] std::span<const retention_point> l2_retention_of(std::string_view key);

// The share of a set lost on each pass when it is swept again and again and the SMs that read a
// line change from pass to pass, as the strips of A and B go to other CTAs, on other SMs, wave
// after wave: by `readers` of each line in one pass (1 or 2; empty for more, and where none was
// measured), against the whole set over the partition's half of the L2 (not the share of it a
// partition holds: with readers that move, a partition keeps copies of lines its SMs no longer
// read). Measured with fresh lines stored between passes, 0.02 × the half a pass, as a GEMM's
// waves store C (CapacityEdge.RetentionOverManyPasses; docs/validation/<gpu>-l2-sweep.log;
// docs/models/dram-waves.md, "A set swept again and again").
[[nodiscard]] std::span<const retention_point> l2_swept_retention_of(std::string_view key,
                                                                     std::int64_t readers);

// The curves the DRAM read model (kernels/wave_dram.hpp) takes for one GPU.
struct l2_retention_curves {
    std::span<const retention_point> read_again;  // l2_retention_of
    std::span<const retention_point> swept_one;   // l2_swept_retention_of, 1 reader a line
    std::span<const retention_point> swept_two;   // 2 readers
    [[nodiscard]] std::span<const retention_point> swept(std::int64_t readers) const {
        return readers == 1   ? swept_one
               : readers == 2 ? swept_two
                              : std::span<const retention_point>{};
    }
};
[[nodiscard]] l2_retention_curves l2_retention_curves_of(std::string_view key);

// How long a dirty line stays: the fraction of the lines a partition stored x × its half of the L2
// ago that it has written back since (x: the distinct bytes it touched since, over that half).
// Measured on the H100 (Collector.DirtyLinesLeaveL2AfterAboutHalfItsSizeOfReads), used for both
// GPUs: the H200's curve lies 0.03-0.05 later, so this one is the earlier of the two.
[[nodiscard]] std::span<const retention_point> l2_dirty_eviction();

// The share evicted at `x` on `curve`: linear between its points, 0 before the first, 1 after the
// last; on an empty curve the step at 1.
[[nodiscard]] double evicted_at(std::span<const retention_point> curve, double x);

}  // namespace tgemm
