#pragma once
// Micro-benchmark kernels for the machine's peaks (docs/peaks.md). Every benchmark kernel is
// named tgemm_peak_* so Nsight Compute runs can select or skip them; the input fill kernel is
// tgemm_aux_peak_fill, like the other auxiliary kernels. Host code includes this header: it
// holds only the launchers and the constants the host needs to count bytes and FLOPs.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tgemm::peak {

// ---- DRAM read: grid-stride float4 streaming loads (ld.global.cs) over a buffer ≫ L2 ----
inline constexpr int dram_threads = 512;
inline constexpr int dram_unroll = 8;  // independent 16 B loads in flight per thread

// ---- L2 read: a working set that stays in L2, swept `passes` times with ld.global.cg ----
inline constexpr int l2_threads = 512;
inline constexpr int l2_unroll = 8;

// ---- Shared memory: conflict-free ld.shared.v4 (one warp = 512 B = 4 wavefronts) ----------
inline constexpr int smem_threads = 256;
inline constexpr int smem_slots = 4;   // float4s per thread in the block's array: 16 KiB
inline constexpr int smem_unroll = 8;  // loads per loop iteration
static_assert(smem_unroll % smem_slots == 0, "every iteration reads each slot equally often");

// ---- FP32: independent FMA chains per thread -----------------------------------------------
inline constexpr int fma_threads = 256;
inline constexpr int fma_chains = 16;  // independent accumulators: the ILP of one thread
inline constexpr int fma_steps = 16;   // unrolled FMAs per chain per loop iteration

enum class kernel_id { dram_read, l2_read, smem_read, fp32_fma };

// Threads per block of each kernel.
[[nodiscard]] int block_threads(kernel_id k);
// Blocks of `k` one SM holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
[[nodiscard]] cudaError_t resident_blocks_per_sm(kernel_id k, int* blocks);

// The launchers below throw tgemm::error (core/error.hpp) when a launch fails. `clocks`, where
// present, receives two values per block: SM cycles (clock64) and nanoseconds (%globaltimer)
// from thread 0 between the start of the block's timed work and the end of the whole block's.

// Reads `count` floats (a multiple of 4, 16 B aligned) once. Bytes = count × 4.
void launch_dram_read(const float* data, std::size_t count, int blocks, unsigned* sink,
                      cudaStream_t stream);
// Reads `count` floats (a multiple of 4) `passes` times. blocks × l2_threads must not exceed
// count / 4. Bytes = passes × count × 4.
void launch_l2_read(const float* data, std::size_t count, int passes, int blocks, unsigned* sink,
                    unsigned long long* clocks, cudaStream_t stream);
// Each thread makes iterations × smem_unroll 16 B shared loads. Bytes = blocks × smem_threads ×
// iterations × smem_unroll × 16.
void launch_smem_read(int iterations, int blocks, unsigned* sink, unsigned long long* clocks,
                      cudaStream_t stream);
// Each thread makes iterations × fma_steps × fma_chains FMAs of a = a·mul + add.
// FLOPs = 2 × blocks × fma_threads × iterations × fma_steps × fma_chains.
void launch_fp32_fma(float mul, float add, int iterations, int blocks, float* sink,
                     unsigned long long* clocks, cudaStream_t stream);
// Fills `count` 16-bit values (FP16, or BF16 when bf16) with uniform values in [-0.5, 0.5)
// from a hash of (index, seed): not zeros, since the power draw, and so the clock, of a tensor
// GEMM depends on its data.
void fill_half(void* data, std::size_t count, bool bf16, std::uint32_t seed, cudaStream_t stream);

}  // namespace tgemm::peak
