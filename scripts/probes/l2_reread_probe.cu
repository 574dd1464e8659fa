// The re-read probe of Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize (tests/collect) as a
// program of its own, so that Nsight Compute can count the same launches the tool's CUPTI pass
// counts there: for each set size (a multiple of half the L2, from the command line) a flush
// (reading 4 × the L2), a warming read of the set by one CTA on every SM, then the same read again
// in a kernel named `reread`. Count its DRAM reads with `ncu --cache-control none --clock-control
// none --kernel-name reread --metrics dram__bytes_read.sum --csv build/l2_reread_probe 0.9 1.0
// 1.1` (docs/validation/h100-cupti-vs-ncu-capacity-edge.txt, section 5).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

__global__ void read_all(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}
__global__ void reread(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}
__global__ void flush_read(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

bool ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "l2_reread_probe: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    cudaDeviceProp prop{};
    if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
    const double half = 0.5 * double(prop.l2CacheSize);
    const std::size_t flush_n = 4 * std::size_t(prop.l2CacheSize) / sizeof(float);
    const std::size_t most = std::size_t(3 * half) / sizeof(float);
    float *set = nullptr, *big = nullptr, *out = nullptr;
    if (!ok(cudaMalloc(&set, most * sizeof(float)), "cudaMalloc") ||
        !ok(cudaMalloc(&big, flush_n * sizeof(float)), "cudaMalloc") ||
        !ok(cudaMalloc(&out, sizeof(float)), "cudaMalloc"))
        return 1;
    cudaMemset(set, 0, most * sizeof(float));
    cudaMemset(big, 0, flush_n * sizeof(float));
    for (int a = 1; a < argc; ++a) {
        const double f = std::atof(argv[a]);
        const std::size_t n = std::min(most, std::size_t(f * half / sizeof(float)) / 32 * 32);
        flush_read<<<4 * prop.multiProcessorCount, 1024>>>(big, flush_n, out);
        read_all<<<prop.multiProcessorCount, 1024>>>(set, n, out);
        reread<<<prop.multiProcessorCount, 1024>>>(set, n, out);
        if (!ok(cudaDeviceSynchronize(), "a launch")) return 1;
        std::printf("set %.1f MB = %.2f x half the L2\n", double(n) * sizeof(float) / 1e6,
                    double(n) * sizeof(float) / half);
    }
    return 0;
}
