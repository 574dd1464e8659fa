#include "probe_kernels.hpp"

namespace tgemm::probe {

namespace {

__global__ void spin_kernel(long long cycles, int* sink) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 12345) *sink = 1;
}

__global__ void touch_kernel(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

// Each thread writes its floats once: whole 32-byte sectors, each written by one SM.
__global__ void store_kernel(float* p, std::size_t n) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = 1.0f;
}

// Every CTA reads all n floats: each line is read by SMs on both L2 partitions.
__global__ void read_all_kernel(const float* p, std::size_t n, float* out) {
    float acc = 0;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];
    if (acc == 1.2345e-30f) *out = acc;
}

}  // namespace

void store(float* p, std::size_t n, cudaStream_t s) {
    store_kernel<<<1024, 256, 0, s>>>(p, n);
}
void read_by_every_sm(const float* p, std::size_t n, float* out, int sms, cudaStream_t s) {
    read_all_kernel<<<sms, 1024, 0, s>>>(p, n, out);
}
void spin(long long cycles, int* sink, cudaStream_t s) {
    spin_kernel<<<132, 32, 0, s>>>(cycles, sink);
}
void touch(const float* p, std::size_t n, float* out, cudaStream_t s) {
    touch_kernel<<<1024, 256, 0, s>>>(p, n, out);
}

}  // namespace tgemm::probe
