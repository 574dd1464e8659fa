#pragma once
// BF16 GEMM on Hopper's wgmma with warp specialization: the kernel template of the top tensor
// rungs (16 bf16_ws, 17 bf16_cluster) and of the tuning sweep (bench/tune_bf16.cu).
//
// C (M×N, bf16) = α·A·B + β·C with A (M×K, bf16, row-major), B (K×N, bf16, row-major), FP32
// accumulators. Per CTA tile of BM×BN:
// - Warpgroup 0 is the producer. Its thread 0 issues TMA copies of A (K-major, 128-byte
//   swizzle, one BK×BM box) and B (N-major, BN/64 boxes of BK×64) into a ring of `Stages`
//   buffers, each completing on its `full` mbarrier, and waits on the stage's `empty` mbarrier
//   before reusing it. setmaxnreg hands its registers to the consumers.
// - Warpgroups 1..Consumers each own 64 rows of the tile and issue m64nBNk16 wgmma from
//   shared-memory descriptors, then release the stage.
// - Persistent: the grid holds as many CTAs (clusters) as fit at once, and each walks the tiles
//   in `Raster` order, so the producer loads the next tile while the consumers finish this one.
// - ClusterM = 2 with Multicast: two CTAs of a cluster own vertically adjacent tiles with the
//   same columns of B; each loads half of B's boxes and multicasts them to both, so B crosses
//   L2 once per pair. A consumer then releases a stage in both CTAs, since either may write it.
// - Epilogue `direct`: each consumer reads β·C and writes the result from its registers, 16
//   bytes per lane after a quad exchange (acc_store.cuh).
// - Epilogue `tma`: the producer loads C's tile into shared memory during the main loop; each
//   consumer reads it with ldmatrix, writes the result back with stmatrix and hands the tile to
//   thread 32 of warpgroup 0, which stores it with TMA while the consumers go on with the next
//   tile.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "tensor/acc_store.cuh"
#include "tensor/accumulator_layout.hpp"
#include "tensor/bf16_ws_config.hpp"
#include "tensor/sm90_ptx.cuh"
#include "tensor/wgmma_ops.cuh"
#include "tensor/ws_schedule.hpp"

namespace tgemm::bf16_ws {

struct params {
    int m = 0;
    int n = 0;
    int k = 0;
    float alpha = 1;
    float beta = 0;
    __nv_bfloat16* c = nullptr;  // the direct epilogue's destination
    // Stream-K workspace: per cluster, CTA and consumer, one partial tile of FP32 sums and a
    // flag that is 1 while the partial waits for its tile's owner (zero between launches).
    float* partials = nullptr;
    unsigned* flags = nullptr;
};

// Where everything lives in shared memory, and the walk over the tiles every role follows.
template <class Cfg>
struct shared_state {
    std::uint8_t* a;  // Stages × BM×BK
    std::uint8_t* b;  // Stages × BN/64 boxes of BK×64
    std::uint8_t* c;  // Consumers × BN/64 boxes of 64×64 (tma epilogue)
    std::uint64_t* full;
    std::uint64_t* empty;
    std::uint64_t* c_full;       // C's tile (or, with β = 0, the empty buffer) is ready
    std::uint64_t* c_empty;      // the last store has read the buffer
    std::uint64_t* store_ready;  // every consumer has written its part of the buffer

