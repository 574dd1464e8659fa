#pragma once
// What L1 forwards to L2 of a tiled rung's loads (`l2_requested_bytes`, the L2 request
// coalescer's input, lrc__request_sectors_op_read_coalescable): the 32-byte sectors of every
// CTA's strips of A and B, and of its tile of C, once. Host-only C++; docs/models/l2.md, "What
// the SMs read from L2".
//
// A CTA reads each sector of its strips once per K step (through shared memory, or, for the
// naive rungs, by warps that L1 serves from the first one's miss), so L1 misses each sector
// once per CTA: a hit needs a second CTA of the same SM reading it at the same time, and the
// CTAs that share an SM lie far apart in launch order (at least 80 on the H100 in two runs: the
// GPU test CtaPlacement.CtasSharingAnSmAreFarApartInLaunchOrder). What the L2 then counts is
// less by what the coalescer merges of requests from several SMs for one sector arriving
// together (1.3-62 % of them on the H100, docs/validation/h100-l2-read-path.csv): a timing
// effect, which is why `l2_bytes` and `l2_read_bytes` have no model.
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

// Sets `r`'s l2_requested_bytes to 32 B × strip_sectors, with a note. The CTAs that share an SM
// start `sm_count` apart in launch order; where the grid's width divides that, they are in one
// column of tiles and read one strip of B, and L1 may serve a later one's reads from an earlier
// one's misses (measured: outer_product at 1536×1536×4096, vectorized and warptiling at
// 8192×768×2048, 11–16 % under the value). Then a band: between each SM's `ctas_per_sm`
// residents missing B's strip once between them (low) and each once (high, the value).
void set_l2_requests(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                     std::int64_t bn, int ctas_per_sm, int sm_count);

// For a rung whose warps each walk the CTA's strip of B `walks` times, more than L1 holds
// (thread_tiling: once per row of its V): L1 misses each sector of B between once per CTA (L1
// keeps the strip between walks; the band's low end, the strips of set_l2_requests) and once per
// walk (the value: the warps of a walk share its misses, nothing is kept between walks). Which,
// depends on how far apart the warps run; a band, with a note.
void set_l2_requests_walked(refined_model& r, const shape& s, int element_bytes, std::int64_t bm,
                            std::int64_t bn, int walks);

}  // namespace tgemm::kernels
