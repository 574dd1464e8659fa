// tgemm-l2-flush-probe: the DRAM writes of a read-only kernel after each L2 preparation, with
// 40 MB of dirty lines left in L2 before it. Run under Nsight Compute, which measures only the
// probe kernel and leaves the caches alone:
//   ncu --clock-control none --cache-control none -k regex:probe_readonly \
//       --metrics dram__bytes_write.sum,dram__bytes_read.sum build/bench/tgemm-l2-flush-probe
// The i-th result belongs to the i-th "mode" line. docs/measurement.md has the H100's numbers.
#include <cstdio>
#include <cstdlib>
#include <string>
__global__ void tgemm_aux_write(float4* p, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        p[i] = make_float4(1, 2, 3, 4);
}
__global__ void tgemm_aux_read(const float4* p, size_t n, unsigned* sink) {
    unsigned a = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x) {
        float4 v = __ldcg(p + i);
        a ^= __float_as_uint(v.x) ^ __float_as_uint(v.w);
    }
    if (a == 0x9e3779b9u) *sink = a;
}
__global__ void probe_readonly(const float4* p, size_t n, unsigned* sink) {
    unsigned a = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x) {
        float4 v = p[i];
        a ^= __float_as_uint(v.x);
    }
    if (a == 0x9e3779b9u) *sink = a;
}
int main(int argc, char** argv) {
    int l2;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    size_t big = size_t(5) * l2;
    float4 *scratch, *dirty, *data;
    unsigned* sink;
    cudaMalloc(&scratch, big);
    cudaMalloc(&dirty, 40 << 20);
    cudaMalloc(&data, 64 << 20);
    cudaMalloc(&sink, 4);
    cudaMemset(scratch, 0, big);
    cudaMemset(data, 0, 64 << 20);
    const char* modes[] = {"none", "write3x", "read3x", "read4x", "read5x", "memcpy64_then_read4x"};
    for (auto m : modes) {
        std::string s(m);
        tgemm_aux_write<<<1024, 256>>>(dirty, (40 << 20) / 16);  // 40 MB dirty
        if (s == "write3x") tgemm_aux_write<<<1024, 256>>>(scratch, size_t(3) * l2 / 16);
        if (s == "read3x") tgemm_aux_read<<<1024, 256>>>(scratch, size_t(3) * l2 / 16, sink);
        if (s == "read4x") tgemm_aux_read<<<1024, 256>>>(scratch, size_t(4) * l2 / 16, sink);
        if (s == "read5x") tgemm_aux_read<<<1024, 256>>>(scratch, size_t(5) * l2 / 16, sink);
        if (s == "memcpy64_then_read4x") {
            cudaMemcpyAsync(data, dirty, 40 << 20, cudaMemcpyDeviceToDevice);
            tgemm_aux_read<<<1024, 256>>>(scratch, size_t(4) * l2 / 16, sink);
        }
        cudaDeviceSynchronize();
        printf("mode %s\n", m);
        fflush(stdout);
        probe_readonly<<<1024, 256>>>(data, (64 << 20) / 16, sink);
        cudaDeviceSynchronize();
    }
    printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
}
