#pragma once
// Hopper PTX the tensor-core rungs share: mbarriers, the bulk tensor copy engine (TMA), wgmma
// fences and shared-memory descriptors, register reallocation and thread-block clusters.
//
// Everything here needs sm_90 (TMA, mbarrier transactions, clusters) or sm_90a (wgmma,
// setmaxnreg). In a pass for another architecture the bodies compile to a trap, so one source
// builds for every CMAKE_CUDA_ARCHITECTURES; the rungs' can_run keeps such code from launching.
#include <cuda_runtime.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TGEMM_SM90 1
#else
#define TGEMM_SM90 0
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TGEMM_SM90A 1
#else
#define TGEMM_SM90A 0
#endif

namespace tgemm::sm90 {

[[nodiscard]] __device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------------------------------------
// mbarriers. A phase completes when its pending arrivals reach zero and its transaction count
// (bytes announced with expect_tx, credited by TMA as they land) is back to zero.

__device__ __forceinline__ void mbar_init(std::uint64_t* bar, std::uint32_t arrivals) {
#if TGEMM_SM90
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(arrivals));
#endif
}

// Makes the initialised barriers visible to the async proxy and to the other CTAs of a cluster.
__device__ __forceinline__ void fence_barrier_init() {
#if TGEMM_SM90
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
#if TGEMM_SM90
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
#endif
}

__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
#if TGEMM_SM90
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
#endif
}

// Arrives on the barrier at the same shared-memory offset in CTA `cta` of this cluster. The
// arrive keeps its default release at CTA scope: a .release.cluster arrive orders all of the
// thread's earlier memory operations cluster-wide first, and measured on the H100 that made the
// 2-CTA kernel 2.4 times slower (docs/tuning.md). What the arrive announces (the wgmma that read
// the stage have completed) is already ordered by wgmma.wait_group.
__device__ __forceinline__ void mbar_arrive_cluster(std::uint64_t* bar, std::uint32_t cta) {
#if TGEMM_SM90
    asm volatile(
        "{\n.reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(smem_addr(bar)),
        "r"(cta)
        : "memory");
#endif
}

// Waits until the phase of parity `parity` has completed. try_wait may suspend the thread for
// a while instead of spinning.
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, std::uint32_t parity) {
#if TGEMM_SM90
    std::uint32_t done = 0;
    do {
        asm volatile(
            "{\n.reg .pred p;\n"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(smem_addr(bar)), "r"(parity)
            : "memory");
    } while (!done);
#endif
}

// ---------------------------------------------------------------------------------------------
// TMA: 2D tiles between global memory (described by a CUtensorMap passed as a __grid_constant__
// kernel parameter) and shared memory. Coordinates are {inner (contiguous), outer}; elements
// outside the tensor read as zero and are not written.

// Fetches a tensor map (a __grid_constant__ kernel parameter) into the TMA unit's descriptor
// cache ahead of its first copy.
__device__ __forceinline__ void prefetch_tensor_map(const void* tmap) {
#if TGEMM_SM90
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(tmap))
                 : "memory");
#endif
}

__device__ __forceinline__ void tma_load_2d(void* dst, const void* tmap, std::uint64_t* bar,
                                            int inner, int outer) {
#if TGEMM_SM90
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_addr(dst)),
        "l"(reinterpret_cast<std::uint64_t>(tmap)), "r"(smem_addr(bar)), "r"(inner), "r"(outer)
        : "memory");
#endif
}

// The same tile lands at the same shared-memory offset in every CTA of `cta_mask` (bit i = CTA
// rank i of the cluster) and credits the barrier at the same offset in each of them.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const void* tmap,
                                                      std::uint64_t* bar, int inner, int outer,
                                                      std::uint16_t cta_mask) {
#if TGEMM_SM90
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_addr(dst)),
        "l"(reinterpret_cast<std::uint64_t>(tmap)), "r"(smem_addr(bar)), "r"(inner), "r"(outer),
        "h"(cta_mask)
        : "memory");
#endif
}

