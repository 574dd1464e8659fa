// The collector measured on kernels whose traffic is known exactly. Needs a GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/l2_flush.hpp"
#include "model/levels.hpp"
#include "probe_kernels.hpp"

using namespace tgemm;

namespace {

void print(const char* what, const counter_values& v) {
    std::printf("%-34s dram_read %12.0f dram_write %12.0f l2 %14.0f duration_ns %10.0f\n", what,
                v.values.at("dram_read_bytes"), v.values.at("dram_write_bytes"),
                v.values.at("l2_bytes"), v.values.at("duration_ns"));
}

}  // namespace

// The collector on kernels whose traffic is known: a kernel that moves no data shows (almost)
// no DRAM traffic; a kernel that reads 64 MB after flush_l2 shows 64 MB read and (almost)
// nothing written, since the read-based flush leaves L2 clean (collect/l2_flush.hpp); with
// 16 MB dirtied after the flush, the same kernel writes those 16 MB back. The printed table is
// the evidence docs/validation.md cites.
TEST(Collector, KnownTrafficKernels) {
    const auto probe = probe_local_device();
    if (!probe.device) GTEST_SKIP() << "no GPU: " << probe.why_none;
    cudaSetDevice(probe.device->index);
    cudaFree(nullptr);
    cuda_stream stream;
    counter_session session(probe.device->index);
    const std::size_t l2 = static_cast<std::size_t>(probe.device->info.l2_bytes);
    device_buffer scratch(4 * l2 / sizeof(float) / 32 * 32);
    cudaMemset(scratch.get(), 0, scratch.bytes());
    device_buffer data(64u << 20 >> 2);   // 64 MB
    device_buffer dirty(16u << 20 >> 2);  // 16 MB written just before the kernel
    cudaMemset(data.get(), 0, data.bytes());
    auto flush = [&] { flush_l2(scratch.get(), scratch.size(), stream.get()); };
    int* sink = reinterpret_cast<int*>(dirty.get());

    const auto idle_short =
        session.collect(flush, [&] { probe::spin(100000, sink, stream.get()); });
    print("spin 50 us, flushed", idle_short);
    const auto idle_long =
        session.collect(flush, [&] { probe::spin(40000000, sink, stream.get()); });
    print("spin 20 ms, flushed", idle_long);
    const auto dirty_idle = session.collect(
        [&] {
            flush();
            cudaMemsetAsync(dirty.get(), 1, dirty.bytes(), stream.get());
        },
        [&] { probe::spin(40000000, sink, stream.get()); });
    print("spin 20 ms, 16 MB dirty", dirty_idle);
    const auto read64 = session.collect(
        flush, [&] { probe::touch(data.get(), data.size(), data.get(), stream.get()); });
    print("read 64 MB, flushed", read64);
    const auto read64_dirty = session.collect(
        [&] {
            flush();
            cudaMemsetAsync(dirty.get(), 1, dirty.bytes(), stream.get());
        },
        [&] { probe::touch(data.get(), data.size(), data.get(), stream.get()); });
    print("read 64 MB, 16 MB dirty", read64_dirty);
    EXPECT_LT(idle_long.values.at("dram_write_bytes"), 1e6);
    EXPECT_LT(idle_long.values.at("dram_read_bytes"), 1e6);
    EXPECT_NEAR(read64.values.at("dram_read_bytes"), 64.0 * (1 << 20), 0.02 * 64 * (1 << 20));
    // Clean: under 1 MB written back (issue 10's probe saw 0.02-0.25 MB after such a read).
    EXPECT_LT(read64.values.at("dram_write_bytes"), 1e6);
    // And the test can tell: 16 MB dirtied after the flush come back as writes.
    EXPECT_GT(read64_dirty.values.at("dram_write_bytes"), 8e6);
}

// A batch (the pairs of one size, --counter-batch) shares one profiler start per group, each
// launch in its own range after its own preparation: its values are each launch's alone. The
// kernels differ in what they move, so ranges given to the wrong launch, or traffic of one
// range counted in the next, fail here.
TEST(Collector, ABatchCountsEachLaunchAsAlone) {
    const auto probe = probe_local_device();
    if (!probe.device) GTEST_SKIP() << "no GPU: " << probe.why_none;
    cudaSetDevice(probe.device->index);
    cudaFree(nullptr);
    cuda_stream stream;
    counter_session session(probe.device->index);
    const std::size_t l2 = static_cast<std::size_t>(probe.device->info.l2_bytes);
    device_buffer scratch(4 * l2 / sizeof(float) / 32 * 32);
    cudaMemset(scratch.get(), 0, scratch.bytes());
    device_buffer data(64u << 20 >> 2);
    device_buffer dirty(16u << 20 >> 2);
    cudaMemset(data.get(), 0, data.bytes());
    auto flush = [&] { flush_l2(scratch.get(), scratch.size(), stream.get()); };
    auto dirty_after_flush = [&] {
        flush();
        cudaMemsetAsync(dirty.get(), 1, dirty.bytes(), stream.get());
    };
    int* sink = reinterpret_cast<int*>(dirty.get());
    auto read64 = [&] { probe::touch(data.get(), data.size(), data.get(), stream.get()); };
    auto spin = [&] { probe::spin(40000000, sink, stream.get()); };
    const std::vector<counter_job> jobs = {
        {flush, spin}, {flush, read64}, {dirty_after_flush, read64}, {flush, spin}};
    const auto batch = session.collect(jobs);
    ASSERT_EQ(batch.size(), jobs.size());
    const char* names[] = {"spin 20 ms", "read 64 MB", "read 64 MB, 16 MB dirty", "spin 20 ms"};
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        print(names[i], batch[i]);
        EXPECT_EQ(batch[i].launches, batch[0].launches) << names[i];
    }
    for (const std::size_t spin_i : {0u, 3u}) {
        EXPECT_LT(batch[spin_i].values.at("dram_read_bytes"), 1e6) << spin_i;
        EXPECT_LT(batch[spin_i].values.at("dram_write_bytes"), 1e6) << spin_i;
    }
    EXPECT_NEAR(batch[1].values.at("dram_read_bytes"), 64.0 * (1 << 20), 0.02 * 64 * (1 << 20));
    EXPECT_LT(batch[1].values.at("dram_write_bytes"), 1e6);
    EXPECT_GT(batch[2].values.at("dram_write_bytes"), 8e6);
    // The same launch counted alone: exact counts agree exactly, traffic within 2 %.
    const auto alone = session.collect(flush, read64);
    EXPECT_EQ(batch[1].launches, alone.launches);
    EXPECT_EQ(batch[1].values.at("l1_global_load_requests"),
              alone.values.at("l1_global_load_requests"));
    EXPECT_NEAR(batch[1].values.at("l2_bytes"), alone.values.at("l2_bytes"),
                0.02 * alone.values.at("l2_bytes"));
}
