#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace tgemm {

// Reads `count` floats (a buffer several times the L2 size) so every L2 line holds clean
// flush data. Reading rather than writing matters: evicting dirty flush lines would be
// written back to DRAM during the next kernel and inflate its DRAM write counter.
void flush_l2_by_reading(const float* buffer, std::size_t count, float* sink, cudaStream_t stream);

}  // namespace tgemm
