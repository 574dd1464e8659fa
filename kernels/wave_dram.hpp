#pragma once
// DRAM reads of a tiled GEMM, wave by wave: the one traffic model every tiled rung uses, FP32 and
// tensor alike (derivation: docs/models/dram-waves.md). Host-only C++.
//
// A wave is the set of CTA tiles resident together; each tile streams one strip of A
// (strip_rows rows, all of K) and one of B (strip_cols columns, all of K). The CTAs of a wave
// start together and cross K at about the same pace, so a strip several of them share comes
// from DRAM once per wave. A strip the previous wave touched is found in L2 as the GPU's
// measured retention says (gpu/l2_retention.hpp) for what its partition touched since: that
// wave's strips (a line is held at its home and in each of Hopper's two partitions whose SMs read
// it, so a partition holds 1 − (1/2)^(r+1) of a strip r CTAs read; docs/models/dram-waves.md) and
// 3/4 of its C tiles, against half the L2. C is read once (β ≠ 0). The
// same waves give the DRAM writes: which C tiles leave L2 before the kernel ends.
#include <cstdint>
#include <span>
#include <vector>

#include "core/shape.hpp"
#include "gpu/l2_retention.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

// Where lines every SM reads start to leave L2 and where all have left, in multiples of the
// partition's half (docs/validation/h100-l2-capacity.log, h200-l2-capacity.log: under 1 % gone
// at 0.9 on both, all at 1.25).
inline constexpr double l2_edge_start = 0.9;
inline constexpr double l2_edge_end = 1.25;

struct strip_pair {
    std::int64_t a_strip = 0;  // row block of A
    std::int64_t b_strip = 0;  // column block of B
};
using wave = std::vector<strip_pair>;

struct wave_reads {
    double a_bytes = 0;
    double b_bytes = 0;
    double c_bytes = 0;
    std::int64_t waves = 0;
    bool fits_l2 = false;             // A and B together fit in half the L2 (for the notes)
    bool reuse_across_waves = false;  // some wave finds strips of the one before in L2
    // The most bytes of distinct A and B strips one wave touches (0 when A and B fit): above
    // half the L2, CTAs share a strip only while they stay within the L2's reach of each other
    // along K, so the per-wave count is a lower bound (tensor_models.cpp, add_dram_notes).
    double max_wave_strip_bytes = 0;
    // The reads if no two CTAs of a wave shared a strip through L2 (every tile streams its own
    // strips of A and B; C once): the most a wave schedule can read.
    double unshared_bytes = 0;
    // The reads if the L2 kept shared strips up to the end of its measured edge (1.25 × the half)
    // or dropped them from its start (0.9 ×), instead of the measured curve: a DRAM read band's
    // ends (add_l2_residency_band). The high end counts between two uses of a strip the strips of
    // the `concurrent_waves` waves from the one that used it (wave_dram_reads).
    double edge_low_bytes = 0;
    double edge_high_bytes = 0;
    int concurrent_waves = 1;
    // The reads if a line all SMs share were held once in L2 (the whole L2 usable instead of
    // half); set only where that reads less than the model (0 otherwise).
    double held_once_bytes = 0;
    // C written to DRAM during the kernel (docs/models/dram-waves.md, "DRAM writes"). L2 writes
    // a dirty line back only to make room: a wave's C tiles, stored as its CTAs finish, are
    // written within the kernel when what their partition touches after them (the later waves'
    // strips of A and B and its share of their C tiles, and the wave's own tiles stored after
    // them) exceeds its half of the L2, and are still dirty at the end otherwise. What a
    // partition holds of a strip follows from how many CTAs read it (1 − (1/2)^(r+1),
    // docs/models/dram-waves.md, "How many SMs read a line"). The band's ends: dirty lines that
    // stay as long as the clean lines every SM reads (gone by the edge's end, 1.25 × the half:
    // low) and that leave as early as measured (high).
    double c_written_bytes = 0;
    double c_written_low = 0;
    double c_written_high = 0;
    // The low end is that of the groups sharing the SMs finishing together, or of the last
    // resident wave's worth of CTAs left at the end (the drifting rungs, reg_tiling_model.hpp).
    bool c_written_low_together = false;
    // The high end is that of waves drifting apart into groups of one CTA per SM (thread_tiling,
    // whose waves stay in step at some shapes and not at others).
    bool c_written_high_drifting = false;
    // The high end is that of the CTAs of a part-filled wave alone on their SM finishing first.
    bool c_written_high_early = false;
    [[nodiscard]] double total() const { return a_bytes + b_bytes + c_bytes; }
};

