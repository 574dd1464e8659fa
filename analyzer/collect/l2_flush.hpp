#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm {

// Leaves L2 holding no valid line, clean or dirty, like Nsight Compute's cache flush:
// 1. write `count` floats (several times the L2 size): every resident line, the restored C's
//    dirty lines included, is evicted, and dirty ones are written back now, not later;
// 2. `discard.global.L2` every 128-byte line of the buffer: its own dirty lines are dropped
//    without a write-back (their contents are scratch).
// A read-only flush is not enough: dirty lines of C survive it (the replacement policy
// prefers clean victims) and their write-back then lands inside the profiled kernel, adding
// megabytes to its DRAM write counter. `buffer` must be 128-byte aligned and `count` a
// multiple of 32.
void flush_l2(float* buffer, std::size_t count, cudaStream_t stream);

}  // namespace tgemm