    __device__ explicit shared_state(std::uint8_t* base)
        : a(base),
          b(base + Cfg::stages * Cfg::a_stage_bytes),
          c(b + Cfg::stages * Cfg::b_stage_bytes),
          full(reinterpret_cast<std::uint64_t*>(c + Cfg::c_bytes)),
          empty(full + Cfg::stages),
          c_full(empty + Cfg::stages),
          c_empty(c_full + 1),
          store_ready(c_empty + 1) {}
};

struct tile_walk {
    int rank = 0;     // CTA rank in the cluster
    int cluster = 0;  // this CTA's cluster
    int tiles_m = 0;  // rows of cluster tiles
    int tiles_n = 0;
    tensor::ws_schedule schedule;
};

template <class Cfg>
__device__ __forceinline__ tile_walk make_walk(const params& p) {
    tile_walk w;
    w.rank = Cfg::cluster_m > 1 ? static_cast<int>(sm90::cluster_cta_rank()) : 0;
    w.cluster = static_cast<int>(blockIdx.x) / Cfg::cluster_m;
    w.tiles_m = (p.m + Cfg::bm * Cfg::cluster_m - 1) / (Cfg::bm * Cfg::cluster_m);
    w.tiles_n = (p.n + Cfg::bn - 1) / Cfg::bn;
    w.schedule = tensor::ws_schedule::make(static_cast<int>(gridDim.x) / Cfg::cluster_m,
                                           w.tiles_m * w.tiles_n, (p.k + Cfg::bk - 1) / Cfg::bk,
                                           Cfg::stream_k);
    return w;
}

// The first row and column of this CTA's part of tile t.
template <class Cfg>
__device__ __forceinline__ void tile_origin(const tile_walk& w, int t, int& m0, int& n0) {
    const tensor::tile_coord c = tensor::tile_at(Cfg::order, Cfg::group_m, w.tiles_m, w.tiles_n, t);
    m0 = (c.tm * Cfg::cluster_m + w.rank) * Cfg::bm;
    n0 = c.tn * Cfg::bn;
}

template <class Cfg>
__device__ __forceinline__ void load_c_tile(const CUtensorMap& map_c, const params& p,
                                            const shared_state<Cfg>& s, std::uint32_t& c_phase,
                                            int m0, int n0) {
    sm90::mbar_wait(s.c_empty, c_phase ^ 1);
    if (p.beta != 0.0f) {
        sm90::mbar_arrive_expect_tx(s.c_full, Cfg::c_bytes);
        for (int h = 0; h < Cfg::consumers; ++h)
            for (int j = 0; j < Cfg::b_boxes; ++j)
                sm90::tma_load_2d(s.c + (h * Cfg::b_boxes + j) * Cfg::c_box_bytes, &map_c, s.c_full,
                                  n0 + 64 * j, m0 + 64 * h);
    } else {
        sm90::mbar_arrive(s.c_full);  // nothing to load: the buffer is merely free
    }
    c_phase ^= 1;
}

template <class Cfg>
__device__ __forceinline__ void producer(const CUtensorMap& map_a, const CUtensorMap& map_b,
                                         const CUtensorMap& map_c, const params& p,
                                         const shared_state<Cfg>& s) {
    const tile_walk w = make_walk<Cfg>(p);
    constexpr int boxes_per_cta = Cfg::b_boxes / Cfg::b_loaders;
    const int loader = Cfg::multicast ? w.rank : 0;
    int stage = 0;
    std::uint32_t phase = 0;
    std::uint32_t c_phase = 0;
    for (int i = 0; i < w.schedule.units(w.cluster); ++i) {
        const tensor::work_unit u = w.schedule.unit(w.cluster, i);
        int m0 = 0, n0 = 0;
        tile_origin<Cfg>(w, u.tile, m0, n0);
        for (int kt = u.k_begin; kt < u.k_end; ++kt) {
            sm90::mbar_wait(&s.empty[stage], phase ^ 1);
            sm90::mbar_arrive_expect_tx(&s.full[stage], Cfg::a_stage_bytes + Cfg::b_stage_bytes);
            sm90::tma_load_2d(s.a + stage * Cfg::a_stage_bytes, &map_a, &s.full[stage],
                              kt * Cfg::bk, m0);
            for (int j = loader * boxes_per_cta; j < (loader + 1) * boxes_per_cta; ++j) {
                std::uint8_t* dst = s.b + stage * Cfg::b_stage_bytes + j * Cfg::b_box_bytes;
                if constexpr (Cfg::multicast)
                    sm90::tma_load_2d_multicast(
                        dst, &map_b, &s.full[stage], n0 + 64 * j, kt * Cfg::bk,
                        static_cast<std::uint16_t>((1 << Cfg::cluster_m) - 1));
                else
                    sm90::tma_load_2d(dst, &map_b, &s.full[stage], n0 + 64 * j, kt * Cfg::bk);
            }
            if (++stage == Cfg::stages) {
                stage = 0;
                phase ^= 1;
            }
            // C's tile once the first stages of this tile are on their way: it is needed only at
            // the end of the tile, and the buffer is free once the last tile's store has read it.
            if constexpr (Cfg::epi == epilogue::tma && !Cfg::own_c_loader)
                if (u.owner && kt == min(u.k_begin + Cfg::stages, u.k_end) - 1)
                    load_c_tile<Cfg>(map_c, p, s, c_phase, m0, n0);
        }
    }
}

// Calls f(m0, n0) for every tile this CTA finishes (the owner units of its schedule), in order.
template <class Cfg, class F>
__device__ __forceinline__ void for_each_finished_tile(const params& p, F&& f) {
    const tile_walk w = make_walk<Cfg>(p);
    for (int i = 0; i < w.schedule.units(w.cluster); ++i) {
        const tensor::work_unit u = w.schedule.unit(w.cluster, i);
        if (!u.owner) continue;
        int m0 = 0, n0 = 0;
        tile_origin<Cfg>(w, u.tile, m0, n0);
        f(m0, n0);
    }
}

// Loads the C tile of every tile this CTA finishes, each as soon as the last store has freed
// the buffer: waiting here does not hold up the A/B copies.
template <class Cfg>
__device__ __forceinline__ void c_loader(const CUtensorMap& map_c, const params& p,
                                         const shared_state<Cfg>& s) {
    std::uint32_t c_phase = 0;
    for_each_finished_tile<Cfg>(
        p, [&](int m0, int n0) { load_c_tile<Cfg>(map_c, p, s, c_phase, m0, n0); });
}

// Stores each finished tile with TMA once every consumer has written its part, then frees the
// buffer for the next load of C.
template <class Cfg>
__device__ __forceinline__ void storer(const CUtensorMap& map_c, const params& p,
                                       const shared_state<Cfg>& s) {
    std::uint32_t phase = 0;
    for_each_finished_tile<Cfg>(p, [&](int m0, int n0) {
        sm90::mbar_wait(s.store_ready, phase);
        phase ^= 1;
        for (int h = 0; h < Cfg::consumers; ++h)
            for (int j = 0; j < Cfg::b_boxes; ++j)
                sm90::tma_store_2d(&map_c, s.c + (h * Cfg::b_boxes + j) * Cfg::c_box_bytes,
                                   n0 + 64 * j, m0 + 64 * h);
        sm90::tma_store_commit();
        sm90::tma_store_wait_read();
        sm90::mbar_arrive(s.c_empty);
    });
    sm90::tma_store_wait_all();
}

template <class Cfg>
__device__ __forceinline__ void epilogue_direct(const float (&acc)[Cfg::bn / 2], const params& p,
                                                int row0, int n0) {
    const int lane = threadIdx.x % 32;
    const int warp = (threadIdx.x % 128) / 32;
    const int r = row0 + warp * 16 + tensor::acc_row(lane);
#pragma unroll
    for (int j = 0; j < Cfg::bn / 8; j += tensor::acc_group_blocks)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float2 e[4];
#pragma unroll
            for (int b = 0; b < 4; ++b)
                e[b] = make_float2(acc[4 * (j + b) + 2 * h], acc[4 * (j + b) + 2 * h + 1]);
            tensor::store_acc_group(e, p.c, p.m, p.n, r + tensor::acc_half_rows * h, n0 + 8 * j,
                                    p.alpha, p.beta);
        }
}

