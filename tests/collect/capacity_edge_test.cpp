// The rows at the L2's capacity edge where the tool's DRAM reads and Nsight Compute's differ
// launch after launch (docs/validation-method.md): what moves them. Counted as the tool counts a
// pair (restore C, flush L2, the launch, in the counter pass). Printed
// (docs/validation/<gpu>-capacity-edge.log); asserted only that every count ran. Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/l2_flush.hpp"
#include "collect/measure.hpp"
#include "collect/timer.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "probe_kernels.hpp"
#include "require_gpu.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

constexpr int shift_threads = 32;
constexpr long long shift_hold_ns = 2000;
const std::vector<int> shifts = {0, 8, 16, 24, 32, 48, 64, 80, 96, 112};

// The rows of issue 10's open capacity-edge comparisons on this GPU.
std::vector<std::pair<std::string, shape>> open_rows(const std::string& gpu) {
    if (gpu == "h200")
        return {{"smem_register", {2048, 2048, 2048}}, {"blocktiling_1d", {2048, 2048, 2048}}};
    if (gpu == "h100")
        return {{"naive", {2500, 3500, 1200}}, {"blocktiling_1d", {2500, 3500, 1200}}};
    return {};
}

}  // namespace

// Where the first wave starts (docs/cupti.md, "The counter pass fixes where the first wave
// starts"): a short kernel of j CTAs after the flush, inside the preparation, might move it; the
// placement probe and the open rows counted after j = 0 … 112 of them.
TEST(CapacityEdge, AShortKernelBeforeTheCountedLaunch) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const int sms = dev->info.sm_count;
    const cuda_stream stream;
    counter_session session(dev->index);
    const device_buffer scratch(4 * std::size_t(dev->info.l2_bytes) / sizeof(float));
    cudaMemset(scratch.get(), 0, scratch.bytes());
    const device_buffer shift_out(std::size_t(shifts.back()) * sizeof(probe::cta_placement));
    auto* shift_places = static_cast<probe::cta_placement*>(shift_out.raw());
    const auto shift = [&](int j) {
        if (j > 0)
            probe::record_placement(shift_places, j, shift_threads, 1024, shift_hold_ns,
                                    stream.get());
    };

    // Where the placement probe (one CTA of 256 threads per SM, two waves) starts after j.
    {
        int smem_per_sm = 0;
        cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                               dev->index);
        const int smem = smem_per_sm - 2048;
        const int ctas = 2 * sms;
        const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement));
        auto* out = static_cast<probe::cta_placement*>(buffer.raw());
        for (const int j : shifts) {
            (void)session.collect(
                [&] {
                    flush_l2(scratch.get(), scratch.size(), stream.get());
                    shift(j);
                },
                [&] { probe::record_placement(out, ctas, 256, smem, 20000, stream.get()); });
            std::vector<probe::cta_placement> p(24);
            ASSERT_EQ(cudaMemcpy(p.data(), out, p.size() * sizeof(p[0]), cudaMemcpyDeviceToHost),
                      cudaSuccess);
            std::printf("after %3d CTAs: the probe's CTAs 0 ... 23 on SMs", j);
            for (const auto& c : p) std::printf(" %d", c.sm);
            std::printf("\n");
        }
    }

    // The open rows after j.
    const measure_options defaults;
    for (const auto& [id, s] : rows) {
        const auto& r = rung_registry::get().find(id);
        const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                          stream.get(), nullptr, defaults.seed);
        const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
        std::vector<counter_job> jobs;
        for (const int j : shifts)
            jobs.push_back({[&w, &shift, j] {
                                w.restore_c();
                                w.flush_l2();
                                shift(j);
                            },
                            launch});
        const auto counted = session.collect(jobs);
        ASSERT_EQ(counted.size(), shifts.size());
        for (std::size_t i = 0; i < shifts.size(); ++i) {
            const auto& v = counted[i].values;
            std::printf("%s at %s after %3d CTAs: DRAM reads %.2f MB, fabric %.2f MB, L2 %.1f MB\n",
                        id.c_str(), to_arg(s).c_str(), shifts[i], v.at("dram_read_bytes") / 1e6,
                        v.at("l2_fabric_bytes") / 1e6, v.at("l2_bytes") / 1e6);
            EXPECT_GT(v.at("dram_read_bytes"), 0) << id;
        }
    }
}

