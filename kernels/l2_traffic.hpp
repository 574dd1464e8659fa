#pragma once
// The L2 traffic that follows from a split L2, for every rung from what its model already
// predicts (stores, DRAM reads, TMA loads): L2 writes and the bytes the partitions ask each other
// for. Derivation and the experiment behind it: docs/models/l2.md. Host-only C++.
//
// A GPU whose L2 is P partitions (Hopper, Ampere: 2) homes each line in one of them, by address,
// evenly. An SM reads and writes through the partition it is attached to; a line homed in
// another one is looked up there over the L2 fabric, and counted by both. So:
// - a store is counted once at the near partition and once more at the home when that is
//   another one: (1 + (P-1)/P) per stored sector;
// - a line of C, which one CTA (one SM) reads and writes, crosses with probability (P-1)/P;
// - a line of A or B, which CTAs on every partition read, crosses P-1 times for each time it is
//   brought from DRAM, when each partition keeps its copy as long as the home keeps the line.
//
// What it does not derive gets a typed band between the limiting cases, as for DRAM reads:
// - stores that write parts of one sector in several requests (L1 store sectors above C's):
//   L2 sees between one write per sector of C (all merged) and one per request (none merged);
//   the merging happens in the SM's L1 before the crossbar, and the L2 counts exactly what L1
//   forwards (measured, docs/models/l2.md, "The SMs' stores on their way to L2");
// - operands read from DRAM more than once (the wave model's re-reads): a refill may serve only
//   the partition that missed ((P-1)/P crossings) or all of them (P-1);
// - loads by TMA multicast (bf16_cluster): whether the partition of each SM a box is delivered
//   to keeps a copy of a far line is not known, so between kept (the rule above) and never kept
//   (every far request crosses);
// - a narrow grid (fewer tiles wide than shortest_one_side_run) of more than one wave, or on a
//   GPU whose first waves were not logged: a strip of A read on one side only crosses for the
//   lines homed on the other, (P-1)/P of them, rather than P-1 times (low end).
// A launch that fits in one wave, on a GPU whose first waves were logged, gets that as a value
// instead: the strips read on one side, from the logged order in which the first wave is dealt
// (one_wave_fabric.hpp).
// What the tool counts besides the kernel: the collector's counted window holds fabric bytes of
// its own on some GPUs (gpu_spec::collector_window_fabric_bytes), added to the value and band.
// TMA loads through the ladder's maps (256-byte L2 promotion, tensor/tma_l2_promotion.hpp) add
// (P-1)/P of A's and B's DRAM reads: measured against the same kernels with promotion off.
#include <array>
#include <span>
#include <string_view>

#include "core/shape.hpp"
#include "gpu/first_wave.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

struct l2_operands {
    int ab_element_bytes = 4;    // of A and B
    int c_element_bytes = 4;     // of C
    int tile_n = 0;              // columns of C per CTA tile; 0: not known (no narrow-grid band)
    int tile_m = 0;              // rows; 0: not known (no one-wave rule)
    bool grid_x_down_m = false;  // launch_info::grid_x_down_m
    // One CTA per tile, dealt in launch order (not clusters, not persistent CTAs that walk the
    // tiles): where the one-wave rule holds.
    bool one_tile_per_cta = false;
};

// Where a launch's CTAs run and what the count holds besides them: the GPU's SMs, the CTAs of
// this launch one SM holds at its limits, the logged first waves (model_context::first_wave) and
// the collector's window. Defaults: none known (no one-wave rule, no window).
struct l2_placement {
    int sm_count = 0;
    int ctas_per_sm = 0;
    std::array<std::span<const std::string_view>, 6> first_wave{};
    double window_fabric_bytes = 0;
    small_launch_dispatch small_launches{};  // launches of no more CTAs than SMs
};

// The shortest run of consecutive CTAs that took SMs of one L2 partition, measured on either GPU
// (docs/validation/{h100,h200}-cta-placement.log against the partition map, docs/models/l2.md
// "Which partition each SM reads through"). A grid fewer tiles wide than that is narrow: the CTAs
// that read one strip of A, consecutive in launch order, may all run on one partition's SMs.
inline constexpr int shortest_one_side_run = 8;

// Sets `r`'s l2_write_bytes and l2_fabric_bytes (and their bands and notes) from its stores,
// TMA loads and DRAM reads. Leaves them empty, with a note, where those are not predicted (the
// cuBLAS rows) or `partitions` is 0 (not known).
void add_l2_traffic(refined_model& r, const shape& s, const l2_operands& e, int partitions,
                    const l2_placement& where = {});

}  // namespace tgemm::kernels
