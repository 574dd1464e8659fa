#pragma once
// Micro-benchmarks of the tensor cores (docs/peaks.md): one loop of mma.sync (the path of
// sm_80 and of the mma.sync rungs) and one of wgmma (sm_90a, the path of the top rungs), each
// for BF16 and FP16 inputs with FP32 accumulators, operands resident in registers or shared
// memory so that nothing but the tensor pipe limits them. Named tgemm_peak_* like the other
// peak kernels. Host code includes this header: launchers and the constants needed to count.
#include <cuda_runtime_api.h>

namespace tgemm::peak {

// ---- mma.sync.m16n8k16: independent accumulator chains per warp ----------------------------
inline constexpr int mma_threads = 256;
inline constexpr int mma_chains = 8;                    // independent accumulators per warp
inline constexpr double mma_flops = 2.0 * 16 * 8 * 16;  // per instruction, per warp

// ---- wgmma.m64n256k16: one accumulator chain per warpgroup, operands in shared memory -------
inline constexpr int wgmma_warpgroups = 3;
inline constexpr int wgmma_threads = 128 * wgmma_warpgroups;
inline constexpr int wgmma_per_iteration = 4;               // k16 steps of one 64-deep stage
inline constexpr double wgmma_flops = 2.0 * 64 * 256 * 16;  // per instruction, per warpgroup

// Blocks of the mma.sync loop one SM holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
[[nodiscard]] int mma_blocks_per_sm();

// Each warp runs iterations × mma_chains mma.sync. FLOPs = blocks × (mma_threads / 32) ×
// iterations × mma_chains × mma_flops. `clocks` as for the other clocked peak kernels.
void launch_mma_loop(bool bf16, int iterations, int blocks, float* sink, unsigned long long* clocks,
                     cudaStream_t stream);
// Each warpgroup runs iterations × wgmma_per_iteration wgmma. FLOPs = blocks ×
// wgmma_warpgroups × iterations × wgmma_per_iteration × wgmma_flops. One block per SM.
void launch_wgmma_loop(bool bf16, int iterations, int blocks, float* sink,
                       unsigned long long* clocks, cudaStream_t stream);

}  // namespace tgemm::peak