// Reads β·C from the buffer with ldmatrix, writes α·acc + β·C back with stmatrix. An 8×8 block
// of bf16 as ldmatrix hands it out (lane l: row l/4, columns 2(l%4) and +1) is exactly how the
// wgmma accumulators of that block sit in the registers.
template <class Cfg>
__device__ __forceinline__ void epilogue_tma(const float (&acc)[Cfg::bn / 2], const params& p,
                                             const shared_state<Cfg>& s, std::uint32_t& c_phase,
                                             int consumer) {
    const int lane = threadIdx.x % 32;
    const int warp = (threadIdx.x % 128) / 32;
    const std::uint32_t part =
        sm90::smem_addr(s.c) +
        static_cast<std::uint32_t>(consumer * Cfg::b_boxes * Cfg::c_box_bytes);
    // This lane's row address for the four 8×8 blocks of one ldmatrix/stmatrix .x4: rows 0-7 and
    // 8-15 of the warp's 16, column units j and j + 1.
    const int row = epilogue_row(warp, lane);
    const int unit_step = epilogue_unit_step(lane);
    const bool with_c = p.beta != 0.0f;
    sm90::mbar_wait(s.c_full, c_phase);
    c_phase ^= 1;
#pragma unroll
    for (int j = 0; j < Cfg::bn / 8; j += 2) {
        const std::uint32_t addr = c_unit_addr<Cfg>(part, row, j + unit_step);
        std::uint32_t v[4] = {0, 0, 0, 0};
        if (with_c) sm90::ldmatrix_x4(v, addr);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            // q: (block j, rows 0-7), (j, rows 8-15), (j + 1, rows 0-7), (j + 1, rows 8-15)
            const int i = 4 * (j + q / 2) + 2 * (q % 2);
            float x = p.alpha * acc[i];
            float y = p.alpha * acc[i + 1];
            if (with_c) {
                const float2 old = tensor::unpack_bf16x2(v[q]);
                x = fmaf(p.beta, old.x, x);
                y = fmaf(p.beta, old.y, y);
            }
            v[q] = tensor::pack_bf16x2(x, y);
        }
        sm90::stmatrix_x4(addr, v);
    }
    sm90::fence_proxy_async_smem();  // the TMA store reads what stmatrix wrote
    sm90::named_barrier_sync(1 + consumer, 128);
    if (threadIdx.x % 128 == 0) sm90::mbar_arrive(s.store_ready);
}

