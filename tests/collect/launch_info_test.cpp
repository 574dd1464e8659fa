// The rungs' launches as data (kernels/launch_info.hpp) against the compiled kernels: the
// registers and shared memory every model and the docs use must be what the build's sm_90a code
// asks of the SM. Needs a compute capability 9.0 GPU: the registers are typed for sm_90a, and
// cudaFuncGetAttributes reports the code the device runs.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <iostream>

#include "require_gpu.hpp"
#include "rung.hpp"

using namespace tgemm;

// For every rung with a kernel of its own: numRegs equals config->registers, and the static
// shared memory (sharedSizeBytes) plus the dynamic bytes the launcher requests equals
// config->smem_bytes. Each mismatch names the rung and both numbers; every rung's pair is
// printed, so one run is enough to correct the constants.
TEST(LaunchInfo, RegistersAndSharedMemoryAreTheCompiledKernels) {
    REQUIRE_GPU(dev);
    if (dev->info.cc != "9.0")
        GTEST_SKIP() << "the registers are typed for sm_90a; this GPU is compute capability "
                     << dev->info.cc;
    cudaSetDevice(dev->index);
    int checked = 0;
    for (const auto* r : rung_registry::get().all()) {
        if (!r->config || !r->config->kernel) continue;
        const auto& c = *r->config;
        cudaFuncAttributes a{};
        const auto e = cudaFuncGetAttributes(&a, c.kernel);
        ASSERT_EQ(e, cudaSuccess) << r->id << ": cudaFuncGetAttributes: " << cudaGetErrorString(e);
        const auto shared = static_cast<long long>(a.sharedSizeBytes) + c.dynamic_smem_bytes;
        std::cout << r->id << ": registers " << c.registers << " typed, " << a.numRegs
                  << " compiled; shared " << c.smem_bytes << " typed, " << a.sharedSizeBytes
                  << " static + " << c.dynamic_smem_bytes << " dynamic compiled\n";
        EXPECT_EQ(a.numRegs, c.registers)
            << "rung " << r->id << ": registers typed " << c.registers << ", compiled kernel uses "
            << a.numRegs << " (cudaFuncAttributes::numRegs)";
        EXPECT_EQ(shared, c.smem_bytes)
            << "rung " << r->id << ": shared memory typed " << c.smem_bytes
            << " B, compiled kernel has " << a.sharedSizeBytes << " B static + "
            << c.dynamic_smem_bytes << " B the launcher requests = " << shared << " B";
        // The launch bounds admit the CTA the launcher starts.
        EXPECT_GE(a.maxThreadsPerBlock, c.threads)
            << "rung " << r->id << ": " << c.threads << " threads per CTA, the kernel allows "
            << a.maxThreadsPerBlock;
        ++checked;
    }
    EXPECT_GE(checked, 17);
}
