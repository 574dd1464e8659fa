#pragma once
// FP32 SGEMM for sm_90 with FFMA only (no tensor cores, no TF32): the kernel template of rung 12
// and of the tuning sweep (bench/tune_sm90_fp32.cu), which instantiates it over the named
// configurations below.
//
// Design, per CTA tile of BM×BN outputs:
// - Global → shared through cp.async (16-byte copies, L1 bypassed), STAGES tiles of BK deep in
//   flight, one barrier per tile. When M, N and K are multiples of the tile the copies carry no
//   bounds checks (path_full); otherwise edge tiles are zero-filled by the copy itself (source
//   size 0), so the inner loop has no bounds checks either.
// - A stays (m, k) in shared memory (cp.async cannot transpose) with each row padded by 16 bytes,
//   so the consecutive rows (at most 8) that a half-warp reads at one k land in different
//   16-byte bank groups. A lane reads 4 consecutive k of one row with one LDS.128; B is read
//   along n.
// - Each warp owns a WM×WN tile; each lane a TM×TN piece made of rows spaced WM/TM apart and
//   float4 column groups spaced 4·WN/TN apart. Lane bit 0 picks the column group and bit 1 the
//   row, so lanes n and n^1 read the same A address and lanes n and n^2 the same B address: every
//   LDS.128 is packed into 2 wavefronts instead of 4.
// - The epilogue reads and writes C as float4 straight from the registers.
#include <cuda_runtime.h>

#include <cstdint>

#include "tile_io.cuh"

namespace tgemm::sm90_fp32 {

[[nodiscard]] constexpr int log2_exact(int x) {
    return x <= 1 ? 0 : 1 + log2_exact(x / 2);
}
[[nodiscard]] constexpr bool power_of_two(int x) {
    return x > 0 && (x & (x - 1)) == 0;
}

// Pipe selects the main loop: 0 waits and synchronises at the top of every K tile, issues the
// copies of a later tile and then runs the (unrolled) tile; 1 moves the wait and the barrier
// into the last k step of a tile and double-buffers the fragments in registers, so the first
// fragments of the next tile are read from shared memory while the last k step's FFMAs run;
// 2 walks the tile as a rolled loop over chunks of Kc k steps (a small loop body); 3 is 2 with
// the copies spread over the chunks; 4 is 0 with the copies spread over the tile's 4-k groups.
// docs/tuning.md has what each measured on the H100: pipe 0 is the fastest.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int Stages, int MinCtasPerSm,
          int Pipe = 0, int Kc = BK>
struct tile_config {
    static constexpr int bm = BM;  // CTA tile
    static constexpr int bn = BN;
    static constexpr int bk = BK;  // K depth of one pipeline stage
    static constexpr int wm = WM;  // warp tile
    static constexpr int wn = WN;
    static constexpr int tm = TM;  // outputs per lane: TM rows × TN columns
    static constexpr int tn = TN;
    static constexpr int stages = Stages;
    static constexpr int min_ctas_per_sm = MinCtasPerSm;
    static constexpr int pipe = Pipe;
    static constexpr int kc = Kc;  // k steps per rolled chunk (pipes 2 and 3)

    static constexpr int warps = (BM / WM) * (BN / WN);
    static constexpr int threads = 32 * warps;
    static constexpr int lanes_m = WM / TM;  // lanes along M inside a warp
    static constexpr int lanes_n = WN / TN;
    static constexpr int lane_m_bits = log2_exact(lanes_m);
    static constexpr int lda = BK + 4;        // floats per row of the (m, k) tile of A, padded
    static constexpr int ldb = BN;            // floats per row of the (k, n) tile of B
    static constexpr int a_stage = BM * lda;  // floats
    static constexpr int b_stage = BK * ldb;
    static constexpr int smem_bytes = Stages * (a_stage + b_stage) * 4;
    static constexpr int a_copies = BM * BK / 4 / threads;  // 16-byte copies per thread per stage
    static constexpr int b_copies = BK * BN / 4 / threads;
    static constexpr int a_copy_rows = threads / (BK / 4);  // rows of A one pass of copies covers
    static constexpr int b_copy_rows = threads / (BN / 4);
    static constexpr int a_copies_per_chunk = a_copies / (BK / Kc);  // pipe 3
    static constexpr int b_copies_per_chunk = b_copies / (BK / Kc);