// Stream-K: a piece of a tile that its owner finishes leaves its sums in slot `slot` of the
// workspace (lane-interleaved float4s, so each warp store is 512 contiguous bytes) and raises
// the slot's flag.
template <class Cfg>
__device__ __forceinline__ void leave_partial(const float (&acc)[Cfg::bn / 2], const params& p,
                                              int slot, int consumer) {
    const int t = threadIdx.x % 128;
    auto* dst = reinterpret_cast<float4*>(p.partials +
                                          static_cast<std::size_t>(slot) * Cfg::partial_floats);
#pragma unroll
    for (int v = 0; v < Cfg::bn / 8; ++v)
        dst[v * 128 + t] = make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
    __threadfence();
    sm90::named_barrier_sync(1 + consumer, 128);
    if (t == 0) sm90::flag_release(p.flags + slot, 1);
}

// The owner of a split tile waits for a contributor's flag, adds its sums and lowers the flag.
template <class Cfg>
__device__ __forceinline__ void add_partial(float (&acc)[Cfg::bn / 2], const params& p, int slot,
                                            int consumer) {
    const int t = threadIdx.x % 128;
    if (t == 0)
        while (sm90::flag_acquire(p.flags + slot) == 0) {
        }
    sm90::named_barrier_sync(1 + consumer, 128);
    const auto* src = reinterpret_cast<const float4*>(p.partials + static_cast<std::size_t>(slot) *
                                                                       Cfg::partial_floats);
#pragma unroll
    for (int v = 0; v < Cfg::bn / 8; ++v) {
        const float4 x = __ldcg(src + v * 128 + t);  // from L2: the writer was another SM
        acc[4 * v] += x.x;
        acc[4 * v + 1] += x.y;
        acc[4 * v + 2] += x.z;
        acc[4 * v + 3] += x.w;
    }
    if (t == 0) sm90::flag_release(p.flags + slot, 0);
}

template <class Cfg>
__device__ __forceinline__ void release(std::uint64_t* empty) {
    if constexpr (Cfg::multicast) {
        // Thread i of the warpgroup arrives at CTA i: the arrivals go out in parallel.
        const int t = threadIdx.x % 128;
        if (t < Cfg::cluster_m) sm90::mbar_arrive_cluster(empty, static_cast<std::uint32_t>(t));
    } else {
        if (threadIdx.x % 128 == 0) sm90::mbar_arrive(empty);
    }
}

