#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>

#include "collect/peak_clock.cuh"
#include "collect/tensor_peak_kernels.cuh"
#include "core/error.hpp"
#include "tensor/sm90_ptx.cuh"
#include "tensor/wgmma_ops.cuh"

namespace tgemm::peak {

namespace {

// Operand values uniform in [-0.5, 0.5) from a hash, packed two per register: a tensor core's
// power draw, and with it the clock it sustains, depends on the data (zeros run faster).
__device__ __forceinline__ std::uint32_t hashed_pair(std::uint32_t i, bool bf16) {
    std::uint32_t h = i * 0x9e3779b9u;
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    const float x = static_cast<float>(h & 0xffff) / 65536.0f - 0.5f;
    const float y = static_cast<float>(h >> 16) / 65536.0f - 0.5f;
    if (bf16) {
        const __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
        return *reinterpret_cast<const std::uint32_t*>(&v);
    }
    const __half2 v = __floats2half2_rn(x, y);
    return *reinterpret_cast<const std::uint32_t*>(&v);
}

template <bool Bf16>
__device__ __forceinline__ void mma_step(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (Bf16)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

template <bool Bf16>
__global__ void __launch_bounds__(mma_threads)
    tgemm_peak_mma(int iterations, float* sink, unsigned long long* clocks) {
    const std::uint32_t seed = blockIdx.x * mma_threads + threadIdx.x;
    std::uint32_t a[4], b[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = hashed_pair(seed * 8 + i, Bf16);
#pragma unroll
    for (int i = 0; i < 2; ++i) b[i] = hashed_pair(seed * 8 + 4 + i, Bf16);
    float acc[mma_chains][4] = {};
    block_clock clk;
    clk.start();
#pragma unroll 1
    for (int it = 0; it < iterations; ++it)
#pragma unroll
        for (int c = 0; c < mma_chains; ++c) mma_step<Bf16>(acc[c], a, b);
    clk.stop(clocks);
    float sum = 0;
#pragma unroll
    for (int c = 0; c < mma_chains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    if (sum == 1234.5f) *sink = sum;  // keeps the loop alive without a store per thread
}

// A: 64×64 K-major, B: 64×256 N-major (four 64-column boxes), both with the 128-byte swizzle,
// as the GEMM kernels lay them out; the values come from the hash, written by ordinary stores.
[[maybe_unused]] constexpr int wg_a_bytes = 64 * 64 * 2;
[[maybe_unused]] constexpr int wg_b_box_bytes = 64 * 64 * 2;
[[maybe_unused]] constexpr int wg_smem_bytes = wg_a_bytes + 4 * wg_b_box_bytes;

template <bool Bf16>
__global__ void __launch_bounds__(wgmma_threads, 1)
    tgemm_peak_wgmma(int iterations, float* sink, unsigned long long* clocks) {
#if TGEMM_SM90A
    __shared__ __align__(1024) std::uint32_t smem[wg_smem_bytes / 4];
    for (int i = threadIdx.x; i < wg_smem_bytes / 4; i += wgmma_threads)
        smem[i] = hashed_pair(blockIdx.x * (wg_smem_bytes / 4) + i, Bf16);
    sm90::fence_proxy_async_smem();  // the wgmma (async proxy) read what the stores wrote
    __syncthreads();
    const std::uint32_t a = sm90::smem_addr(smem);
    const std::uint32_t b = a + wg_a_bytes;
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
    block_clock clk;
    clk.start();
#pragma unroll 1
    for (int it = 0; it < iterations; ++it) {
        sm90::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < wgmma_per_iteration; ++kk) {
            const auto da = sm90::sw128_desc(a + 32 * kk, 16, 1024);
            const auto db = sm90::sw128_desc(b + kk * 16 * 128, wg_b_box_bytes, 1024);
            if constexpr (Bf16)
                sm90::wgmma_m64n256k16<1>(acc, da, db, 1);
            else
                sm90::wgmma_m64n256k16_f16<1>(acc, da, db, 1);
        }
        sm90::wgmma_commit();
        sm90::wgmma_wait<1>();
    }
    sm90::wgmma_wait<0>();
    sm90::fence_registers(acc);
    clk.stop(clocks);
    float sum = 0;
#pragma unroll
    for (int i = 0; i < 128; ++i) sum += acc[i];
    if (sum == 1234.5f) *sink = sum;
#else
    (void)iterations;
    (void)sink;
    (void)clocks;
    __trap();
#endif
}

void check_launch(const char* what) {
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        throw error(error_kind::device,
                    std::string(what) + " launch failed: " + cudaGetErrorString(e));
}

}  // namespace

int mma_blocks_per_sm() {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tgemm_peak_mma<true>, mma_threads,
                                                      0) != cudaSuccess)
        throw error(error_kind::internal, "cudaOccupancyMaxActiveBlocksPerMultiprocessor failed");
    return blocks;
}

void launch_mma_loop(bool bf16, int iterations, int blocks, float* sink, unsigned long long* clocks,
                     cudaStream_t stream) {
    if (bf16)
        tgemm_peak_mma<true><<<blocks, mma_threads, 0, stream>>>(iterations, sink, clocks);
    else
        tgemm_peak_mma<false><<<blocks, mma_threads, 0, stream>>>(iterations, sink, clocks);
    check_launch("tgemm_peak_mma");
}

void launch_wgmma_loop(bool bf16, int iterations, int blocks, float* sink,
                       unsigned long long* clocks, cudaStream_t stream) {
    if (bf16)
        tgemm_peak_wgmma<true><<<blocks, wgmma_threads, 0, stream>>>(iterations, sink, clocks);
    else
        tgemm_peak_wgmma<false><<<blocks, wgmma_threads, 0, stream>>>(iterations, sink, clocks);
    check_launch("tgemm_peak_wgmma");
}

}  // namespace tgemm::peak
