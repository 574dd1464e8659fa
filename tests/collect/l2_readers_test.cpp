// How much of a set L2 keeps, by how many SMs read each of its lines (docs/models/dram-waves.md,
// "How many SMs read a line"). The DRAM wave model takes the retention curve of a set every SM
// reads (Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize) for the strips of A and B, which
// a few CTAs of a wave read each. Here the set is cut into slices, each read by r SMs far apart
// in launch order; counted as that test counts: after the preparation flushed L2 and read the set
// once the same way, the DRAM reads and fabric bytes of a second read. Printed
// (docs/validation/<gpu>-l2-readers.log); asserted only that every count ran. Runs when
// TGEMM_L2_READERS lists the r to sweep (each a divisor of the SM count). Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/l2_flush.hpp"
#include "probe_kernels.hpp"

using namespace tgemm;

using tgemm::test::CapacityEdge;

TEST_F(CapacityEdge, RetentionByReadersPerLine) {
    const auto list = test::env_list("TGEMM_L2_READERS");
    if (list.empty()) GTEST_SKIP() << "TGEMM_L2_READERS names no readers per line";
    const int sms = dev.info.sm_count;
    std::vector<int> readers;
    for (const auto& item : list) {
        const int r = std::stoi(item);
        ASSERT_TRUE(r >= 1 && sms % r == 0) << r << " readers do not divide " << sms << " SMs";
        readers.push_back(r);
    }
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev.index);
    const int smem = smem_per_sm - 2048;  // one CTA of the probe per SM
    const double half = 0.5 * double(dev.info.l2_bytes);
    const std::vector<double> sizes = {0.5, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4};
    const device_buffer data(std::size_t(sizes.back() * half) / sizeof(float) + 4096);
    const auto scratch = flush_scratch();
    cudaMemset(data.raw(), 0, data.bytes());
    float* sink = data.get() + data.size() - 1;
    for (const int r : readers) {
        const int slices = sms / r;
        for (const double f : sizes) {
            // Whole 16-byte loads in every slice, and slices of whole 128-byte lines.
            const std::size_t unit = 32 * std::size_t(slices);
            const std::size_t n = std::size_t(f * half / sizeof(float)) / unit * unit;
            const auto read = [&] {
                probe::read_slices(data.get(), n, slices, sink, sms, smem, stream->get());
            };
            const auto v = counters().collect(
                [&] {
                    flush_l2(scratch.get(), scratch.size(), stream->get());
                    read();
                },
                read);
            const double bytes = double(n) * sizeof(float);
            const double reread = v.values.at("dram_read_bytes");
            const double fabric = v.values.at("l2_fabric_bytes");
            std::printf(
                "%3d readers a line: set %6.1f MB = %.2f x half the L2: DRAM reads %8.2f MB "
                "= %.3f of the set, fabric %8.2f MB = %.3f\n",
                r, bytes / 1e6, bytes / half, reread / 1e6, reread / bytes, fabric / 1e6,
                fabric / bytes);
            EXPECT_GE(reread, 0) << bytes;
        }
    }
}
