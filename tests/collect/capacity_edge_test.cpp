// The rows at the L2's capacity edge where the tool's DRAM reads and Nsight Compute's differ
// launch after launch (docs/validation-method.md): what moves them. Each row counted as the tool
// counts a pair (restore C, flush L2, the launch, in the counter pass) after one change of what
// comes before. Printed (docs/validation/<gpu>-capacity-edge*.log; docs/validation-method.md, "The
// capacity edge: where the operands sit"); asserted only that every count ran.
// Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/l2_flush.hpp"
#include "collect/measure.hpp"
#include "collect/timer.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "probe_kernels.hpp"
#include "rung.hpp"

using namespace tgemm;

using tgemm::test::CapacityEdge;

// Where the first wave starts (docs/cupti.md, "The counter pass fixes where the first wave
// starts"): a short kernel of j CTAs after the flush, inside the preparation, might move it; the
// placement probe and the open rows counted after j = 0 … 112 of them.
TEST_F(CapacityEdge, AShortKernelBeforeTheCountedLaunch) {
    const std::vector<int> shifts = {0, 8, 16, 24, 32, 48, 64, 80, 96, 112};
    const device_buffer shift_out(std::size_t(shifts.back()) * sizeof(probe::cta_placement));
    auto* shift_places = static_cast<probe::cta_placement*>(shift_out.raw());
    const auto shift = [&](int j) {
        // 32 threads and 1 KiB of shared memory each (the probe kernel writes a byte of it).
        if (j > 0) probe::record_placement(shift_places, j, 32, 1024, 2000, stream->get());
    };

    // Where the placement probe (one CTA of 256 threads per SM, two waves) starts after j.
    const auto scratch = flush_scratch();
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev.index);
    const int ctas = 2 * dev.info.sm_count;
    const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement));
    auto* out = static_cast<probe::cta_placement*>(buffer.raw());
    for (const int j : shifts) {
        (void)counters().collect(
            [&] {
                flush_l2(scratch.get(), scratch.size(), stream->get());
                shift(j);
            },
            [&] {
                probe::record_placement(out, ctas, 256, smem_per_sm - 2048, 20000, stream->get());
            });
        std::vector<probe::cta_placement> p(24);
        ASSERT_EQ(cudaMemcpy(p.data(), out, p.size() * sizeof(p[0]), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        std::printf("after %3d CTAs: the probe's CTAs 0 ... 23 on SMs", j);
        for (const auto& c : p) std::printf(" %d", c.sm);
        std::printf("\n");
    }

    // The open rows after j.
    for (const auto& row : rows) {
        const auto w = make(row);
        for (const int j : shifts)
            count("after " + std::to_string(j) + " CTAs:", row, *w, 1, [&shift, j] { shift(j); });
    }
}

// Where the operands sit in memory: the L2 spreads lines over its slices and sets by physical
// address, so at the capacity edge which lines evict each other may depend on it. Each open row
// counted twice after `pad` MiB were allocated before its workspace, for several pads.
TEST_F(CapacityEdge, WhereTheOperandsSit) {
    for (const auto& row : rows)
        for (const int pad_mib : {0, 2, 6, 10, 14, 30, 62, 126, 254}) {
            const device_buffer pad(std::size_t(pad_mib) << 20 >> 2);
            const auto w = make(row);
            count(std::to_string(pad_mib) + " MiB before its buffers:", row, *w);
        }
}

// What the tool does before it counts a pair, step by step: a workspace without and with the
// cuBLAS reference (and the handle made), then the verification launch, then the timed launches
// (the default policy), then a workspace without the reference again.
TEST_F(CapacityEdge, TheToolsStepsBeforeTheCount) {
    std::unique_ptr<cublas_handle> cublas;
    for (const auto& row : rows) {
        count("no cuBLAS, no reference:", row, *make(row));
        if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
        const auto w = make(row, cublas->get());
        count("the cuBLAS reference made:", row, *w);
        const auto launch = rung_registry::get()
                                .find(row.kernel)
                                .bind(w->args(), launch_context{stream->get(), cublas->get()});
        EXPECT_TRUE(verify_rung(launch, *w).ok) << row.kernel;
        count("verified:", row, *w);
        (void)time_rung(launch, *w, defaults.timing);
        count("timed:", row, *w);
    }
    for (const auto& row : rows) count("again without a reference:", row, *make(row));
}

// What running a cuBLAS GEMM leaves in the process that a later launch might feel: the L2
// persisting limit and the stream's access policy window, printed, and the first row counted on
// the same buffers after each step and after each possible undoing of it.
TEST_F(CapacityEdge, WhatTheCublasReferenceLeaves) {
    int max_persisting = 0;
    cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, dev.index);
    std::printf("the GPU's largest L2 set-aside for persisting accesses: %.1f MB\n",
                max_persisting / 1e6);
    const auto& row = rows.front();
    const auto w = make(row);
    const auto state_and_count = [&](const char* step) {
        std::size_t persisting = 0;
        cudaDeviceGetLimit(&persisting, cudaLimitPersistingL2CacheSize);
        cudaStreamAttrValue window{};
        cudaStreamGetAttribute(stream->get(), cudaStreamAttributeAccessPolicyWindow, &window);
        std::printf("%s persisting limit %.1f MB, stream window %zu B (hit ratio %.2f)\n", step,
                    persisting / 1e6, window.accessPolicyWindow.num_bytes,
                    window.accessPolicyWindow.hitRatio);
        count(step, row, *w);
    };
    state_and_count("at the start:");
    const cublas_handle cublas(stream->get());
    state_and_count("a cuBLAS handle on the stream:");
    (void)std::make_unique<workspace>(row.size, w->types, defaults.alpha, defaults.beta, 0,
                                      stream->get(), cublas.get(), defaults.seed);
    state_and_count("the cuBLAS reference run, freed:");
    cudaCtxResetPersistingL2Cache();
    state_and_count("cudaCtxResetPersistingL2Cache:");
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    state_and_count("persisting limit set to 0:");
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

// Which buffers: counted with buffers made before any cuBLAS call, after the handle was made,
// after a cuBLAS GEMM ran, and after the persisting L2 limit was set to 0; the first buffers
// counted again at the end.
TEST_F(CapacityEdge, BuffersMadeBeforeAndAfterCublas) {
    const auto& row = rows.front();
    const auto first = make(row);
    count("buffers made before any cuBLAS call:", row, *first);
    const cublas_handle cublas(stream->get());
    const auto second = make(row);
    count("buffers made after the handle:", row, *second);
    (void)std::make_unique<workspace>(row.size, first->types, defaults.alpha, defaults.beta, 0,
                                      stream->get(), cublas.get(), defaults.seed);
    const auto third = make(row);
    count("buffers made after a cuBLAS GEMM:", row, *third);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    const auto fourth = make(row);
    count("buffers made after the persisting limit 0:", row, *fourth);
    count("the first buffers again:", row, *first);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(CapacityEdge, FirstCountFreshBuffers) {
    count_first_row("fresh buffers:", false, false);
}
TEST_F(CapacityEdge, FirstCountAfterAWorkspaceWasFreed) {
    count_first_row("after a workspace was made and freed:", true, false);
}
TEST_F(CapacityEdge, FirstCountOfAWorkspaceWithTheReference) {
    count_first_row("a workspace made with the cuBLAS reference:", false, true);
}

// Whether where a set sits moves the L2's retention edge (gpu/l2_retention.hpp, measured with one
// placement by Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize): the same sweep of a set
// every SM reads twice, its second read counted, on a buffer allocated after TGEMM_EDGE_PAD_KIB
// KiB (one fresh process per pad, scripts/probes/capacity_edge_steps.sh does not run this).
// Skips when the variable is unset.
TEST_F(CapacityEdge, RetentionAfterAPad) {
    const char* env = std::getenv("TGEMM_EDGE_PAD_KIB");
    if (!env || !*env) GTEST_SKIP() << "TGEMM_EDGE_PAD_KIB names no pad";
    const device_buffer pad(std::stoul(env) * 256);
    const double half = 0.5 * double(dev.info.l2_bytes);
    const device_buffer data(std::size_t(2.4 * half) / sizeof(float) / 32 * 32 + 32);
    const auto scratch = flush_scratch();
    cudaMemset(data.raw(), 0, data.bytes());
    const int sms = dev.info.sm_count;
    float* sink = data.get() + data.size() - 1;
    for (const double f : {0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25}) {
        const std::size_t n = std::size_t(f * half / sizeof(float)) / 32 * 32;
        const auto v = counters().collect(
            [&] {
                flush_l2(scratch.get(), scratch.size(), stream->get());
                probe::read_by_every_sm(data.get(), n, sink, sms, stream->get());
            },
            [&] { probe::read_by_every_sm(data.get(), n, sink, sms, stream->get()); });
        const double bytes = double(n) * sizeof(float);
        const double reread = v.values.at("dram_read_bytes");
        std::printf("pad %s KiB: set %.2f x half the L2: DRAM reads %8.2f MB = %.3f of the set\n",
                    env, bytes / half, reread / 1e6, reread / bytes);
        EXPECT_GE(reread, 0) << bytes;
    }
}
