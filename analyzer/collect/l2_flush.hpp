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
void flush_l2(float* buffer, std::size_t count, cudaStream_t stream);

}  // namespace tgemm
