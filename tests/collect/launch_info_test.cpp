// The rungs' launches as data (kernels/launch_info.hpp) against the compiled kernels: the
// registers and shared memory every model and the docs use must be what the build's sm_90a code
// asks of the SM. Needs a compute capability 9.0 GPU: the registers are typed for sm_90a, and
// cudaFuncGetAttributes reports the code the device runs.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <iostream>
#include <memory>
#include <vector>

#include "collect/cuda_handles.hpp"
#include "collect/workspace.hpp"
#include "gpu/shared_split.hpp"
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

// Binding a rung's launch names the L1/shared split of each of its kernels (gpu/shared_split.hpp),
// whatever the kernel was asked for before: every kernel is first given a carveout the rule
// never picks (50 %), so a bind that names nothing fails here.
TEST(LaunchInfo, BindNamesEachKernelsSharedSplit) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get(), dev->info.limits};
    const shape s{256, 256, 256};
    std::vector<std::unique_ptr<workspace>> spaces;
    int checked = 0;
    for (const auto* r : rung_registry::get().all()) {
        if (!r->config || !r->config->kernel || r->can_run(dev->info, s)) continue;
        const auto& c = *r->config;
        std::vector<const void*> kernels{c.kernel};
        for (const void* k : c.other_paths)
            if (k) kernels.push_back(k);
        for (const void* k : kernels)
            ASSERT_EQ(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 50),
                      cudaSuccess)
                << r->id;
        const workspace* ws = nullptr;
        for (const auto& w : spaces)
            if (w->types == r->types) ws = w.get();
        if (!ws) {
            spaces.push_back(std::make_unique<workspace>(s, r->types, 1.0f, 0.0f, 0, stream.get(),
                                                         cublas.get(), 7));
            ws = spaces.back().get();
        }
        const auto launch = r->bind(ws->args(), ctx);
        const int want = shared_split_for(dev->info.limits, c.cta()).carveout_percent;
        ASSERT_NE(want, 50) << r->id << ": pick another placeholder carveout for this test";
        for (const void* k : kernels) {
            cudaFuncAttributes a{};
            ASSERT_EQ(cudaFuncGetAttributes(&a, k), cudaSuccess) << r->id;
            EXPECT_EQ(a.preferredShmemCarveout, want)
                << "rung " << r->id << ": carveout after bind " << a.preferredShmemCarveout
                << " %, its split asks for " << want << " %";
        }
        ++checked;
    }
    EXPECT_GE(checked, 17);
}