// Where the operands sit in memory: the L2 spreads lines over its slices and sets by physical
// address, so at the capacity edge which lines evict each other may depend on it. Each open row
// counted twice after `pad` MiB were allocated before its workspace (A, B, C and the flush
// buffer, as the tool allocates them), for several pads.
TEST(CapacityEdge, WhereTheOperandsSit) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const cuda_stream stream;
    counter_session session(dev->index);
    const measure_options defaults;
    for (const auto& [id, s] : rows) {
        const auto& r = rung_registry::get().find(id);
        for (const int pad_mib : {0, 2, 6, 10, 14, 30, 62, 126, 254}) {
            const device_buffer pad(std::size_t(pad_mib) << 20 >> 2);
            const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                              stream.get(), nullptr, defaults.seed);
            const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
            const counter_job job{[&w] {
                                      w.restore_c();
                                      w.flush_l2();
                                  },
                                  launch};
            const auto counted = session.collect({job, job});
            for (const auto& c : counted) {
                std::printf(
                    "%s at %s, %3d MiB before its buffers (A at %p): DRAM reads %.2f MB, "
                    "fabric %.2f MB\n",
                    id.c_str(), to_arg(s).c_str(), pad_mib, w.a.raw(),
                    c.values.at("dram_read_bytes") / 1e6, c.values.at("l2_fabric_bytes") / 1e6);
                EXPECT_GT(c.values.at("dram_read_bytes"), 0) << id;
            }
        }
    }
}

// What the tool does before it counts a pair, step by step: a workspace without and with the
// cuBLAS reference (and the handle made), then the verification launch, then the timed launches
// (the default policy), then a plain workspace again; each row counted twice after each step, with
// the launch's duration and SM clock.
TEST(CapacityEdge, TheToolsStepsBeforeTheCount) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const cuda_stream stream;
    counter_session session(dev->index);
    const measure_options defaults;
    std::unique_ptr<cublas_handle> cublas;
    const auto count = [&](const char* step, const std::string& id, const shape& s,
                           const workspace& w, const bound_launch& launch) {
        const counter_job job{[&w] {
                                  w.restore_c();
                                  w.flush_l2();
                              },
                              launch};
        for (const auto& c : session.collect({job, job})) {
            std::printf("%s at %s, %-34s DRAM reads %.2f MB, fabric %.2f MB, %.1f us at %.0f MHz\n",
                        id.c_str(), to_arg(s).c_str(), step, c.values.at("dram_read_bytes") / 1e6,
                        c.values.at("l2_fabric_bytes") / 1e6, c.values.at("duration_ns") / 1e3,
                        c.values.at("sm_clock_hz") / 1e6);
            EXPECT_GT(c.values.at("dram_read_bytes"), 0) << id;
        }
    };
    for (const auto& [id, s] : rows) {
        const auto& r = rung_registry::get().find(id);
        {
            const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                              stream.get(), nullptr, defaults.seed);
            const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
            count("no cuBLAS, no reference:", id, s, w, launch);
        }
        if (!cublas) cublas = std::make_unique<cublas_handle>(stream.get());
        const launch_context ctx{stream.get(), cublas->get()};
        const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                          stream.get(), cublas->get(), defaults.seed);
        const auto launch = r.bind(w.args(), ctx);
        count("the cuBLAS reference made:", id, s, w, launch);
        EXPECT_TRUE(verify_rung(launch, w).ok) << id;
        count("verified:", id, s, w, launch);
        (void)time_rung(launch, w, defaults.timing);
        count("timed:", id, s, w, launch);
    }
    for (const auto& [id, s] : rows) {
        const auto& r = rung_registry::get().find(id);
        const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                          stream.get(), nullptr, defaults.seed);
        const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
        count("again without a reference:", id, s, w, launch);
    }
}

// What running a cuBLAS GEMM leaves in the process that a later launch feels (the step above where
// the count moves): the L2 persisting limit, the stream's access policy window, and the count of
// the first open row after each step, and after each possible undoing of it.
TEST(CapacityEdge, WhatTheCublasReferenceLeaves) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const cuda_stream stream;
    counter_session session(dev->index);
    const measure_options defaults;
    int max_persisting = 0;
    cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, dev->index);
    std::printf("the GPU's largest L2 set-aside for persisting accesses: %.1f MB\n",
                max_persisting / 1e6);
    const auto& [id, s] = rows.front();
    const auto& r = rung_registry::get().find(id);
    const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes, stream.get(),
                      nullptr, defaults.seed);
    const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
    const auto state_and_count = [&](const char* step) {
        std::size_t persisting = 0;
        cudaDeviceGetLimit(&persisting, cudaLimitPersistingL2CacheSize);
        cudaStreamAttrValue window{};
        cudaStreamGetAttribute(stream.get(), cudaStreamAttributeAccessPolicyWindow, &window);
        const counter_job job{[&] {
                                  w.restore_c();
                                  w.flush_l2();
                              },
                              launch};
        for (const auto& c : session.collect({job, job}))
            std::printf(
                "%-40s persisting limit %.1f MB, stream window %zu B (hit ratio %.2f); "
                "%s at %s: DRAM reads %.2f MB\n",
                step, persisting / 1e6, window.accessPolicyWindow.num_bytes,
                window.accessPolicyWindow.hitRatio, id.c_str(), to_arg(s).c_str(),
                c.values.at("dram_read_bytes") / 1e6);
    };
    state_and_count("at the start:");
    const cublas_handle cublas(stream.get());
    state_and_count("a cuBLAS handle on the stream:");
    {
        const workspace ref(s, r.types, defaults.alpha, defaults.beta, 0, stream.get(),
                            cublas.get(), defaults.seed);
        state_and_count("the cuBLAS reference run:");
    }
    state_and_count("its workspace freed:");
    cudaCtxResetPersistingL2Cache();
    state_and_count("cudaCtxResetPersistingL2Cache:");
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    state_and_count("persisting limit set to 0:");
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