// `element_bytes`: of A, B and C (4 for FP32, 2 for BF16 and FP16).
// `retention`: the GPU's measured L2 retention curves (gpu/l2_retention.hpp); empty: the step at
// half the L2. A strip one or two CTAs of a wave read, found again by a later wave (whose CTAs sit
// on other SMs), is gone at least as far as the GPU's curve of a set swept again by readers that
// move says for the whole strips and C tiles touched since (l2_swept_retention_of;
// docs/models/dram-waves.md, "A set swept again and again").
// `concurrent_waves`: how many waves run at once, each at its own point of K (the groups of the
// drifting rungs, reg_tiling_model.hpp): the high end's limiting case counts the strips of all of
// them between two uses of a strip; 1 where a wave is all that runs at once.
// `b_walks`: how many times each CTA walks its strip of B along K, reading a 1/b_walks part of its
// strip of A on each walk (thread_tiling's loop over the rows of its thread tile); 1 for every
// other rung. `sm_count`: where known (the launches whose CTAs are dealt out one per SM in launch
// order; 0 for the persistent tensor rungs), the write band's high end lets the CTAs of a
// part-filled wave that share their SM with fewer finish first (wave_dram_writes).
[[nodiscard]] wave_reads wave_dram_reads(const shape& s, int element_bytes, std::int64_t strip_rows,
                                         std::int64_t strip_cols, const std::vector<wave>& waves,
                                         std::int64_t l2_bytes,
                                         const l2_retention_curves& retention = {},
                                         int concurrent_waves = 1, int b_walks = 1,
                                         std::int64_t sm_count = 0);

// C written to DRAM within the kernel (wave_reads::c_written_*): the value and the band's ends,
// from the waves alone; for a second wave schedule of the same launch (reg_tiling_model.hpp).
struct c_written {
    double value = 0;
    double low = 0;
    double high = 0;
    bool high_early = false;  // the high end is that of CTAs finishing first (`sm_count`)
};
// With `sm_count` (> 0), the high end also has the CTAs of a part-filled wave that share their SM
// with fewer than the busiest SMs hold finish first, as soon as their share of the busiest SMs'
// work allows, with the rest of the busiest SMs' strips and their C tiles behind their tiles.
[[nodiscard]] c_written wave_dram_writes(const shape& s, int element_bytes, std::int64_t strip_rows,
                                         std::int64_t strip_cols, const std::vector<wave>& waves,
                                         std::int64_t l2_bytes, std::int64_t sm_count = 0);

// How the rungs' notes say rule 2 (after "each reads the A and B strips it touches, ").
inline constexpr const char* strip_reuse_note =
    "less those an earlier one touched that L2 still holds (as the GPU's measured retention "
    "says after the strips and 3/4 of the C tiles touched since, against half the L2; a strip "
    "one or two CTAs read at most as a set swept again by readers on other SMs keeps)";

// The waves of a launch of gm × gn CTAs in blockIdx order (x along N fastest), `per_wave` at a
// time, from the first CTA on; with `last_wave_full`, from the last CTA back (the first wave
// takes the remainder): the CTAs resident together at the end of a launch whose CTAs drift
// apart are the last `per_wave` dispatched.
[[nodiscard]] std::vector<wave> launch_order_waves(std::int64_t gm, std::int64_t gn,
                                                   std::int64_t per_wave,
                                                   bool last_wave_full = false);

// Where the L2's limiting cases lie beyond the DRAM read tolerance of the model, `r` gets a DRAM
// read band between them, unless it has a band already (a rung's own limiting cases are the
// wider ones): the low end with strips kept to the end of the measured edge
// (`edge_low_bytes`) or shared lines held once (`held_once_bytes`), the high end with strips
// dropped from its start (`edge_high_bytes`); docs/models/dram-waves.md.
void add_l2_residency_band(refined_model& r, const wave_reads& w, std::int64_t l2_bytes);

}  // namespace tgemm::kernels
