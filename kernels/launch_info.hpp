#pragma once
// A rung's launch as numbers: what one CTA is and asks of the SM. The rung file's launcher, its
// model (occupancy, tile counts), its compile-time checks and the tests read the same object, and
// the GPU test (tests/collect/launch_info_test.cpp) holds registers and shared memory to what
// cudaFuncGetAttributes reports for the compiled kernel. Host-includable: the tensor rungs'
// models (kernels/tensor/*_model.cpp) are plain C++.
#include "gpu/occupancy.hpp"

namespace tgemm::kernels {

struct launch_info {
    // CTA tile: rows and columns of C, and the depth of K that one step of the main loop covers
    // (the slice staged in shared memory; 1 for a kernel that walks K one element at a time).
    int tile_m = 0;
    int tile_n = 0;
    int tile_k = 0;
    // Warp tile and outputs per thread, where the kernel is tiled that way (0: it is not).
    int warp_m = 0;
    int warp_n = 0;
    int thread_m = 0;
    int thread_n = 0;
    int threads = 0;  // per CTA
    int stages = 1;   // K slices in flight in shared memory
    // Shared memory per CTA, static (__shared__) and dynamic together, and the dynamic part,
    // which the launcher requests at launch.
    int smem_bytes = 0;
    int dynamic_smem_bytes = 0;
    // Registers per thread as ptxas of nvcc 13.0 allocates them for sm_90a (the shipped
    // profiles' architecture; `nvcc -Xptxas -v`, or ncu's launch__registers_per_thread).
    int registers = 0;
    int cluster_size = 1;     // CTAs per thread-block cluster
    bool persistent = false;  // a grid of resident CTAs that walk the tiles
    // blockIdx.x walks the tiles down M (naive_uncoalesced) rather than across N, so the CTAs
    // consecutive in launch order share a strip of B rather than of A (the L2 fabric model).
    bool grid_x_down_m = false;
    // The __global__ function whose attributes must match (for a templated or multi-path
    // kernel, the main instantiation); set by with_kernel in the rung file.
    const void* kernel = nullptr;

    [[nodiscard]] constexpr cta_resources cta() const { return {threads, registers, smem_bytes}; }
};

// `info` with the kernel it describes. Only a .cu file can name a __global__ function.
template <class Kernel>
[[nodiscard]] launch_info with_kernel(launch_info info, Kernel* kernel) {
    info.kernel = reinterpret_cast<const void*>(kernel);
    return info;
}

}  // namespace tgemm::kernels
