#pragma once
// DRAM writes of a kernel that stores C, for every rung with predicted stores: what the model
// cannot say (how much of C is still dirty in L2 when the kernel ends) as a typed band. Host-only
// C++; docs/models/dram-waves.md, "DRAM writes".
//
// L2 is write-back. A line of C is written to DRAM when it is evicted; what is still dirty when
// the kernel ends is written after the counted window (by the next kernel's traffic or the
// collector's preparation), so the counters miss it. The model's value
// (model::dram_write_bytes) takes C as written once the footprint exceeds half the L2, and as
// staying in L2 otherwise. Where it takes C as written, the measured writes lie between:
// - C less the L2: at most the whole L2 can hold dirty lines of C when the kernel ends;
// - every sector stored written once: C, or more where stores write parts of a sector in
//   separate requests and a sector is evicted between them (the uncoalesced stores of C).
// Which end a kernel is near depends on the L2's replacement and on when each tile of C is
// stored, which the model does not derive: C less the measured writes runs from -6.1 MB (a sector
// written back twice) to +22 MB at the shipped and new shapes on the H100 and H200.
#include <cstdint>

#include "core/shape.hpp"
#include "model/refined_model.hpp"

namespace tgemm::kernels {

// Sets `r`'s DRAM write band and its note where its model writes C back (a positive
// dram_write_bytes) and predicts its stores; leaves it alone otherwise.
void add_dram_write_band(refined_model& r, const shape& s, int c_element_bytes,
                         std::int64_t l2_bytes);

}  // namespace tgemm::kernels
