#include "cta_drift_kernels.hpp"

#include <type_traits>

#include "04_thread_tiling.cuh"
#include "08_blocktiling_2d.cuh"
#include "tile32_bodies.cuh"

namespace tgemm::probe {
namespace {

// Each rung's body with its block, grid and launch bounds as its own launcher has them.
struct naive_rung {
    static constexpr int threads = 1024, min_ctas = 2;  // the rung's 32 registers admit 2
    static dim3 block() { return {32, 32}; }
    static dim3 grid(const shape& s) {
        return {unsigned((s.n + 31) / 32), unsigned((s.m + 31) / 32)};
    }
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
        kernels::tile32::naive_body(m, n, k, alpha, a, b, beta, c);
    }
};
struct smem_tiling_rung : naive_rung {
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
        kernels::tile32::smem_tiling_body(m, n, k, alpha, a, b, beta, c);
    }
};
struct thread_tiling_rung {
    static constexpr int threads = kernels::thread_tiling::threads,
                         min_ctas = kernels::thread_tiling::min_ctas_per_sm;
    static dim3 block() {
        return {kernels::thread_tiling::threads_x, kernels::thread_tiling::threads_y};
    }
    static dim3 grid(const shape& s) {
        constexpr int bm = kernels::thread_tiling::bm, bn = kernels::thread_tiling::bn;
        return {unsigned((s.n + bn - 1) / bn), unsigned((s.m + bm - 1) / bm)};
    }
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
        kernels::thread_tiling::body(m, n, k, alpha, a, b, beta, c);
    }
};
struct blocktiling_2d_rung {
    static constexpr int threads = kernels::blocktiling_2d::threads,
                         min_ctas = kernels::blocktiling_2d::min_ctas_per_sm;
    static dim3 block() { return {unsigned(threads)}; }
    static dim3 grid(const shape& s) {
        constexpr int bm = kernels::blocktiling_2d::bm, bn = kernels::blocktiling_2d::bn;
        return {unsigned((s.n + bn - 1) / bn), unsigned((s.m + bm - 1) / bm)};
    }
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b,
                                float beta, float* c) {
        kernels::blocktiling_2d::body(m, n, k, alpha, a, b, beta, c);
    }
};

// The body between two timestamps, taken by lane 0 of each warp: the earliest start and the
// latest end of the CTA's warps, by atomics, so the trace holds no register across the body and
// adds no barrier to it.
template <class Rung>
__global__ void __launch_bounds__(Rung::threads, Rung::min_ctas)
    traced_kernel(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                  float* c, cta_span* out) {
    const unsigned cta = blockIdx.y * gridDim.x + blockIdx.x;
    const bool lane0 = (threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0;
    if (lane0) {
        unsigned long long t = 0;
        unsigned smid = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        atomicMin(&out[cta].start_ns, t);
        out[cta].sm = static_cast<int>(smid);
    }
    Rung::body(m, n, k, alpha, a, b, beta, c);
    if (lane0) {
        unsigned long long t = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        atomicMax(&out[cta].end_ns, t);
    }
}

template <class Rung>
void launch(const gemm_args& g, cta_span* out, cudaStream_t s) {
    traced_kernel<Rung><<<Rung::grid(g.size), Rung::block(), 0, s>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>(), out);
}

template <class Rung>
int per_sm() {
    int ctas = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, traced_kernel<Rung>, Rung::threads, 0);
    return ctas;
}

template <class Rung>
int registers() {
    cudaFuncAttributes attr{};
    cudaFuncGetAttributes(&attr, traced_kernel<Rung>);
    return attr.numRegs;
}

template <class Rung>
std::size_t ctas(const shape& s) {
    const dim3 g = Rung::grid(s);
    return std::size_t(g.x) * g.y;
}

// Calls f(std::type_identity<Rung>{}) for the rung r.
template <class F>
auto dispatch(traced_rung r, F&& f) {
    switch (r) {
        case traced_rung::naive:
            return f(std::type_identity<naive_rung>{});
        case traced_rung::smem_tiling:
            return f(std::type_identity<smem_tiling_rung>{});
        case traced_rung::thread_tiling:
            return f(std::type_identity<thread_tiling_rung>{});
        case traced_rung::blocktiling_2d:
            break;
    }
    return f(std::type_identity<blocktiling_2d_rung>{});
}

}  // namespace

std::optional<traced_rung> traced_rung_named(const std::string& id) {
    if (id == "naive") return traced_rung::naive;
    if (id == "smem_tiling") return traced_rung::smem_tiling;
    if (id == "thread_tiling") return traced_rung::thread_tiling;
    if (id == "blocktiling_2d") return traced_rung::blocktiling_2d;
    return std::nullopt;
}

int traced_ctas_per_sm(traced_rung r) {
    return dispatch(r, [](auto rung) { return per_sm<typename decltype(rung)::type>(); });
}

int traced_registers(traced_rung r) {
    return dispatch(r, [](auto rung) { return registers<typename decltype(rung)::type>(); });
}

std::size_t traced_ctas(traced_rung r, const shape& s) {
    return dispatch(r, [&](auto rung) { return ctas<typename decltype(rung)::type>(s); });
}

void launch_traced(traced_rung r, const gemm_args& g, cta_span* out, cudaStream_t s) {
    dispatch(r, [&](auto rung) { launch<typename decltype(rung)::type>(g, out, s); });
}

}  // namespace tgemm::probe
