// Whether dirty lines take L2 room from a set read after them (docs/models/dram-waves.md, "Dirty
// lines and the room for a set read twice"). A GEMM leaves C's tiles dirty in L2 while its strips
// of A and B are read again wave after wave. Here W MB are stored (or, the control, only read)
// before a set every SM reads; counted, as Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize
// counts, the DRAM reads and writes of a second read of the set. Under least-recently-used
// replacement the older W lines do not matter, stored or read: between two reads of a line of the
// set only the set is touched. If the L2 keeps dirty lines in preference to clean ones, the set's
// edge moves in by W. Stored between the set's two reads, W moves the edge in under either.
// Printed (docs/validation/<gpu>-l2-dirty-retention.log); asserted only that
// every count ran. Runs when TGEMM_L2_DIRTY_MB lists the W to sweep. Needs a GPU.
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

TEST_F(CapacityEdge, RetentionBehindDirtyLines) {
    const auto list = test::env_list("TGEMM_L2_DIRTY_MB");
    if (list.empty()) GTEST_SKIP() << "TGEMM_L2_DIRTY_MB names no amount of dirty lines";
    std::vector<double> amounts;
    for (const auto& item : list) amounts.push_back(std::stod(item));
    const double half = 0.5 * double(dev.info.l2_bytes);
    const std::vector<double> sizes = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25};
    double most = 0;
    for (const double w : amounts) most = std::max(most, w);
    const device_buffer data(std::size_t(sizes.back() * half) / sizeof(float) + 4096);
    const device_buffer other(std::size_t(most * 1e6) / sizeof(float) + 32);
    const auto scratch = flush_scratch();
    cudaMemset(data.raw(), 0, data.bytes());
    cudaMemset(other.raw(), 0, other.bytes());
    const int sms = dev.info.sm_count;
    float* sink = data.get() + data.size() - 1;
    // Stored before the set's first read, read before it (the control), stored between its two
    // reads (then, under LRU, the set's edge moves in by W whatever the L2 prefers).
    enum class mode { stored_before, read_before, stored_between };
    const auto name = [](mode m) {
        return m == mode::stored_before ? "stored before "
               : m == mode::read_before ? "read before   "
                                        : "stored between";
    };
    for (const double w : amounts)
        for (const mode m : {mode::stored_before, mode::read_before, mode::stored_between})
            for (const double f : sizes) {
                const std::size_t n = std::size_t(f * half / sizeof(float)) / 32 * 32;
                const std::size_t wn = std::size_t(w * 1e6 / sizeof(float)) / 32 * 32;
                const auto read_set = [&] {
                    probe::read_by_every_sm(data.get(), n, sink, sms, stream->get());
                };
                const auto v = counters().collect(
                    [&] {
                        flush_l2(scratch.get(), scratch.size(), stream->get());
                        if (wn > 0 && m == mode::stored_before)
                            probe::store(other.get(), wn, stream->get());
                        if (wn > 0 && m == mode::read_before)
                            probe::touch(other.get(), wn, sink, stream->get());
                        read_set();
                        if (wn > 0 && m == mode::stored_between)
                            probe::store(other.get(), wn, stream->get());
                    },
                    read_set);
                const double bytes = double(n) * sizeof(float);
                const double reread = v.values.at("dram_read_bytes");
                std::printf(
                    "%5.1f MB %s: set %.2f x half the L2: DRAM reads %8.2f MB = %.3f of "
                    "the set, DRAM writes %6.2f MB\n",
                    w, name(m), bytes / half, reread / 1e6, reread / bytes,
                    v.values.at("dram_write_bytes") / 1e6);
                EXPECT_GE(reread, 0) << bytes;
            }
}
