#pragma once
// Guarded global loads and epilogue updates shared by the register-staged tiled rungs (09–11).
// Each rung instantiates its kernel twice: Vec = true moves four floats per instruction and
// needs every row of A, B and C to start on a 16-byte boundary; Vec = false moves the same four
// floats one guarded word at a time, so any M, N, K runs.
#include <cuda_runtime.h>

#include <cstdint>

namespace tgemm::kernels {

// Whether the float4 path may run: N and K multiples of 4 and all three matrices 16-byte
// aligned, so no float4 straddles a row end and every float4 access is aligned.
[[nodiscard]] inline bool float4_rows(std::int64_t n, std::int64_t k, const void* a, const void* b,
                                      const void* c) {
    const auto bits = reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b) |
                      reinterpret_cast<std::uintptr_t>(c);
    return n % 4 == 0 && k % 4 == 0 && bits % 16 == 0;
}

// Elements (r, c..c+3) of a rows×cols row-major matrix through the read-only path; zeros where
// they lie outside, so edge tiles are staged zero-padded. With Vec, cols % 4 == 0 makes the four
// elements all inside or all outside.
template <bool Vec>
__device__ __forceinline__ float4 load4_guarded(const float* __restrict__ p, int rows, int cols,
                                                int r, int c) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (r >= rows) return v;
    const float* src = p + static_cast<std::int64_t>(r) * cols + c;
    if constexpr (Vec) {
        if (c < cols) v = __ldg(reinterpret_cast<const float4*>(src));
    } else {
        if (c + 0 < cols) v.x = __ldg(src + 0);
        if (c + 1 < cols) v.y = __ldg(src + 1);
        if (c + 2 < cols) v.z = __ldg(src + 2);
        if (c + 3 < cols) v.w = __ldg(src + 3);
    }
    return v;
}

// C(r, c..c+3) = alpha·acc + beta·C(r, c..c+3) for the elements inside C: one FMUL and one FFMA
// per element, written with fmaf so the count does not depend on contraction.
template <bool Vec>
__device__ __forceinline__ void update4_guarded(float* __restrict__ p, int rows, int cols, int r,
                                                int c, float alpha, float beta, float4 acc) {
    if (r >= rows) return;
    float* dst = p + static_cast<std::int64_t>(r) * cols + c;
    if constexpr (Vec) {
        if (c >= cols) return;
        float4 v = *reinterpret_cast<const float4*>(dst);
        v.x = fmaf(alpha, acc.x, beta * v.x);
        v.y = fmaf(alpha, acc.y, beta * v.y);
        v.z = fmaf(alpha, acc.z, beta * v.z);
        v.w = fmaf(alpha, acc.w, beta * v.w);
        *reinterpret_cast<float4*>(dst) = v;
    } else {
        if (c + 0 < cols) dst[0] = fmaf(alpha, acc.x, beta * dst[0]);
        if (c + 1 < cols) dst[1] = fmaf(alpha, acc.y, beta * dst[1]);
        if (c + 2 < cols) dst[2] = fmaf(alpha, acc.z, beta * dst[2]);
        if (c + 3 < cols) dst[3] = fmaf(alpha, acc.w, beta * dst[3]);
    }
}

}  // namespace tgemm::kernels
