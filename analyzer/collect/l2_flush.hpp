#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm {

// Evicts every line of L2 and leaves it clean, by reading `count` floats (at least 4× the L2
// size) with a kernel named tgemm_aux_l2_flush (scripts/validate_ncu.py skips kernels named
// tgemm_aux_*). Reading, not writing: a write-based flush leaves its own last L2-full of dirty
// lines, which the next kernel then evicts and writes back inside its counters (about 21 MB on
// the H100: the DRAM-write excess the earlier profiles carried, docs/validation.md). Measured on
// the H100 in issue 10's probe: after reading 200 MB, a read-only kernel wrote 0.02-0.25 MB.
// After it no byte of A, B or C is cached, so DRAM reads start cold.
//
// It also leaves every SM's unified cache at the largest L1 (the smallest shared-memory
// capacity), so the L1/shared split a rung's launch runs with does not depend on what ran
// earlier: the driver keeps a split the next kernel fits in, and an earlier kernel's could give a
// rung a smaller L1 (measured on the H200, docs/measurement.md "The L1 and shared-memory split").
// A rung that needs more shared memory moves every SM to the split it names
// (kernels/name_shared_split.hpp). Returns the first CUDA error of the set-up or the launch.
[[nodiscard]] cudaError_t flush_l2(float* buffer, std::size_t count, cudaStream_t stream);

}  // namespace tgemm
