#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm {

// Evicts every line of L2 by writing `count` floats (several times the L2 size) with a kernel
// named tgemm_aux_l2_fill (scripts/validate_ncu.py skips kernels named tgemm_aux_*). After it,
// no byte of A, B or C is cached, so DRAM reads start cold. It cannot leave L2 clean: the
// H100's L2 keeps dirty lines in preference to clean ones, and no user-space operation writes
// them back (`discard.global.L2` and reads of 3× L2 were tried; tests/collect/
// collector_test.cpp shows a read-only kernel writing ~20 MB to DRAM after any of them).
// Nsight Compute's --cache-control all flushes through the driver. docs/validation.md
// compares DRAM writes with ncu under the same preparation.
void flush_l2(float* buffer, std::size_t count, cudaStream_t stream);

}  // namespace tgemm
