#pragma once
// The epilogue store the register-epilogue kernels share (bf16_mma.cuh, bf16_wgmma.cuh and
// bf16_ws.cuh's direct epilogue): C ← α·acc + β·C for one row half of a group of
// acc_group_blocks adjacent 16×8 accumulator blocks (accumulator_layout.hpp), each lane writing
// 8 columns with one 16-byte store. The refined models count its sectors through the same layout
// functions (accumulator_requests.cpp).
#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "tensor/accumulator_layout.hpp"

namespace tgemm::tensor {

// e[b] holds, on lane q of each quad, columns 2q and 2q + 1 of block b; afterwards it holds
// columns 2b and 2b + 1 of block q. Two butterfly steps swap the low and then the high bit of
// the lane with that of the block: 4 shuffles of float pairs, no local memory.
__device__ __forceinline__ void quad_transpose(float2 (&e)[4], int lane) {
    constexpr unsigned all = 0xffffffffu;
#pragma unroll
    for (int bit = 1; bit <= 2; bit *= 2) {
        const bool high = (lane & bit) != 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            if (b & bit) continue;
            // Lane bit clear: keeps e[b], sends e[b | bit]; set: keeps e[b | bit], sends e[b].
            float2 send = high ? e[b] : e[b | bit];
            send.x = __shfl_xor_sync(all, send.x, bit);
            send.y = __shfl_xor_sync(all, send.y, bit);
            if (high)
                e[b] = send;
            else
                e[b | bit] = send;
        }
    }
}

__device__ __forceinline__ std::uint32_t pack_bf16x2(float x, float y) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
    return *reinterpret_cast<const std::uint32_t*>(&v);
}

__device__ __forceinline__ float2 unpack_bf16x2(std::uint32_t v) {
    return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&v));
}

// Every lane of the warp calls it (the shuffles); `row` is this lane's row, `col0` the group's
// first column. N is a multiple of 8 (tensor_rung.cpp), so a block lies wholly inside or outside
// C and a lane's 16 bytes are 16-byte aligned.
__device__ __forceinline__ void store_acc_group(float2 (&e)[4], __nv_bfloat16* c, int m, int n,
                                                int row, int col0, float alpha, float beta) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    quad_transpose(e, lane);
    const int col = col0 + acc_group_col(lane);
    if (row >= m || col >= n) return;
    auto* out = reinterpret_cast<uint4*>(c + static_cast<std::size_t>(row) * n + col);
    float2 v[4];
#pragma unroll
    for (int b = 0; b < 4; ++b) v[b] = make_float2(alpha * e[b].x, alpha * e[b].y);
    if (beta != 0.0f) {
        const uint4 old = *out;
        const std::uint32_t w[4] = {old.x, old.y, old.z, old.w};
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const float2 o = unpack_bf16x2(w[b]);
            v[b] = make_float2(fmaf(beta, o.x, v[b].x), fmaf(beta, o.y, v[b].y));
        }
    }
    *out = make_uint4(pack_bf16x2(v[0].x, v[0].y), pack_bf16x2(v[1].x, v[1].y),
                      pack_bf16x2(v[2].x, v[2].y), pack_bf16x2(v[3].x, v[3].y));
}

}  // namespace tgemm::tensor