    // Where lane `lane` of warp `warp` works: its rows are warp_row0 + lane_row + i·lanes_m
    // (i < TM), its columns warp_col0 + 4·lane_col_group + j·4·lanes_n + (0..3) (j < TN/4).
    __host__ __device__ static constexpr int warp_row0(int warp) { return warp / (BN / WN) * WM; }
    __host__ __device__ static constexpr int warp_col0(int warp) { return warp % (BN / WN) * WN; }
    __host__ __device__ static constexpr int lane_row(int lane) {
        return (lane >> 1) & (lanes_m - 1);
    }
    __host__ __device__ static constexpr int lane_col_group(int lane) {
        return (lane & 1) | ((lane >> (1 + lane_m_bits)) << 1);
    }

    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must cover the CTA tile");
    static_assert(lanes_m * lanes_n == 32,
                  "a warp's 32 lanes must cover its tile: WM·WN/(TM·TN) = 32");
    static_assert(power_of_two(lanes_m) && power_of_two(lanes_n) && lanes_m >= 2 && lanes_n >= 2,
                  "the lane bit layout needs power-of-two lane counts of at least 2 per side");
    static_assert(lanes_m <= 8,
                  "more than 8 lanes along M would put two rows of a half-warp in one bank group");
    static_assert(TM >= 1 && TN % 4 == 0, "B fragments are read as float4");
    static_assert(BK % 8 == 0, "BK/4 + 1 must be odd for the padded rows of A to be conflict-free");
    static_assert(threads % (BK / 4) == 0 && BM % a_copy_rows == 0,
                  "the tile of A must split into whole passes of 16-byte copies");
    static_assert(threads % (BN / 4) == 0 && BK % b_copy_rows == 0,
                  "the tile of B must split into whole passes of 16-byte copies");
    static_assert(Stages >= 2, "cp.async pipeline needs at least two stages");
    static_assert(Pipe >= 0 && Pipe <= 4, "Pipe is 0, 1, 2, 3 or 4");
    static_assert(Kc % 4 == 0 && BK % Kc == 0, "a rolled chunk is a whole number of 4-k groups");
    static_assert(Pipe != 3 || (a_copies % (BK / Kc) == 0 && b_copies % (BK / Kc) == 0),
                  "pipe 3 spreads the copies evenly over the chunks");
    static_assert(smem_bytes <= 227 * 1024, "an sm_90 CTA gets at most 227 KB of shared memory");
};

// Named configurations: CTA tile, BK, warp tile, lane tile, stages, the CTAs per SM that the
// register budget must allow (__launch_bounds__), pipe and chunk. The rung uses `rung_config`;
// the sweep (bench/tune_sm90_fp32.cu) times up to 12 of them. The BK-deep step is unrolled (for
// BK = 64 the compiler unrolls 32 k and loops twice), so BK also sets the main loop's code size:
// 8×16 lanes run up to 32·128 FFMAs (16 bytes each) per loop body.
//
// 8 warps of 64×64, 8×16 outputs per lane, one CTA per SM (255 registers).
using cfg_128x256_k8_w64x64_t8x16_s4 = tile_config<128, 256, 8, 64, 64, 8, 16, 4, 1>;
using cfg_128x256_k16_w64x64_t8x16_s3 = tile_config<128, 256, 16, 64, 64, 8, 16, 3, 1>;
using cfg_128x256_k16_w64x64_t8x16_s4 = tile_config<128, 256, 16, 64, 64, 8, 16, 4, 1>;
using cfg_128x256_k32_w64x64_t8x16_s3 = tile_config<128, 256, 32, 64, 64, 8, 16, 3, 1>;
using cfg_256x128_k8_w64x64_t8x16_s4 = tile_config<256, 128, 8, 64, 64, 8, 16, 4, 1>;
using cfg_256x128_k16_w64x64_t8x16_s3 = tile_config<256, 128, 16, 64, 64, 8, 16, 3, 1>;
// The same lanes in 32×128 warp tiles (4 lanes along M, 8 along N): an A fragment read has 4
// distinct rows and a B fragment read 8 consecutive float4, one wavefront each.
using cfg_128x256_k16_w32x128_t8x16_s3 = tile_config<128, 256, 16, 32, 128, 8, 16, 3, 1>;
using cfg_128x256_k16_w32x128_t8x16_s4 = tile_config<128, 256, 16, 32, 128, 8, 16, 4, 1>;
using cfg_128x256_k8_w32x128_t8x16_s4 = tile_config<128, 256, 8, 32, 128, 8, 16, 4, 1>;
using cfg_128x256_k32_w32x128_t8x16_s3 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1>;
using cfg_128x256_k32_w32x128_t8x16_s4 = tile_config<128, 256, 32, 32, 128, 8, 16, 4, 1>;
using cfg_256x128_k16_w32x128_t8x16_s3 = tile_config<256, 128, 16, 32, 128, 8, 16, 3, 1>;
// 4 warps of 32×128, two CTAs per SM (each CTA's barrier stalls only half the warps).
using cfg_128x128_k16_w32x128_t8x16_s3 = tile_config<128, 128, 16, 32, 128, 8, 16, 3, 2>;
using cfg_128x128_k32_w32x128_t8x16_s3 = tile_config<128, 128, 32, 32, 128, 8, 16, 3, 2>;
// 64×64 warp tiles with 4 lanes along M and 8 along N: 16×8 outputs per lane.
using cfg_128x256_k16_w64x64_t16x8_s3 = tile_config<128, 256, 16, 64, 64, 16, 8, 3, 1>;
using cfg_128x256_k32_w64x64_t16x8_s3 = tile_config<128, 256, 32, 64, 64, 16, 8, 3, 1>;
// Pipes 2 and 3: a rolled loop over chunks of Kc k steps inside each K tile (p2cKC: copies after
// the barrier; p3cKC: copies spread over the chunks).
using cfg_128x256_k32_w32x128_t8x16_s3_p2c4 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 2, 4>;
using cfg_128x256_k32_w32x128_t8x16_s3_p2c8 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 2, 8>;
using cfg_128x256_k32_w32x128_t8x16_s3_p2c16 =
    tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 2, 16>;
using cfg_128x256_k32_w32x128_t8x16_s3_p3c8 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 3, 8>;
using cfg_128x256_k32_w32x128_t8x16_s3_p3c16 =
    tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 3, 16>;
using cfg_128x256_k32_w32x128_t8x16_s4_p3c8 = tile_config<128, 256, 32, 32, 128, 8, 16, 4, 1, 3, 8>;
using cfg_128x256_k16_w32x128_t8x16_s4_p3c8 = tile_config<128, 256, 16, 32, 128, 8, 16, 4, 1, 3, 8>;
using cfg_128x256_k64_w32x128_t8x16_s2_p3c8 = tile_config<128, 256, 64, 32, 128, 8, 16, 2, 1, 3, 8>;
using cfg_128x128_k32_w32x128_t8x16_s3_p3c8 = tile_config<128, 128, 32, 32, 128, 8, 16, 3, 2, 3, 8>;
using cfg_128x256_k32_w64x64_t16x8_s3_p3c8 = tile_config<128, 256, 32, 64, 64, 16, 8, 3, 1, 3, 8>;
// Pipe 4: pipe 0 with the next tile's copies spread over the 4-k groups of the unrolled tile.
using cfg_128x256_k32_w32x128_t8x16_s3_p4 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 4>;
using cfg_128x256_k32_w32x128_t8x16_s4_p4 = tile_config<128, 256, 32, 32, 128, 8, 16, 4, 1, 4>;
// BK = 64: two stages of 98 KB.
using cfg_128x256_k64_w32x128_t8x16_s2 = tile_config<128, 256, 64, 32, 128, 8, 16, 2, 1>;
using cfg_128x256_k64_w32x128_t8x16_s2_p4 = tile_config<128, 256, 64, 32, 128, 8, 16, 2, 1, 4>;
// Pipe 1: the barrier in the last k step, register double-buffered fragments.
using cfg_128x256_k8_w32x128_t8x16_s4_p1 = tile_config<128, 256, 8, 32, 128, 8, 16, 4, 1, 1>;
using cfg_128x256_k16_w32x128_t8x16_s3_p1 = tile_config<128, 256, 16, 32, 128, 8, 16, 3, 1, 1>;
using cfg_128x256_k16_w32x128_t8x16_s4_p1 = tile_config<128, 256, 16, 32, 128, 8, 16, 4, 1, 1>;
using cfg_128x256_k32_w32x128_t8x16_s3_p1 = tile_config<128, 256, 32, 32, 128, 8, 16, 3, 1, 1>;
using cfg_128x128_k16_w32x128_t8x16_s3_p1 = tile_config<128, 128, 16, 32, 128, 8, 16, 3, 2, 1>;
using cfg_256x128_k16_w32x128_t8x16_s3_p1 = tile_config<256, 128, 16, 32, 128, 8, 16, 3, 1, 1>;
// 4 warps of 64×64, 8×16 per lane, two CTAs per SM: the shape of cuBLAS's own FFMA kernels
// (128×128×8, 2×2 warps).
using cfg_128x128_k8_w64x64_t8x16_s3 = tile_config<128, 128, 8, 64, 64, 8, 16, 3, 2>;
using cfg_128x128_k8_w64x64_t8x16_s4 = tile_config<128, 128, 8, 64, 64, 8, 16, 4, 2>;
using cfg_128x128_k16_w64x64_t8x16_s3 = tile_config<128, 128, 16, 64, 64, 8, 16, 3, 2>;
// 8 warps of 32×64 or 64×32, 8×8 per lane (at most 128 registers), two CTAs per SM.
using cfg_128x128_k16_w64x32_t8x8_s3 = tile_config<128, 128, 16, 64, 32, 8, 8, 3, 2>;
using cfg_128x128_k16_w32x64_t8x8_s3 = tile_config<128, 128, 16, 32, 64, 8, 8, 3, 2>;

// The fastest at 4096³ and 8192³ in the final sweep of docs/tuning.md (91.4% and 91.6% of
// cuBLAS on the H100) that verifies at every size; cfg_128x256_k32_w32x128_t8x16_s3 (90.2%) is
// the runner-up.
using rung_config = cfg_128x256_k64_w32x128_t8x16_s2;

// ---------------------------------------------------------------------------------------------
namespace detail {

__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
// 16-byte copy; src_bytes 0 writes 16 zero bytes and reads nothing.
__device__ __forceinline__ void copy16(std::uint32_t dst, const void* src, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}
// 16-byte copy of a piece known to lie inside the matrix.
__device__ __forceinline__ void copy16(std::uint32_t dst, const void* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
// 4-byte copy for rows that are not 16-byte aligned; src_bytes 0 writes a zero.
__device__ __forceinline__ void copy4(std::uint32_t dst, const void* src, int src_bytes) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src),
                 "r"(src_bytes));
}
__device__ __forceinline__ void commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int Pending>
__device__ __forceinline__ void wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}
__device__ __forceinline__ float lane_of(const float4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

}  // namespace detail

