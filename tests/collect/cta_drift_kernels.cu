#include "cta_drift_kernels.hpp"

#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "04_thread_tiling.cuh"
#include "05_outer_product.cuh"
#include "06_smem_register.cuh"
#include "07_blocktiling_1d.cuh"
#include "08_blocktiling_2d.cuh"
#include "09_vectorized.cuh"
#include "10_warptiling.cuh"
#include "tile32_bodies.cuh"

namespace tgemm::probe {
namespace {

// A rung's launch as its own launcher makes it: threads and launch bounds, the block's shape and
// one CTA per TileM × TileN tile of C (blockIdx.x along N).
template <int Threads, int MinCtas, int TileM, int TileN, int BlockX, int BlockY = 1>
struct tile_launch {
    static constexpr int threads = Threads, min_ctas = MinCtas;
    static dim3 block() { return {unsigned(BlockX), unsigned(BlockY)}; }
    static dim3 grid(const shape& s) {
        return {unsigned((s.n + TileN - 1) / TileN), unsigned((s.m + TileM - 1) / TileM)};
    }
};

#define TGEMM_TRACED_BODY(call)                                                                   \
    static constexpr int depth = 0;                                                               \
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b, \
                                float beta, float* c) {                                           \
        call(m, n, k, alpha, a, b, beta, c);                                                      \
    }

// A body that takes a step hook (kernels/step_hook.cuh), K staged `Depth` deep a step.
#define TGEMM_STEPPED_BODY(call, Depth)                                                           \
    static constexpr int depth = Depth;                                                           \
    template <class Step = kernels::no_step_hook>                                                 \
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b, \
                                float beta, float* c, Step step = {}) {                           \
        call(m, n, k, alpha, a, b, beta, c, step);                                                \
    }

namespace t32 = kernels::tile32;
namespace tt = kernels::thread_tiling;
namespace op = kernels::outer_product;
namespace sr = kernels::smem_register;
namespace b1 = kernels::blocktiling_1d;
namespace b2 = kernels::blocktiling_2d;
namespace ve = kernels::vectorized;
namespace wt = kernels::warptiling;

// naive and smem_tiling have no launch bounds: their 31-32 registers admit 2 CTAs per SM, which
// the bounds hold the traced kernel to.
struct naive_rung : tile_launch<1024, 2, t32::tile, t32::tile, t32::tile, t32::tile> {
    TGEMM_TRACED_BODY(t32::naive_body)
};
struct smem_tiling_rung : tile_launch<1024, 2, t32::tile, t32::tile, t32::tile, t32::tile> {
    TGEMM_STEPPED_BODY(t32::smem_tiling_body, t32::tile)
};
struct thread_tiling_rung
    : tile_launch<tt::threads, tt::min_ctas_per_sm, tt::bm, tt::bn, tt::threads_x, tt::threads_y> {
    TGEMM_TRACED_BODY(tt::body)
};
struct outer_product_rung
    : tile_launch<op::threads, op::min_ctas_per_sm, op::bm, op::bn, op::threads_x, op::threads_y> {
    TGEMM_TRACED_BODY(op::body)
};
struct smem_register_rung
    : tile_launch<sr::threads, sr::min_ctas_per_sm, sr::l, sr::l, sr::threads> {
    TGEMM_STEPPED_BODY(sr::body, sr::s_depth)
};
struct blocktiling_1d_rung
    : tile_launch<b1::threads, b1::min_ctas_per_sm, b1::bm, b1::bn, b1::threads> {
    TGEMM_STEPPED_BODY(b1::body, b1::bk)
};
struct blocktiling_2d_rung
    : tile_launch<b2::threads, b2::min_ctas_per_sm, b2::bm, b2::bn, b2::threads> {
    TGEMM_STEPPED_BODY(b2::body, b2::bk)
};

// Rungs 09 and 10 in their float4 form, which their launchers take where rows are 16-byte
// aligned (launch_traced refuses other shapes); 2 CTAs per SM, as their registers admit.
struct vectorized_rung : tile_launch<ve::threads, 2, ve::bm, ve::bn, ve::threads> {
    TGEMM_STEPPED_BODY(ve::body<true>, ve::bk)
};
struct warptiling_rung : tile_launch<wt::threads, 2, wt::bm, wt::bn, wt::threads> {
    TGEMM_STEPPED_BODY(wt::body<true>, wt::bk)
};

#undef TGEMM_TRACED_BODY
#undef TGEMM_STEPPED_BODY

// Thread 0's hook: %globaltimer when the CTA reaches each step of K, before the step's loads. One
// store a step from one thread, outside the loads the coalescer sees merge (its own sector).
struct step_stamp {
    unsigned long long* row;  // this CTA's steps
    int depth;
    bool taker;
    __device__ __forceinline__ void operator()(int k0) const {
        if (taker) {
            unsigned long long t = 0;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            row[k0 / depth] = t;
        }
    }
};

