#pragma once
// DRAM writes of a kernel that stores C: the wave model's value and band for every tiled rung
// (set_wave_dram_writes), and the loose band of a rung without waves (add_dram_write_band).
// Host-only C++; docs/models/dram-waves.md, "DRAM writes".
//
// L2 is write-back. A line of C is written to DRAM when it is evicted; what is still dirty when
// the kernel ends is written after the counted window (by the next kernel's traffic or the
// collector's preparation), so the counters miss it. Which lines are evicted within the kernel
// follows from what the L2 touches after them (kernels/wave_dram.hpp, c_written_bytes).
#include <cstdint>

#include "core/shape.hpp"
#include "model/refined_model.hpp"
#include "wave_dram.hpp"

namespace tgemm::kernels {

// Sets `r`'s DRAM writes to the wave model's, with its band where an end lies beyond the DRAM
// write tolerance of the value (model::dram_write_allowance). `partial_sums_bytes`: what the
// kernel stores beside C (stream-K's FP32 sums), which may be written back too (the high end).
void set_wave_dram_writes(refined_model& r, const wave_reads& w, double partial_sums_bytes = 0);

// For a rung without a wave model (naive_uncoalesced) whose model writes C back once the
// footprint exceeds half the L2 (model::dram_write_bytes): a band between C less the L2 (the
// most the L2 may hold dirty at the end) and every stored sector written once (C, or more where
// partial stores hit a sector at different times). Leaves `r` alone where it writes nothing or
// predicts no stores.
void add_dram_write_band(refined_model& r, const shape& s, int c_element_bytes,
                         std::int64_t l2_bytes);

}  // namespace tgemm::kernels
