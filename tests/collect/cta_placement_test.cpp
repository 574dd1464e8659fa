// Where the GPU runs the CTAs of a launch: the assumption behind the wave model's schedule
// (kernels/wave_dram.hpp, reg_tiling_model.hpp estimate_drifting_dram; docs/models/dram-waves.md).
// Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/l2_flush.hpp"
#include "probe_kernels.hpp"
#include "require_gpu.hpp"

using namespace tgemm;

namespace {

// Dynamic shared memory that admits exactly `per_sm` CTAs on an SM of `smem_per_sm` bytes:
// the runtime reserves 1 KiB per CTA, and another KiB keeps the sum under the limit.
int smem_for(int per_sm, int smem_per_sm) {
    return smem_per_sm / per_sm - 2048;
}

constexpr int threads = 256;
constexpr long long hold_ns = 50000;  // each CTA holds its SM this long

int shared_memory_per_sm(int device) {
    int bytes = 0;
    cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    return bytes;
}

// One launch of `ctas` CTAs of the probe, and where each ran (read back from `out`).
std::vector<probe::cta_placement> launch_and_read(probe::cta_placement* out, int ctas, int smem,
                                                  cudaStream_t stream) {
    probe::record_placement(out, ctas, threads, smem, hold_ns, stream);
    std::vector<probe::cta_placement> p(std::size_t(ctas), probe::cta_placement{});
    EXPECT_EQ(
        cudaMemcpyAsync(p.data(), out, p.size() * sizeof(p[0]), cudaMemcpyDeviceToHost, stream),
        cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    return p;
}

}  // namespace

// The first wave of a launch starts together, every SM taking its CTAs per SM of it, and the
// CTAs that share an SM lie far apart in launch order: at least half the SM count S, about S for
// most SMs (on the H100, SMs 124-131 take their second CTA about 80 CTAs after their first). So
// each run of S/2 consecutive CTAs is on as many SMs: the groups the wave
// model takes to cross K together, and no two CTAs of one SM read one tile row or column of a
// grid narrower than that. Printed (docs/validation/<gpu>-cta-placement.log): the SM of each of
// CTAs 0 … S − 1, the CTAs on SM 0, and the closest two CTAs of one SM. Every CTA holds its SM
// 50 µs, so a launch of two waves' worth separates them in time.
TEST(CtaPlacement, CtasSharingAnSmAreFarApartInLaunchOrder) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    const int sms = dev->info.sm_count;
    const int smem_per_sm = shared_memory_per_sm(dev->index);
    const cuda_stream stream;
    for (const int per_sm : {1, 2, 4, 5}) {
        const int smem = smem_for(per_sm, smem_per_sm);
        ASSERT_EQ(probe::placement_ctas_per_sm(threads, smem), per_sm) << smem;
        const int wave = sms * per_sm;
        const int ctas = 2 * wave;
        const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement) /
                                   sizeof(float));
        auto* out = static_cast<probe::cta_placement*>(buffer.raw());
        probe::record_placement(out, ctas, threads, smem, hold_ns, stream.get());  // warm-up
        const auto p = launch_and_read(out, ctas, smem, stream.get());
        const auto first = std::min_element(p.begin(), p.end(), [](const auto& a, const auto& b) {
                               return a.start_ns < b.start_ns;
                           })->start_ns;

        // The first wave starts together; the second after it, once CTAs finish.
        std::map<int, std::vector<int>> on_sm;  // SM -> first-wave CTAs
        for (int b = 0; b < ctas; ++b) {
            const double start_us = double(p[std::size_t(b)].start_ns - first) / 1e3;
            if (b < wave) {
                EXPECT_LT(start_us, 0.4 * hold_ns / 1e3) << "CTA " << b << " of the first wave";
                on_sm[p[std::size_t(b)].sm].push_back(b);
            } else {
                EXPECT_GT(start_us, 0.8 * hold_ns / 1e3) << "CTA " << b << " of the second wave";
            }
        }
        EXPECT_EQ(int(on_sm.size()), sms) << per_sm << " per SM";
        for (const auto& [sm, list] : on_sm) EXPECT_EQ(int(list.size()), per_sm) << "SM " << sm;
        // How close in launch order two CTAs of the first wave come on one SM.
        int closest = ctas;
        for (const auto& [sm, list] : on_sm)
            for (std::size_t i = 1; i < list.size(); ++i)
                closest = std::min(closest, list[i] - list[i - 1]);
        if (per_sm > 1) {
            EXPECT_GE(closest, sms / 2) << per_sm << " per SM";
        }
        std::printf("%d CTAs per SM, %d CTAs of 256 threads, %d B shared memory each:\n", per_sm,
                    ctas, smem);
        std::printf("  SMs of CTAs 0 ... %d:", sms - 1);
        for (int b = 0; b < sms; ++b) std::printf(" %d", p[std::size_t(b)].sm);
        std::printf("\n  CTAs on SM 0:");
        for (const int b : on_sm[0]) std::printf(" %d", b);
        if (per_sm > 1)
            std::printf(
                "\n  the closest two first-wave CTAs of one SM are %d apart in launch order\n",
                closest);
        else
            std::printf("\n");
    }
}