// Which buffers: counted with buffers made before any cuBLAS call, after the handle was made, after
// a cuBLAS GEMM ran, and after the persisting L2 limit was set to 0; the first buffers counted
// again at the end.
TEST(CapacityEdge, BuffersMadeBeforeAndAfterCublas) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const cuda_stream stream;
    counter_session session(dev->index);
    const measure_options defaults;
    const auto& [id, s] = rows.front();
    const auto& r = rung_registry::get().find(id);
    const auto make = [&] {
        return std::make_unique<workspace>(s, r.types, defaults.alpha, defaults.beta,
                                           dev->info.l2_bytes, stream.get(), nullptr,
                                           defaults.seed);
    };
    const auto count = [&](const char* which, const workspace& w) {
        const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
        const counter_job job{[&w] {
                                  w.restore_c();
                                  w.flush_l2();
                              },
                              launch};
        for (const auto& c : session.collect({job, job}))
            std::printf("%-46s %s at %s: DRAM reads %.2f MB (A at %p)\n", which, id.c_str(),
                        to_arg(s).c_str(), c.values.at("dram_read_bytes") / 1e6, w.a.raw());
    };
    const auto first = make();
    count("buffers made before any cuBLAS call:", *first);
    const cublas_handle cublas(stream.get());
    const auto second = make();
    count("buffers made after the handle:", *second);
    {
        const workspace ref(s, r.types, defaults.alpha, defaults.beta, 0, stream.get(),
                            cublas.get(), defaults.seed);
    }
    const auto third = make();
    count("buffers made after a cuBLAS GEMM:", *third);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    const auto fourth = make();
    count("buffers made after the persisting limit 0:", *fourth);
    count("the first buffers again:", *first);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

// Three processes' first counts, each test run alone (--gtest_filter): buffers made fresh, buffers
// made after another workspace was made and freed (no cuBLAS), and the buffers of a workspace made
// with the cuBLAS reference, as the tool makes them.
namespace {

void count_first_row(const char* which, bool free_one_first, bool with_reference) {
    REQUIRE_GPU(dev);
    const auto rows = open_rows(dev->info.key);
    if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev->info.key;
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const cuda_stream stream;
    counter_session session(dev->index);
    const measure_options defaults;
    const auto& [id, s] = rows.front();
    const auto& r = rung_registry::get().find(id);
    if (free_one_first) {
        const workspace gone(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes,
                             stream.get(), nullptr, defaults.seed);
    }
    std::unique_ptr<cublas_handle> cublas;
    if (with_reference) cublas = std::make_unique<cublas_handle>(stream.get());
    const workspace w(s, r.types, defaults.alpha, defaults.beta, dev->info.l2_bytes, stream.get(),
                      cublas ? cublas->get() : nullptr, defaults.seed);
    const auto launch = r.bind(w.args(), launch_context{stream.get(), nullptr});
    const counter_job job{[&w] {
                              w.restore_c();
                              w.flush_l2();
                          },
                          launch};
    for (const auto& c : session.collect({job, job, job}))
        std::printf("%-52s %s at %s: DRAM reads %.2f MB\n", which, id.c_str(), to_arg(s).c_str(),
                    c.values.at("dram_read_bytes") / 1e6);
}

}  // namespace

TEST(CapacityEdge, FirstCountFreshBuffers) {
    count_first_row("fresh buffers:", false, false);
}
TEST(CapacityEdge, FirstCountAfterAWorkspaceWasFreed) {
    count_first_row("after a workspace was made and freed:", true, false);
}
TEST(CapacityEdge, FirstCountOfAWorkspaceWithTheReference) {
    count_first_row("a workspace made with the cuBLAS reference:", false, true);
}
