#pragma once
// BF16 GEMM with wgmma and TMA, one warpgroup per CTA and no specialisation (rung 15,
// bf16_wgmma): the step between mma.sync and the warp-specialized kernels.
//
// One warpgroup of 128 threads owns a BM×BN tile (BM = 64 or 128: one or two m64 wgmma per k
// step). Thread 0 issues the TMA copies of `Stages` K tiles ahead (A K-major, B N-major, both
// with the 128-byte swizzle, each stage completing on its own mbarrier); every thread waits on
// the stage's barrier, the warpgroup runs its wgmma and waits for them, and after a barrier
// thread 0 refills the stage it just freed. The copies of later stages overlap the math, but
// the tensor cores idle while the warpgroup waits for its own wgmma: that is what the
// warp-specialized rung removes.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "tensor/acc_store.cuh"
#include "tensor/accumulator_layout.hpp"
#include "tensor/bf16_wgmma_config.hpp"
#include "tensor/sm90_ptx.cuh"
#include "tensor/wgmma_ops.cuh"

namespace tgemm::bf16_wgmma {

struct params {
    int m = 0;
    int n = 0;
    int k = 0;
    float alpha = 1;
    float beta = 0;
    __nv_bfloat16* c = nullptr;
};

template <class Cfg>
__device__ __forceinline__ void issue_stage(const CUtensorMap& map_a, const CUtensorMap& map_b,
                                            std::uint8_t* sa, std::uint8_t* sb, std::uint64_t* full,
                                            int stage, int kt, int m0, int n0) {
    sm90::mbar_arrive_expect_tx(&full[stage], Cfg::a_stage_bytes + Cfg::b_stage_bytes);
    sm90::tma_load_2d(sa + stage * Cfg::a_stage_bytes, &map_a, &full[stage], kt * Cfg::bk, m0);
    for (int j = 0; j < Cfg::b_boxes; ++j)
        sm90::tma_load_2d(sb + stage * Cfg::b_stage_bytes + j * Cfg::b_box_bytes, &map_b,
                          &full[stage], n0 + 64 * j, kt * Cfg::bk);
}

template <class Cfg>
__global__ void __launch_bounds__(128)
    bf16_wgmma_kernel(const __grid_constant__ CUtensorMap map_a,
                      const __grid_constant__ CUtensorMap map_b, const params p) {
#if TGEMM_SM90A
    extern __shared__ __align__(1024) std::uint8_t smem_raw[];
    std::uint8_t* sa = reinterpret_cast<std::uint8_t*>(
        (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
    std::uint8_t* sb = sa + Cfg::stages * Cfg::a_stage_bytes;
    auto* full = reinterpret_cast<std::uint64_t*>(sb + Cfg::stages * Cfg::b_stage_bytes);
    const int m0 = blockIdx.y * Cfg::bm;
    const int n0 = blockIdx.x * Cfg::bn;
    const int k_tiles = (p.k + Cfg::bk - 1) / Cfg::bk;
    if (threadIdx.x == 0) {
        sm90::prefetch_tensor_map(&map_a);
        sm90::prefetch_tensor_map(&map_b);
        for (int s = 0; s < Cfg::stages; ++s) sm90::mbar_init(&full[s], 1);
        sm90::fence_barrier_init();
        for (int s = 0; s < Cfg::stages && s < k_tiles; ++s)
            issue_stage<Cfg>(map_a, map_b, sa, sb, full, s, s, m0, n0);
    }
    __syncthreads();

    float acc[Cfg::m_blocks][Cfg::bn / 2];
    const std::uint32_t a_base = sm90::smem_addr(sa);
    const std::uint32_t b_base = sm90::smem_addr(sb);
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int stage = kt % Cfg::stages;
        sm90::mbar_wait(&full[stage], (kt / Cfg::stages) & 1);
        sm90::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < Cfg::bk / 16; ++kk) {
            const auto db = sm90::sw128_desc(b_base + stage * Cfg::b_stage_bytes + kk * 16 * 128,
                                             Cfg::b_box_bytes, 1024);
#pragma unroll
            for (int mb = 0; mb < Cfg::m_blocks; ++mb) {
                const auto da = sm90::sw128_desc(
                    a_base + stage * Cfg::a_stage_bytes + mb * 64 * 128 + 32 * kk, 16, 1024);
                if constexpr (Cfg::bn == 256)
                    sm90::wgmma_m64n256k16<1>(acc[mb], da, db, (kt | kk) != 0);
                else
                    sm90::wgmma_m64n128k16<1>(acc[mb], da, db, (kt | kk) != 0);
            }
        }
        sm90::wgmma_commit();
        sm90::wgmma_wait<0>();
        __syncthreads();  // every warp's wgmma has read the stage
        if (threadIdx.x == 0 && kt + Cfg::stages < k_tiles)
            issue_stage<Cfg>(map_a, map_b, sa, sb, full, stage, kt + Cfg::stages, m0, n0);
    }
#pragma unroll
    for (int mb = 0; mb < Cfg::m_blocks; ++mb) sm90::fence_registers(acc[mb]);

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
#pragma unroll
    for (int mb = 0; mb < Cfg::m_blocks; ++mb)
#pragma unroll
        for (int j = 0; j < Cfg::bn / 8; j += tensor::acc_group_blocks)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                float2 e[4];
#pragma unroll
                for (int b = 0; b < 4; ++b)
                    e[b] =
                        make_float2(acc[mb][4 * (j + b) + 2 * h], acc[mb][4 * (j + b) + 2 * h + 1]);
                const int row =
                    m0 + mb * 64 + warp * 16 + tensor::acc_row(lane) + tensor::acc_half_rows * h;
                tensor::store_acc_group(e, p.c, p.m, p.n, row, n0 + 8 * j, p.alpha, p.beta);
            }
#else
    (void)map_a;
    (void)map_b;
    (void)p;
    __trap();
#endif
}

}  // namespace tgemm::bf16_wgmma