template <class Cfg>
__device__ __forceinline__ void consumer(const params& p, const shared_state<Cfg>& s, int index) {
    const tile_walk w = make_walk<Cfg>(p);
    const std::uint32_t a_base = sm90::smem_addr(s.a) + index * 64 * 128;
    const std::uint32_t b_base = sm90::smem_addr(s.b);
    int stage = 0;
    std::uint32_t phase = 0;
    std::uint32_t c_phase = 0;
    float acc[Cfg::bn / 2];
    for (int i = 0; i < w.schedule.units(w.cluster); ++i) {
        const tensor::work_unit u = w.schedule.unit(w.cluster, i);
        int m0 = 0, n0 = 0;
        tile_origin<Cfg>(w, u.tile, m0, n0);
        int previous = -1;
        for (int kt = u.k_begin; kt < u.k_end; ++kt) {
            sm90::mbar_wait(&s.full[stage], phase);
            sm90::wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < Cfg::bk / 16; ++kk) {
                // A: 16 columns further along the swizzled 128-byte rows. B: 16 rows further down
                // its BK×64 boxes, which lie b_box_bytes apart along N.
                const auto da =
                    sm90::sw128_desc(a_base + stage * Cfg::a_stage_bytes + 32 * kk, 16, 1024);
                const auto db = sm90::sw128_desc(
                    b_base + stage * Cfg::b_stage_bytes + kk * 16 * 128, Cfg::b_box_bytes, 1024);
                if constexpr (Cfg::bn == 256)
                    sm90::wgmma_m64n256k16<1>(acc, da, db, (kt != u.k_begin) | kk);
                else
                    sm90::wgmma_m64n128k16<1>(acc, da, db, (kt != u.k_begin) | kk);
            }
            sm90::wgmma_commit();
            if constexpr (Cfg::wait_depth == 0) {
                sm90::wgmma_wait<0>();
                release<Cfg>(&s.empty[stage]);
            } else {
                // Keep this stage's wgmma in flight; the previous stage's are done.
                sm90::wgmma_wait<1>();
                if (previous >= 0) release<Cfg>(&s.empty[previous]);
                previous = stage;
            }
            if (++stage == Cfg::stages) {
                stage = 0;
                phase ^= 1;
            }
        }
        if constexpr (Cfg::wait_depth != 0) {
            sm90::wgmma_wait<0>();
            if (previous >= 0) release<Cfg>(&s.empty[previous]);
        }
        sm90::fence_registers(acc);
        const int slot = (w.cluster * Cfg::cluster_m + w.rank) * Cfg::consumers + index;
        if (!u.owner) {
            leave_partial<Cfg>(acc, p, slot, index);
            continue;
        }
        for (int cc = u.contributors_first; cc < u.contributors_last; ++cc)
            add_partial<Cfg>(acc, p, (cc * Cfg::cluster_m + w.rank) * Cfg::consumers + index,
                             index);
        if constexpr (Cfg::epi == epilogue::tma)
            epilogue_tma<Cfg>(acc, p, s, c_phase, index);
        else
            epilogue_direct<Cfg>(acc, p, m0 + 64 * index, n0);
    }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, 1)
    bf16_ws_kernel(const __grid_constant__ CUtensorMap map_a,
                   const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, const params p) {
#if TGEMM_SM90A
    extern __shared__ __align__(1024) std::uint8_t smem_raw[];
    // The runtime aligns dynamic shared memory to 16 bytes only.
    const shared_state<Cfg> s(reinterpret_cast<std::uint8_t*>(
        (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023)));
    if (threadIdx.x == 0) {
        sm90::prefetch_tensor_map(&map_a);
        sm90::prefetch_tensor_map(&map_b);
        if constexpr (Cfg::epi == epilogue::tma) sm90::prefetch_tensor_map(&map_c);
        for (int i = 0; i < Cfg::stages; ++i) {
            sm90::mbar_init(&s.full[i], 1);
            sm90::mbar_init(&s.empty[i], Cfg::consumers * Cfg::b_loaders);
        }
        sm90::mbar_init(s.c_full, 1);
        sm90::mbar_init(s.c_empty, 1);
        sm90::mbar_init(s.store_ready, Cfg::consumers);
        sm90::fence_barrier_init();
    }
    if constexpr (Cfg::cluster_m > 1)
        sm90::cluster_sync();
    else
        __syncthreads();

    const int warpgroup = threadIdx.x / 128;
    if (warpgroup == 0) {
        sm90::setmaxnreg_dec<Cfg::producer_registers>();
        if (threadIdx.x == 0) producer<Cfg>(map_a, map_b, map_c, p, s);
        if constexpr (Cfg::epi == epilogue::tma) {
            if (threadIdx.x == 32) storer<Cfg>(map_c, p, s);
            if (Cfg::own_c_loader && threadIdx.x == 64) c_loader<Cfg>(map_c, p, s);
        }
    } else {
        sm90::setmaxnreg_inc<Cfg::consumer_registers>();
        consumer<Cfg>(p, s, warpgroup - 1);
    }
    // No CTA may leave while its peer can still multicast into it or arrive on its barriers.
    if constexpr (Cfg::cluster_m > 1) sm90::cluster_sync();
#else
    (void)map_a;
    (void)map_b;
    (void)map_c;
    (void)p;
    __trap();
#endif
}

}  // namespace tgemm::bf16_ws