// Whether counting a launch moves its CTAs: the SMs of the first CTAs in launch order, launch by
// launch, for launches on their own and for launches in the counter pass (each after the L2
// flush, in a user range, as the tool counts a rung; what the last group's launch placed). The
// first wave starts at a point of the dispatch order that moves between launches (the blocks of
// SMs 124-131 first, or of 128-131; docs/validation/<gpu>-cta-placement-3runs.log); the capacity
// edge rows where the tool's count and Nsight Compute's differ (docs/validation-method.md) would
// differ if one profiler always started elsewhere. Printed only: which start is not asserted.
TEST(CtaPlacement, LaunchesAloneAndInTheCounterPass) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    cudaFree(nullptr);
    const int sms = dev->info.sm_count;
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev->index);
    constexpr int threads = 256;
    constexpr long long hold_ns = 20000;
    constexpr int shown = 24;
    const cuda_stream stream;
    counter_session session(dev->index);
    const device_buffer scratch(4 * std::size_t(dev->info.l2_bytes) / sizeof(float));
    cudaMemset(scratch.get(), 0, scratch.bytes());
    for (const int per_sm : {1, 2, 4}) {
        const int smem = smem_for(per_sm, smem_per_sm);
        const int ctas = 2 * sms * per_sm;
        const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement) /
                                   sizeof(float));
        auto* out = static_cast<probe::cta_placement*>(buffer.raw());
        const auto launch = [&] {
            probe::record_placement(out, ctas, threads, smem, hold_ns, stream.get());
        };
        const auto show = [&](const char* how, int run) {
            std::vector<probe::cta_placement> p(std::size_t(ctas), probe::cta_placement{});
            ASSERT_EQ(cudaMemcpyAsync(p.data(), out, p.size() * sizeof(p[0]),
                                      cudaMemcpyDeviceToHost, stream.get()),
                      cudaSuccess);
            ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
            std::printf("%d per SM, %-22s run %d: SMs of CTAs 0 ... %d:", per_sm, how, run,
                        shown - 1);
            for (int b = 0; b < shown; ++b) std::printf(" %d", p[std::size_t(b)].sm);
            std::printf("\n");
            for (const auto& c : p) EXPECT_GE(c.sm, 0) << how;
        };
        for (int run = 1; run <= 3; ++run) {
            flush_l2(scratch.get(), scratch.size(), stream.get());
            launch();
            show("alone, after a flush", run);
        }
        for (int run = 1; run <= 3; ++run) {
            (void)session.collect([&] { flush_l2(scratch.get(), scratch.size(), stream.get()); },
                                  launch);
            show("in the counter pass", run);
        }
    }
}

// Launches of no more CTAs than SMs: where their CTAs run, launch by launch. They are not dealt as
// the first CTAs of a full wave are; the rule they follow, which the L2 fabric model takes
// (gpu/first_wave.hpp, small_launch_dispatch; docs/models/l2.md, "A launch of one wave"), was read
// off these logs, and FirstWave.SmallLaunchesFollowTheDispatchRule holds it to them. Printed
// (docs/validation/<gpu>-cta-placement-small.log): the SM of each CTA, two launches of every
// count from 1 to the SM count at 1 CTA per SM and of seven counts at 2. Asserted: every CTA ran
// on an SM, at 1 CTA per SM each on one of its own.
TEST(CtaPlacement, SmallLaunches) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    const int sms = dev->info.sm_count;
    const int smem_per_sm = shared_memory_per_sm(dev->index);
    const cuda_stream stream;
    for (const int per_sm : {1, 2}) {
        const int smem = smem_for(per_sm, smem_per_sm);
        ASSERT_EQ(probe::placement_ctas_per_sm(threads, smem), per_sm) << smem;
        std::vector<int> counts;
        if (per_sm == 1)
            for (int n = 1; n <= sms; ++n) counts.push_back(n);
        else
            counts = {16, 28, 32, 49, 64, 100, sms};
        for (const int ctas : counts) {
            const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement) /
                                       sizeof(float));
            auto* out = static_cast<probe::cta_placement*>(buffer.raw());
            probe::record_placement(out, ctas, threads, smem, hold_ns, stream.get());  // warm-up
            for (int launch = 0; launch < 2; ++launch) {
                const auto p = launch_and_read(out, ctas, smem, stream.get());
                std::map<int, int> on_sm;
                std::printf("%d CTAs per SM, %d CTAs, launch %d: SMs", per_sm, ctas, launch);
                for (const auto& c : p) {
                    EXPECT_GE(c.sm, 0);
                    EXPECT_LT(c.sm, sms);
                    ++on_sm[c.sm];
                    std::printf(" %d", c.sm);
                }
                std::printf(" (%zu SMs)\n", on_sm.size());
                if (per_sm == 1) {
                    EXPECT_EQ(int(on_sm.size()), ctas) << ctas << " CTAs at 1 per SM";
                }
            }
        }
    }
}