// Kernel paths: scalar (4-byte copies, any shape), vec (16-byte copies, zero-filled edge tiles),
// full (16-byte copies, every tile whole: no bounds checks at all).
inline constexpr int path_scalar = 0;
inline constexpr int path_vec = 1;
inline constexpr int path_full = 2;

template <class Cfg, int Path>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_ctas_per_sm)
    sm90_fp32_kernel(int m, int n, int k, float alpha, const float* __restrict__ a,
                     const float* __restrict__ b, float beta, float* __restrict__ c) {
    constexpr int bm = Cfg::bm, bn = Cfg::bn, bk = Cfg::bk, tm = Cfg::tm, tn = Cfg::tn;
    constexpr int lda = Cfg::lda, ldb = Cfg::ldb, stages = Cfg::stages;
    constexpr bool vec = Path != path_scalar;
    extern __shared__ float4 smem[];
    float* const as = reinterpret_cast<float*>(smem);  // [stages][bm][lda]
    float* const bs = as + stages * Cfg::a_stage;      // [stages][bk][ldb]

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int m0 = blockIdx.y * bm;
    const int n0 = blockIdx.x * bn;
    const int ktiles = (k + bk - 1) / bk;

    // Copies: thread tid moves the 16-byte pieces (a_row + p·a_copy_rows, a_col) of A's tile
    // and (b_row + p·b_copy_rows, b_col) of B's tile.
    const int a_row = tid / (bk / 4);
    const int a_col = tid % (bk / 4) * 4;
    const int b_row = tid / (bn / 4);
    const int b_col = tid % (bn / 4) * 4;
    const float* const a_src = a + static_cast<std::int64_t>(m0 + a_row) * k + a_col;
    const float* const b_src = b + static_cast<std::int64_t>(b_row) * n + n0 + b_col;
    const std::uint32_t a_dst = detail::smem_address(as + a_row * lda + a_col);
    const std::uint32_t b_dst = detail::smem_address(bs + b_row * ldb + b_col);

    // Copy p (0 ≤ p < a_copies, possibly a run-time value) of A's or B's tile at K offset k0
    // into `stage`.
    const auto copy_a = [&](int p, int k0, int stage) {
        const bool row_in = m0 + a_row + p * Cfg::a_copy_rows < m;
        const float* src = a_src + static_cast<std::int64_t>(p * Cfg::a_copy_rows) * k + k0;
        const std::uint32_t dst = a_dst + 4 * (stage * Cfg::a_stage + p * Cfg::a_copy_rows * lda);
        if constexpr (Path == path_full) {
            detail::copy16(dst, src);
        } else if constexpr (Path == path_vec) {
            const bool in = row_in && k0 + a_col < k;
            detail::copy16(dst, in ? src : a, in ? 16 : 0);
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const bool in = row_in && k0 + a_col + e < k;
                detail::copy4(dst + 4 * e, in ? src + e : a, in ? 4 : 0);
            }
        }
    };
    const auto copy_b = [&](int p, int k0, int stage) {
        const int kr = k0 + p * Cfg::b_copy_rows;  // + b_row: the row of B this copy reads
        const bool row_in = kr + b_row < k;
        const float* src = b_src + static_cast<std::int64_t>(kr) * n;
        const std::uint32_t dst = b_dst + 4 * (stage * Cfg::b_stage + p * Cfg::b_copy_rows * ldb);
        if constexpr (Path == path_full) {
            detail::copy16(dst, src);
        } else if constexpr (Path == path_vec) {
            const bool in = row_in && n0 + b_col < n;
            detail::copy16(dst, in ? src : b, in ? 16 : 0);
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const bool in = row_in && n0 + b_col + e < n;
                detail::copy4(dst + 4 * e, in ? src + e : b, in ? 4 : 0);
            }
        }
    };
    const auto load_tile = [&](int kt, int stage) {
#pragma unroll
        for (int p = 0; p < Cfg::a_copies; ++p) copy_a(p, kt * bk, stage);
#pragma unroll
        for (int p = 0; p < Cfg::b_copies; ++p) copy_b(p, kt * bk, stage);
    };

    // Fragments: lane bit 0 and the bits above the row bits pick the column group, bits 1.. the
    // row (see the file comment for why).
    const int lane_m = Cfg::lane_row(lane);
    const int lane_n = Cfg::lane_col_group(lane);
    const int warp_m0 = Cfg::warp_row0(warp);
    const int warp_n0 = Cfg::warp_col0(warp);
    const float* const a_frag = as + (warp_m0 + lane_m) * lda;
    const float* const b_frag = bs + warp_n0 + lane_n * 4;

    // af[i] = A(row i, 4 consecutive k); bf[j] = B(one k, column group j).
    const auto load_a = [&](float4(&af)[tm], const float* ap, int k4) {
#pragma unroll
        for (int i = 0; i < tm; ++i)
            af[i] = *reinterpret_cast<const float4*>(ap + i * Cfg::lanes_m * lda + k4);
    };
    const auto load_b = [&](float4(&bf)[tn / 4], const float* bp, int kk) {
#pragma unroll
        for (int j = 0; j < tn / 4; ++j)
            bf[j] = *reinterpret_cast<const float4*>(bp + kk * ldb + j * Cfg::lanes_n * 4);
    };
    float acc[tm][tn] = {};
    // One k step: acc += A(:, k) ⊗ B(k, :), with A(:, k) the component kk of af.
    const auto fma_step = [&](const float4(&af)[tm], const float4(&bf)[tn / 4], int kk) {
#pragma unroll
        for (int i = 0; i < tm; ++i) {
            const float av = detail::lane_of(af[i], kk);
#pragma unroll
            for (int j = 0; j < tn / 4; ++j) {
                acc[i][4 * j + 0] = fmaf(av, bf[j].x, acc[i][4 * j + 0]);
                acc[i][4 * j + 1] = fmaf(av, bf[j].y, acc[i][4 * j + 1]);
                acc[i][4 * j + 2] = fmaf(av, bf[j].z, acc[i][4 * j + 2]);
                acc[i][4 * j + 3] = fmaf(av, bf[j].w, acc[i][4 * j + 3]);
            }
        }
    };

    if constexpr (Cfg::pipe == 0 || Cfg::pipe == 4) {
#pragma unroll
        for (int s = 0; s < stages - 1; ++s) {
            if (s < ktiles) load_tile(s, s);
            detail::commit();
        }
        int read_stage = 0;
        int write_stage = stages - 1;
        for (int kt = 0; kt < ktiles; ++kt) {
            detail::wait<stages - 2>();  // this thread's copies of tile kt have landed
            __syncthreads();             // everyone's have, and everyone is done with tile kt - 1
            const bool refill = kt + stages - 1 < ktiles;
            if constexpr (Cfg::pipe == 0) {
                if (refill) load_tile(kt + stages - 1, write_stage);
            }

            const float* ap = a_frag + read_stage * Cfg::a_stage;
            const float* bp = b_frag + read_stage * Cfg::b_stage;
#pragma unroll
            for (int k4 = 0; k4 < bk; k4 += 4) {
                if constexpr (Cfg::pipe == 4) {
                    // Pipe 4: the tile's copies (A's, then B's) spread evenly over its 4-k groups.
                    constexpr int copies = Cfg::a_copies + Cfg::b_copies;
                    constexpr int groups = bk / 4;
                    if (refill) {
#pragma unroll
                        for (int f = k4 / 4 * copies / groups; f < (k4 / 4 + 1) * copies / groups;
                             ++f) {
                            if (f < Cfg::a_copies)
                                copy_a(f, (kt + stages - 1) * bk, write_stage);
                            else
                                copy_b(f - Cfg::a_copies, (kt + stages - 1) * bk, write_stage);
                        }
                    }
                }
                float4 af[tm];
                load_a(af, ap, k4);
#pragma unroll
                for (int kk = 0; kk < 4; ++kk) {
                    float4 bf[tn / 4];
                    load_b(bf, bp, k4 + kk);
                    fma_step(af, bf, kk);
                }
            }
            detail::commit();
            read_stage = read_stage + 1 == stages ? 0 : read_stage + 1;
            write_stage = write_stage + 1 == stages ? 0 : write_stage + 1;
        }
    } else if constexpr (Cfg::pipe >= 2) {
        // The K tile is walked by a rolled loop over chunks of kc k steps, so the loop body
        // (kc·TM·TN FFMAs) stays small enough for the instruction caches. Pipe 3 also spreads the
        // tile's copies over the chunks instead of issuing them all after the barrier.
        constexpr int kc = Cfg::kc;
        constexpr int chunks = bk / kc;
#pragma unroll
        for (int s = 0; s < stages - 1; ++s) {
            if (s < ktiles) load_tile(s, s);
            detail::commit();
        }
        int read_stage = 0;
        int write_stage = stages - 1;
        for (int kt = 0; kt < ktiles; ++kt) {
            detail::wait<stages - 2>();  // this thread's copies of tile kt have landed
            __syncthreads();             // everyone's have, and everyone is done with tile kt - 1
            const bool refill = kt + stages - 1 < ktiles;
            if constexpr (Cfg::pipe == 2) {
                if (refill) load_tile(kt + stages - 1, write_stage);
            }
            const float* ap = a_frag + read_stage * Cfg::a_stage;
            const float* bp = b_frag + read_stage * Cfg::b_stage;
#pragma unroll 1
            for (int ch = 0; ch < chunks; ++ch) {
                if constexpr (Cfg::pipe == 3) {
                    if (refill) {
                        const int k0 = (kt + stages - 1) * bk;
#pragma unroll
                        for (int q = 0; q < Cfg::a_copies_per_chunk; ++q)
                            copy_a(ch * Cfg::a_copies_per_chunk + q, k0, write_stage);
#pragma unroll
                        for (int q = 0; q < Cfg::b_copies_per_chunk; ++q)
                            copy_b(ch * Cfg::b_copies_per_chunk + q, k0, write_stage);
                    }
                }
#pragma unroll
                for (int k4 = 0; k4 < kc; k4 += 4) {
                    float4 af[tm];
                    load_a(af, ap, k4);
#pragma unroll
                    for (int kk = 0; kk < 4; ++kk) {
                        float4 bf[tn / 4];
                        load_b(bf, bp, k4 + kk);
                        fma_step(af, bf, kk);
                    }
                }
                ap += kc;
                bp += kc * ldb;
            }
            detail::commit();
            read_stage = read_stage + 1 == stages ? 0 : read_stage + 1;
            write_stage = write_stage + 1 == stages ? 0 : write_stage + 1;
        }
    } else {
        // All `stages` buffers run ahead: tile kt + stages is copied into the buffer of tile kt
        // once every warp holds tile kt's last fragments in registers.
#pragma unroll
        for (int s = 0; s < stages; ++s) {
            if (s < ktiles) load_tile(s, s);
            detail::commit();
        }
        detail::wait<stages - 1>();  // tile 0
        __syncthreads();
        float4 af[tm], bf[tn / 4];  // the fragments of the current k (group)
        load_a(af, a_frag, 0);
        load_b(bf, b_frag, 0);
        int stage = 0;
        for (int kt = 0; kt < ktiles; ++kt) {
            const float* ap = a_frag + stage * Cfg::a_stage;
            const float* bp = b_frag + stage * Cfg::b_stage;
#pragma unroll
            for (int kk = 0; kk < bk; ++kk) {
                float4 an[tm], bn[tn / 4];  // the next k's fragments (an only at a group end)
                if (kk + 1 < bk) {
                    load_b(bn, bp, kk + 1);
                    if (kk % 4 == 3) load_a(an, ap, kk + 1);
                } else {
                    detail::wait<stages - 2>();  // this thread's copies of tile kt + 1
                    __syncthreads();  // everyone's, and every fragment of tile kt is read
                    if (kt + stages < ktiles) load_tile(kt + stages, stage);
                    detail::commit();
                    stage = stage + 1 == stages ? 0 : stage + 1;
                    if (kt + 1 < ktiles) {
                        load_a(an, a_frag + stage * Cfg::a_stage, 0);
                        load_b(bn, b_frag + stage * Cfg::b_stage, 0);
                    } else {
#pragma unroll
                        for (int i = 0; i < tm; ++i) an[i] = make_float4(0, 0, 0, 0);
#pragma unroll
                        for (int j = 0; j < tn / 4; ++j) bn[j] = make_float4(0, 0, 0, 0);
                    }
                }
                fma_step(af, bf, kk % 4);
#pragma unroll
                for (int j = 0; j < tn / 4; ++j) bf[j] = bn[j];
                if (kk % 4 == 3) {
#pragma unroll
                    for (int i = 0; i < tm; ++i) af[i] = an[i];
                }
            }
        }
    }
    detail::wait<0>();  // only empty groups can be pending here; leave none behind