// The body between two timestamps, taken by lane 0 of each warp: the earliest start and the
// latest end of the CTA's warps, by atomics, so the trace holds no register across the body and
// adds no barrier to it.
// With Stepped, also each step's time (step_stamp) into `steps`.
template <class Rung, bool Stepped>
__global__ void __launch_bounds__(Rung::threads, Rung::min_ctas)
    traced_kernel(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                  float* c, cta_span* out, unsigned long long* steps) {
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
    if constexpr (Stepped) {
        const int per_cta = (k + Rung::depth - 1) / Rung::depth;
        Rung::body(m, n, k, alpha, a, b, beta, c,
                   step_stamp{steps + std::size_t(cta) * per_cta, Rung::depth,
                              threadIdx.x + threadIdx.y == 0});
    } else {
        Rung::body(m, n, k, alpha, a, b, beta, c);
    }
    if (lane0) {
        unsigned long long t = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        atomicMax(&out[cta].end_ns, t);
    }
}

template <class Rung, bool Stepped = false>
void launch(const gemm_args& g, cta_span* out, unsigned long long* steps, cudaStream_t s,
            int extra_smem) {
    if (extra_smem > 0)
        cudaFuncSetAttribute(traced_kernel<Rung, Stepped>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, extra_smem);
    traced_kernel<Rung, Stepped><<<Rung::grid(g.size), Rung::block(), extra_smem, s>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>(), out, steps);
}

template <class Rung, bool Stepped = false>
int per_sm(int extra_smem) {
    if (extra_smem > 0)
        cudaFuncSetAttribute(traced_kernel<Rung, Stepped>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, extra_smem);
    int ctas = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, traced_kernel<Rung, Stepped>,
                                                  Rung::threads, extra_smem);
    return ctas;
}

template <class Rung, bool Stepped = false>
int registers() {
    cudaFuncAttributes attr{};
    cudaFuncGetAttributes(&attr, traced_kernel<Rung, Stepped>);
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
        case traced_rung::outer_product:
            return f(std::type_identity<outer_product_rung>{});
        case traced_rung::smem_register:
            return f(std::type_identity<smem_register_rung>{});
        case traced_rung::blocktiling_1d:
            return f(std::type_identity<blocktiling_1d_rung>{});
        case traced_rung::blocktiling_2d:
            return f(std::type_identity<blocktiling_2d_rung>{});
        case traced_rung::vectorized:
            return f(std::type_identity<vectorized_rung>{});
        case traced_rung::warptiling:
            break;
    }
    return f(std::type_identity<warptiling_rung>{});
}

// The traced float4 kernels of rungs 09 and 10 take only 16-byte aligned rows.
void require_float4_rows(traced_rung r, const gemm_args& g) {
    if ((r == traced_rung::vectorized || r == traced_rung::warptiling) &&
        !kernels::float4_rows(g.size.n, g.size.k, g.a, g.b, g.c))
        throw std::invalid_argument("the traced float4 kernels need 16-byte aligned rows");
}

}  // namespace

std::optional<traced_rung> traced_rung_named(const std::string& id) {
    static constexpr std::pair<const char*, traced_rung> named[] = {
        {"naive", traced_rung::naive},
        {"smem_tiling", traced_rung::smem_tiling},
        {"thread_tiling", traced_rung::thread_tiling},
        {"outer_product", traced_rung::outer_product},
        {"smem_register", traced_rung::smem_register},
        {"blocktiling_1d", traced_rung::blocktiling_1d},
        {"blocktiling_2d", traced_rung::blocktiling_2d},
        {"vectorized", traced_rung::vectorized},
        {"warptiling", traced_rung::warptiling}};
    for (const auto& [name, r] : named)
        if (id == name) return r;
    return std::nullopt;
}

int traced_ctas_per_sm(traced_rung r, int extra_smem) {
    return dispatch(r,
                    [&](auto rung) { return per_sm<typename decltype(rung)::type>(extra_smem); });
}

int traced_registers(traced_rung r) {
    return dispatch(r, [](auto rung) { return registers<typename decltype(rung)::type>(); });
}

std::size_t traced_ctas(traced_rung r, const shape& s) {
    return dispatch(r, [&](auto rung) { return ctas<typename decltype(rung)::type>(s); });
}

void launch_traced(traced_rung r, const gemm_args& g, cta_span* out, cudaStream_t s,
                   int extra_smem) {
    require_float4_rows(r, g);
    dispatch(r, [&](auto rung) {
        launch<typename decltype(rung)::type>(g, out, nullptr, s, extra_smem);
    });
}

int stepped_ctas_per_sm(traced_rung r) {
    return dispatch(r, [](auto rung) {
        using rung_t = typename decltype(rung)::type;
        if constexpr (rung_t::depth > 0) return per_sm<rung_t, true>(0);
        return 0;
    });
}

int stepped_registers(traced_rung r) {
    return dispatch(r, [](auto rung) {
        using rung_t = typename decltype(rung)::type;
        if constexpr (rung_t::depth > 0) return registers<rung_t, true>();
        return 0;
    });
}

int traced_steps(traced_rung r, const shape& s) {
    return dispatch(r, [&](auto rung) {
        constexpr int depth = decltype(rung)::type::depth;
        return depth > 0 ? int((s.k + depth - 1) / depth) : 0;
    });
}

void launch_stepped(traced_rung r, const gemm_args& g, cta_span* out, unsigned long long* steps,
                    cudaStream_t s) {
    if (traced_steps(r, g.size) == 0)
        throw std::invalid_argument("this traced rung's body takes no step hook");
    require_float4_rows(r, g);
    dispatch(r, [&](auto rung) {
        using rung_t = typename decltype(rung)::type;
        if constexpr (rung_t::depth > 0) launch<rung_t, true>(g, out, steps, s, 0);
    });
}

}  // namespace tgemm::probe
