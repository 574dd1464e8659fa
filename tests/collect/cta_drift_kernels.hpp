#pragma once
// The rungs with 32 × 32 tiles (naive, smem_tiling) with each CTA's SM and lifetime recorded
// (tests/collect/cta_drift_test.cpp).
#include <cuda_runtime_api.h>

#include "rung.hpp"

namespace tgemm::probe {

// Where and when a CTA ran: its SM, and %globaltimer (ns) at its start and after its last
// thread finished the body.
struct cta_span {
    int sm = -1;
    unsigned long long start_ns = 0;
    unsigned long long end_ns = 0;
};

enum class tile32_body { naive, smem_tiling };

// CTAs per SM of the traced kernel (the rung's own: 2 on Hopper).
int traced_tile32_ctas_per_sm(tile32_body body);
// The rung's launch with the traced kernel; out[b] for CTA b in launch order (blockIdx.x
// fastest), ceil(m/32) × ceil(n/32) of them.
void launch_traced_tile32(tile32_body body, const gemm_args& g, cta_span* out, cudaStream_t s);

}  // namespace tgemm::probe