#pragma unroll
    for (int i = 0; i < tm; ++i) {
        const int row = m0 + warp_m0 + lane_m + i * Cfg::lanes_m;
#pragma unroll
        for (int j = 0; j < tn / 4; ++j) {
            const int col = n0 + warp_n0 + j * Cfg::lanes_n * 4 + lane_n * 4;
            kernels::update4_guarded<vec>(c, m, n, row, col, alpha, beta,
                                          make_float4(acc[i][4 * j], acc[i][4 * j + 1],
                                                      acc[i][4 * j + 2], acc[i][4 * j + 3]));
        }
    }
}

// Launches C = alpha·A·B + beta·C (row-major) on `stream` with configuration Cfg; the float4
// path when every row is 16-byte aligned, the 4-byte-copy path otherwise. Does not synchronise;
// returns the first CUDA error of the set-up or the launch.
template <class Cfg>
cudaError_t launch(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                   float* c, cudaStream_t stream) {
    const bool vec = kernels::float4_rows(n, k, a, b, c);
    const bool full = vec && m % Cfg::bm == 0 && n % Cfg::bn == 0 && k % Cfg::bk == 0;
    const auto kernel = full  ? sm90_fp32_kernel<Cfg, path_full>
                        : vec ? sm90_fp32_kernel<Cfg, path_vec>
                              : sm90_fp32_kernel<Cfg, path_scalar>;
    // Above 48 KB a CTA's dynamic shared memory must be opted into; the largest carveout leaves
    // room for min_ctas_per_sm CTAs (cp.async.cg bypasses L1, so the smaller L1 costs nothing).
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::smem_bytes);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared);
    if (e != cudaSuccess) return e;
    const dim3 grid(static_cast<unsigned>((n + Cfg::bn - 1) / Cfg::bn),
                    static_cast<unsigned>((m + Cfg::bm - 1) / Cfg::bm));
    kernel<<<grid, Cfg::threads, Cfg::smem_bytes, stream>>>(m, n, k, alpha, a, b, beta, c);
    return cudaPeekAtLastError();
}

}  // namespace tgemm::sm90_fp32