__device__ __forceinline__ void tma_store_2d(const void* tmap, const void* src, int inner,
                                             int outer) {
#if TGEMM_SM90
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
            reinterpret_cast<std::uint64_t>(tmap)),
        "r"(smem_addr(src)), "r"(inner), "r"(outer)
        : "memory");
#endif
}

__device__ __forceinline__ void tma_store_commit() {
#if TGEMM_SM90
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

// Waits until every committed store has finished reading its shared-memory source.
__device__ __forceinline__ void tma_store_wait_read() {
#if TGEMM_SM90
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}

// Waits until every committed store is complete in global memory.
__device__ __forceinline__ void tma_store_wait_all() {
#if TGEMM_SM90
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

// Orders this thread's ordinary shared-memory writes before later reads by the async proxy
// (a TMA store of the tile it wrote).
__device__ __forceinline__ void fence_proxy_async_smem() {
#if TGEMM_SM90
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// ---------------------------------------------------------------------------------------------
// wgmma bookkeeping (sm_90a).

__device__ __forceinline__ void wgmma_fence() {
#if TGEMM_SM90A
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

__device__ __forceinline__ void wgmma_commit() {
#if TGEMM_SM90A
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
#if TGEMM_SM90A
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
#endif
}

// Keeps the compiler from moving accumulator reads or writes across an asynchronous wgmma.
template <int N>
__device__ __forceinline__ void fence_registers(float (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// Shared-memory matrix descriptor for a 128-byte-swizzled operand (the layout TMA writes with
// CU_TENSOR_MAP_SWIZZLE_128B). For a K-major operand `stride_bytes` is the distance between
// groups of 8 rows (1024 for 128-byte rows) and `leading_bytes` is unused; for an MN-major
// operand `leading_bytes` is the distance between 64-element chunks along M or N and
// `stride_bytes` the distance between groups of 8 rows along K (PTX ISA, "Matrix Descriptor
// Format"; the canonical layouts of CUTLASS's make_gmma_desc).
[[nodiscard]] __device__ __forceinline__ std::uint64_t sw128_desc(std::uint32_t smem_byte_addr,
                                                                  std::uint32_t leading_bytes,
                                                                  std::uint32_t stride_bytes) {
    std::uint64_t d = 0;
    d |= static_cast<std::uint64_t>((smem_byte_addr & 0x3FFFF) >> 4);
    d |= static_cast<std::uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16;
    d |= static_cast<std::uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32;
    d |= std::uint64_t(1) << 62;  // 128-byte swizzle
    return d;
}

// ---------------------------------------------------------------------------------------------
// 8×8 blocks of 16-bit elements between shared memory and registers, four blocks at a time:
// lanes 8i..8i+7 give the row addresses of block i, and lane l receives row l/4, elements
// 2(l%4) and 2(l%4)+1 of each block (the layout of an mma/wgmma accumulator block).

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
#if TGEMM_SM90
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
#endif
}

__device__ __forceinline__ void stmatrix_x4(std::uint32_t addr, const std::uint32_t (&r)[4]) {
#if TGEMM_SM90
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
#endif
}

// ---------------------------------------------------------------------------------------------
// Registers and clusters.

template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
#if TGEMM_SM90A
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Registers));
#endif
}

template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
#if TGEMM_SM90A
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Registers));
#endif
}

[[nodiscard]] __device__ __forceinline__ std::uint32_t cluster_cta_rank() {
    std::uint32_t r = 0;
#if TGEMM_SM90
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
    return r;
}

// Every thread of every CTA of the cluster arrives, then waits for all of them.
__device__ __forceinline__ void cluster_sync() {
#if TGEMM_SM90
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
#endif
}

// A flag in global memory between CTAs: the release orders the writer's earlier stores (made
// visible device-wide by __threadfence) before the flag, the acquire the reader's later loads
// after it.
__device__ __forceinline__ void flag_release(unsigned* flag, unsigned value) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

[[nodiscard]] __device__ __forceinline__ unsigned flag_acquire(const unsigned* flag) {
    unsigned v = 0;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

// A barrier among `threads` threads of the CTA (a warpgroup), apart from __syncthreads' id 0.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace tgemm::sm90
