#pragma once
// What L1 forwards to L2 of a tiled rung's loads (`l2_requested_bytes`, the L2 request
// coalescer's input, lrc__request_sectors_op_read_coalescable): the 32-byte sectors of every
// CTA's strips of A and B, and of its tile of C, once. Host-only C++; docs/models/l2.md, "What
// the SMs read from L2".
//
// A CTA reads each sector of its strips once per K step (through shared memory, or, for the
// naive rungs, by warps that L1 serves from the first one's miss), so L1 misses each sector
// once per CTA unless another CTA on the same SM reads the same strip close enough in time for
// L1 to still hold it. Which CTAs share an SM, and how far apart along K they run, is the
// schedule's (traced: docs/validation/cta-drift/<gpu>-sm-pairs.txt): where an SM's CTAs keep in
// step (naive and rungs 08-11; 07 partly), a wave's CTAs take its SMs in an order that pairs
// CTAs anywhere in the wave (naive at 4096^3: launch-order distances between CTAs sharing an SM,
// tenth to ninetieth percentile, about 30 to 260 of a wave of 264); where the older CTA runs
// ahead (rungs 03, 05, 06), they lie about a multiple of the SM count apart and half a lifetime
// apart along K, as the first wave deals them out. Both give a band below the value
// (set_l2_requests).
// What the L2 then counts is less by what the coalescer merges of requests from several SMs for
// one sector arriving together (kernels/l2_totals.hpp).
#include <cstdint>

#include "core/shape.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

// The sectors every CTA of a grid of bm × bn tiles reads once: its rows of A (bm × K), its
// columns of B (K × bn) and its tile of C, row-major, `element_bytes` each, counted where each
// row's segment starts and ends (a row of K·e or N·e bytes that is not a multiple of 32 shifts
// the segments of the rows after it across sector boundaries).
[[nodiscard]] double strip_sectors(const shape& s, int element_bytes, std::int64_t bm,
                                   std::int64_t bn);

// How the CTAs that share an SM run (docs/models/dram-waves.md, "The schedule seen directly").
enum class sm_sharing {
    in_step,      // evenly, along K together: naive and rungs 07-11 (07 partly, traced)
    not_in_step,  // the older one ahead (rungs 03, 05, 06), or not traced (01)
};

// The bytes of strips L1 serves in expectation when each SM holds `ctas_per_sm` CTAs drawn at
// random from a wave of ctas_per_sm × sm_count consecutive CTAs and serves every read of a strip
// another of them reads too (they keep in step, so it still holds it): of the n CTAs of a wave
// that read one strip, n − E[the SMs they land on] read it from L1.
[[nodiscard]] double in_step_shared_bytes(const shape& s, int element_bytes, std::int64_t bm,
                                          std::int64_t bn, int ctas_per_sm, int sm_count);

// The bytes of A's strips read by CTAs whose predecessor on their SM, `sm_count` before them in
// launch order (as the first wave deals them out, and as CTAs that drift apart follow each other,
// traced), reads the same strip: in a grid more than `sm_count` tiles wide, gn − sm_count CTAs of
// each row of tiles. The limiting case of L1 serving all of those reads (the older CTA read them
// first; whether L1 still holds them depends on how far apart the two run, not derived).
[[nodiscard]] double successor_shared_bytes(const shape& s, int element_bytes, std::int64_t bm,
                                            std::int64_t bn, int sm_count);

// Sets `r`'s l2_requested_bytes to 32 B × strip_sectors, with a note; the value has no CTA read
// another's strip from L1. Two ways CTAs sharing an SM may read one strip give a band below it,
// where it lies beyond the L2 tolerance: the CTAs sharing an SM start `sm_count` apart in launch
// order as the first wave is dealt out, so where the grid's width divides that they are in one
// column of tiles and read one strip of B (measured: outer_product at 1536×1536×4096, vectorized
// and warptiling at 8192×768×2048, 11–16 % under the value; low end: each SM's `ctas_per_sm`
// residents missing B's strip once between them); and where they keep in step
// (`sm_sharing::in_step`), any CTAs of a wave may share an SM (in_step_shared_bytes; measured:
// naive at 960×9728×896, 19 % under the value, on both GPUs); where they do not, and the grid is
// wider than the SMs, a CTA and the one that next takes its SM read one strip of A
// (successor_shared_bytes; measured: smem_tiling at 776×9992×552, 23 % under the value).
void set_l2_requests(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                     std::int64_t bn, int ctas_per_sm, int sm_count, sm_sharing sharing);

// For a rung whose warps each walk the CTA's strip of B `walks` times, more than L1 holds
// (thread_tiling: once per row of its V): L1 misses each sector of B between once per CTA (L1
// keeps the strip between walks; the band's low end, the strips of set_l2_requests) and once per
// walk (the value: the warps of a walk share its misses, nothing is kept between walks). Which,
// depends on how far apart the warps run; a band, with a note.
void set_l2_requests_walked(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                            std::int64_t bn, int walks);

}  // namespace tgemm::kernels
