#include "cta_drift_kernels.hpp"

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
    __device__ static void body(int m, int n, int k, float alpha, const float* a, const float* b, \
                                float beta, float* c) {                                           \
        call(m, n, k, alpha, a, b, beta, c);                                                      \
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
    TGEMM_TRACED_BODY(t32::smem_tiling_body)
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
    TGEMM_TRACED_BODY(sr::body)
};
struct blocktiling_1d_rung
    : tile_launch<b1::threads, b1::min_ctas_per_sm, b1::bm, b1::bn, b1::threads> {
    TGEMM_TRACED_BODY(b1::body)
};
struct blocktiling_2d_rung
    : tile_launch<b2::threads, b2::min_ctas_per_sm, b2::bm, b2::bn, b2::threads> {
    TGEMM_TRACED_BODY(b2::body)
};

// Rungs 09 and 10 in their float4 form, which their launchers take where rows are 16-byte
// aligned (launch_traced refuses other shapes); 2 CTAs per SM, as their registers admit.
struct vectorized_rung : tile_launch<ve::threads, 2, ve::bm, ve::bn, ve::threads> {
    TGEMM_TRACED_BODY(ve::body<true>)
};
struct warptiling_rung : tile_launch<wt::threads, 2, wt::bm, wt::bn, wt::threads> {
    TGEMM_TRACED_BODY(wt::body<true>)
};

#undef TGEMM_TRACED_BODY

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
void launch(const gemm_args& g, cta_span* out, cudaStream_t s, int extra_smem) {
    if (extra_smem > 0)
        cudaFuncSetAttribute(traced_kernel<Rung>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             extra_smem);
    traced_kernel<Rung><<<Rung::grid(g.size), Rung::block(), extra_smem, s>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>(), out);
}

template <class Rung>
int per_sm(int extra_smem) {
    if (extra_smem > 0)
        cudaFuncSetAttribute(traced_kernel<Rung>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             extra_smem);
    int ctas = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, traced_kernel<Rung>, Rung::threads,
                                                  extra_smem);
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
    return dispatch(
        r, [&](auto rung) { return per_sm<typename decltype(rung)::type>(extra_smem); });
}

int traced_registers(traced_rung r) {
    return dispatch(r, [](auto rung) { return registers<typename decltype(rung)::type>(); });
}

std::size_t traced_ctas(traced_rung r, const shape& s) {
    return dispatch(r, [&](auto rung) { return ctas<typename decltype(rung)::type>(s); });
}

void launch_traced(traced_rung r, const gemm_args& g, cta_span* out, cudaStream_t s,
                   int extra_smem) {
    if ((r == traced_rung::vectorized || r == traced_rung::warptiling) &&
        !kernels::float4_rows(g.size.n, g.size.k, g.a, g.b, g.c))
        throw std::invalid_argument("the traced float4 kernels need 16-byte aligned rows");
    dispatch(r,
             [&](auto rung) { launch<typename decltype(rung)::type>(g, out, s, extra_smem); });
}

}  // namespace tgemm::probe
