#pragma once
// Rungs of the FP32 ladder with each CTA's SM and lifetime recorded, their own bodies
// (kernels/tile32_bodies.cuh, 04_thread_tiling.cuh … 10_warptiling.cuh) between two
// timestamps (tests/collect/cta_drift_test.cpp).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>

#include "rung.hpp"

namespace tgemm::probe {

// Where and when a CTA ran: its SM, and %globaltimer (ns) at its start and after its last
// thread finished the body.
struct cta_span {
    int sm = -1;
    unsigned long long start_ns = 0;
    unsigned long long end_ns = 0;
};

enum class traced_rung {
    naive,
    smem_tiling,
    thread_tiling,
    outer_product,
    smem_register,
    blocktiling_1d,
    blocktiling_2d,
    vectorized,
    warptiling
};

// The traced rung of that id (none for a rung without a traced body).
[[nodiscard]] std::optional<traced_rung> traced_rung_named(const std::string& id);
// CTAs per SM and registers per thread of the traced kernel (the rung's own, checked by the
// test against the rung's kernel); with `extra_smem` bytes of dynamic shared memory asked for
// at launch (none used), as few as that admits.
[[nodiscard]] int traced_ctas_per_sm(traced_rung r, int extra_smem = 0);
[[nodiscard]] int traced_registers(traced_rung r);
// CTAs of the rung's grid at `s`.
[[nodiscard]] std::size_t traced_ctas(traced_rung r, const shape& s);
// The rung's launch with the traced kernel; out[b] for CTA b in launch order (blockIdx.x
// fastest). Throws std::invalid_argument for vectorized or warptiling at a shape whose rows are
// not 16-byte aligned (their traced kernels are the float4 form).
void launch_traced(traced_rung r, const gemm_args& g, cta_span* out, cudaStream_t s,
                   int extra_smem = 0);
// Steps of K a CTA of the rung takes at `s` (K over the depth it stages, rounded up); 0 for a
// rung whose body takes no step hook (kernels/step_hook.cuh: smem_tiling, smem_register,
// blocktiling_1d, blocktiling_2d, vectorized and warptiling take one).
[[nodiscard]] int traced_steps(traced_rung r, const shape& s);
// CTAs per SM and registers per thread of the stepped kernel (0 without steps).
[[nodiscard]] int stepped_ctas_per_sm(traced_rung r);
[[nodiscard]] int stepped_registers(traced_rung r);
// launch_traced, and also steps[b × traced_steps + i]: %globaltimer (ns) when CTA b's thread 0
// reaches step i of K, before the step's loads (tests/collect/cta_steps_test.cpp). Throws
// std::invalid_argument for a rung without steps, and as launch_traced does.
void launch_stepped(traced_rung r, const gemm_args& g, cta_span* out, unsigned long long* steps,
                    cudaStream_t s);

}  // namespace tgemm::probe
