#include "cta_drift_kernels.hpp"

#include "tile32_bodies.cuh"

namespace tgemm::probe {
namespace {

namespace t32 = kernels::tile32;

// The body between two timestamps. The start is kept in shared memory, not a register: the
// rungs' 31–32 registers × 1024 threads are what admits 2 CTAs per SM, and the launch bounds
// hold the traced kernel to them.
template <tile32_body Body>
__global__ void __launch_bounds__(t32::tile* t32::tile, 2)
    traced_kernel(int m, int n, int k, float alpha, const float* a, const float* b, float beta,
                  float* c, cta_span* out) {
    __shared__ unsigned long long start;
    const bool first = threadIdx.x == 0 && threadIdx.y == 0;
    if (first) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    if constexpr (Body == tile32_body::naive)
        t32::naive_body(m, n, k, alpha, a, b, beta, c);
    else
        t32::smem_tiling_body(m, n, k, alpha, a, b, beta, c);
    __syncthreads();
    if (first) {
        unsigned long long end = 0;
        unsigned smid = 0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(end));
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        out[blockIdx.y * gridDim.x + blockIdx.x] = {static_cast<int>(smid), start, end};
    }
}

template <tile32_body Body>
void launch(const gemm_args& g, cta_span* out, cudaStream_t s) {
    const dim3 grid(static_cast<unsigned>((g.size.n + t32::tile - 1) / t32::tile),
                    static_cast<unsigned>((g.size.m + t32::tile - 1) / t32::tile));
    traced_kernel<Body><<<grid, dim3(t32::tile, t32::tile), 0, s>>>(
        static_cast<int>(g.size.m), static_cast<int>(g.size.n), static_cast<int>(g.size.k), g.alpha,
        g.a_as<float>(), g.b_as<float>(), g.beta, g.c_as<float>(), out);
}

template <tile32_body Body>
int per_sm() {
    int ctas = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, traced_kernel<Body>, t32::tile * t32::tile,
                                                  0);
    return ctas;
}

}  // namespace

int traced_tile32_ctas_per_sm(tile32_body body) {
    return body == tile32_body::naive ? per_sm<tile32_body::naive>()
                                      : per_sm<tile32_body::smem_tiling>();
}

void launch_traced_tile32(tile32_body body, const gemm_args& g, cta_span* out, cudaStream_t s) {
    if (body == tile32_body::naive)
        launch<tile32_body::naive>(g, out, s);
    else
        launch<tile32_body::smem_tiling>(g, out, s);
}

}  // namespace tgemm::probe
