#pragma once
// BF16 GEMM with mma.sync.m16n8k16 fed by ldmatrix from XOR-swizzled shared memory, filled by a
// cp.async pipeline of `Stages` K tiles (rung 14, bf16_mma; seed 003's ldmatrix and swizzling
// notes). Runs on sm_80 and later.
//
// Per CTA a BM×BN tile, 4 warps in a 2×2 grid, each a (BM/2)×(BN/2) warp tile of m16n8 blocks.
// Shared memory, per stage:
// - A as BM rows of BK = 32 bf16 (64 bytes: four 16-byte chunks); chunk c of row r is stored at
//   chunk c ^ ((r / 2) mod 4). ldmatrix reads 8 rows of one chunk per phase; rows 64 bytes apart
//   would meet in two bank groups (4-way conflicts), the XOR spreads them over all eight.
// - B as BK rows of BN bf16 (BN/8 chunks); chunk c of row r is stored at c ^ (r mod 8).
//   ldmatrix.trans reads 8 consecutive k rows of one chunk per phase; rows BN·2 bytes apart
//   would all meet in one bank group (8-way), the XOR gives each its own.
// The XOR lives in one __host__ __device__ function per operand (bf16_mma_config.hpp), which the
// model's bank-conflict count calls too.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "tensor/acc_store.cuh"
#include "tensor/accumulator_layout.hpp"
#include "tensor/bf16_mma_config.hpp"
#include "tensor/problem.hpp"

namespace tgemm::bf16_mma {

// The kernel reads the problem as the launchers hold it: all three operands through pointers.
using params = tensor::problem;

__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // A source size of 0 fills the 16 bytes with zeros and reads nothing.
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
                 "r"(valid ? 16 : 0)
                 : "memory");
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

template <class Cfg>
__device__ __forceinline__ void load_stage(const params& p, std::uint32_t sa, std::uint32_t sb,
                                           int m0, int n0, int k0) {
    const int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < Cfg::a_copies; ++i) {
        const int idx = tid + i * Cfg::threads;
        const int row = idx / Cfg::a_chunks;
        const int chunk = idx % Cfg::a_chunks;
        const int gr = m0 + row;
        const int gk = k0 + chunk * 8;
        const bool ok = gr < p.m && gk < p.k;  // K is a multiple of 8: whole chunks
        const auto* src = ok ? p.a + static_cast<std::size_t>(gr) * p.k + gk : p.a;
        cp_async_16(sa + a_chunk_offset(row, chunk), src, ok);
    }
#pragma unroll
    for (int i = 0; i < Cfg::b_copies; ++i) {
        const int idx = tid + i * Cfg::threads;
        const int row = idx / Cfg::b_chunks;
        const int chunk = idx % Cfg::b_chunks;
        const int gk = k0 + row;
        const int gn = n0 + chunk * 8;
        const bool ok = gk < p.k && gn < p.n;
        const auto* src = ok ? p.b + static_cast<std::size_t>(gk) * p.n + gn : p.b;
        cp_async_16(sb + b_chunk_offset(row, chunk, Cfg::bn), src, ok);
    }
}

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
#endif
}

__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
#endif
}

__device__ __forceinline__ void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                         std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads) bf16_mma_kernel(const params p) {
    extern __shared__ __align__(128) std::uint8_t smem[];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const int wm0 = Cfg::warp_m0(warp);
    const int wn0 = Cfg::warp_n0(warp);
    const int m0 = blockIdx.y * Cfg::bm;
    const int n0 = blockIdx.x * Cfg::bn;
    const int k_tiles = (p.k + Cfg::bk - 1) / Cfg::bk;
    const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
    const auto sa = [&](int s) { return base + s * Cfg::a_stage_bytes; };
    const auto sb = [&](int s) {
        return base + Cfg::stages * Cfg::a_stage_bytes + s * Cfg::b_stage_bytes;
    };

#pragma unroll
    for (int s = 0; s < Cfg::stages - 1; ++s) {
        if (s < k_tiles) load_stage<Cfg>(p, sa(s), sb(s), m0, n0, s * Cfg::bk);
        cp_async_commit();
    }

    float acc[Cfg::m16][Cfg::n8][4] = {};
    for (int kt = 0; kt < k_tiles; ++kt) {
        cp_async_wait<Cfg::stages - 2>();
        __syncthreads();  // tile kt is in; every warp is done with tile kt - 1's stage
        const int next = kt + Cfg::stages - 1;
        if (next < k_tiles)
            load_stage<Cfg>(p, sa(next % Cfg::stages), sb(next % Cfg::stages), m0, n0,
                            next * Cfg::bk);
        cp_async_commit();
        const std::uint32_t a_s = sa(kt % Cfg::stages);
        const std::uint32_t b_s = sb(kt % Cfg::stages);
#pragma unroll
        for (int kk = 0; kk < Cfg::bk / 16; ++kk) {
            std::uint32_t af[Cfg::m16][4];
#pragma unroll
            for (int i = 0; i < Cfg::m16; ++i)
                ldmatrix_x4(af[i], a_s + a_ldsm_offset(wm0, i, kk, lane));
            std::uint32_t bf[Cfg::n8 / 2][4];
#pragma unroll
            for (int j = 0; j < Cfg::n8 / 2; ++j)
                ldmatrix_x4_trans(bf[j], b_s + b_ldsm_offset(wn0, j, kk, lane, Cfg::bn));
#pragma unroll
            for (int i = 0; i < Cfg::m16; ++i)
#pragma unroll
                for (int j = 0; j < Cfg::n8; ++j)
                    mma_bf16(acc[i][j], af[i], bf[j / 2][2 * (j % 2)], bf[j / 2][2 * (j % 2) + 1]);
        }
    }
    cp_async_wait<0>();

    static_assert(Cfg::n8 % tensor::acc_group_blocks == 0, "whole store groups per warp tile");
#pragma unroll
    for (int i = 0; i < Cfg::m16; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::n8; j += tensor::acc_group_blocks)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                float2 e[4];
#pragma unroll
                for (int b = 0; b < 4; ++b)
                    e[b] = make_float2(acc[i][j + b][2 * h], acc[i][j + b][2 * h + 1]);
                const int row =
                    m0 + wm0 + 16 * i + tensor::acc_row(lane) + tensor::acc_half_rows * h;
                tensor::store_acc_group(e, p.c, p.m, p.n, row, n0 + wn0 + 8 * j, p.alpha, p.beta);
            }
}

}  // namespace tgemm::bf16_mma
