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

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
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

// The same slices swept `passes` times in one launch, as the waves of a wide GEMM sweep B: the
// share of each pass read from DRAM again, in the steady state the one-re-read count above cannot
// show (docs/models/dram-waves.md, "A set swept again and again"). What varies: readers per line
// (TGEMM_L2_SWEEP), whether a slice keeps its readers from pass to pass (rotate 0) or they move to
// other SMs (TGEMM_L2_SWEEP_ROTATE: each pass a slice goes to the CTA that many places earlier in
// launch order, as a strip of B goes to another CTA, on another SM, row after row of tiles), fresh
// dirty lines stored in each pass (as C's tiles are; read first with TGEMM_L2_SWEEP_READ_STORES=1,
// as β ≠ 0 reads C), and a wait after each pass
// (TGEMM_L2_SWEEP_WAIT_US: a slow kernel's passes lie far apart in time); the sizes, in multiples
// of half the L2, from TGEMM_L2_SWEEP_SIZES (0.6 … 1.6 unless given). Counted after the preparation
// flushed L2 and read the set once by pass 0's readers. Printed
// (docs/validation/<gpu>-l2-sweep.log); asserted only that every count ran. Needs a GPU.
TEST_F(CapacityEdge, RetentionOverManyPasses) {
    const auto list = test::env_list("TGEMM_L2_SWEEP");
    if (list.empty()) GTEST_SKIP() << "TGEMM_L2_SWEEP names no readers per line";
    const auto ints = [](const char* name, std::vector<int> fallback) {
        std::vector<int> v;
        for (const auto& item : test::env_list(name)) v.push_back(std::stoi(item));
        return v.empty() ? fallback : v;
    };
    const auto rotations = ints("TGEMM_L2_SWEEP_ROTATE", {0});
    // TGEMM_L2_SWEEP_READ_STORES=1: each stored line read first (C with beta != 0); the DRAM
    // reads printed are then the set's, less one read of every stored line.
    const bool read_stored = ints("TGEMM_L2_SWEEP_READ_STORES", {0}).front() != 0;
    const auto waits_us = ints("TGEMM_L2_SWEEP_WAIT_US", {0});
    const int sms = dev.info.sm_count;
    int smem_per_sm = 0, khz = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev.index);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev.index);
    const int smem = smem_per_sm - 2048;  // one CTA of the probe per SM
    const double half = 0.5 * double(dev.info.l2_bytes);
    constexpr int passes = 8;
    std::vector<double> sizes;  // × half the L2
    for (const auto& item : test::env_list("TGEMM_L2_SWEEP_SIZES"))
        sizes.push_back(std::stod(item));
    if (sizes.empty()) sizes = {0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6};
    std::sort(sizes.begin(), sizes.end());
    std::vector<double> stores;  // per pass, × half the L2
    for (const auto& item : test::env_list("TGEMM_L2_SWEEP_STORES"))
        stores.push_back(std::stod(item));
    if (stores.empty()) stores = {0.0, 0.02};
    std::sort(stores.begin(), stores.end());
    const device_buffer data(std::size_t(sizes.back() * half) / sizeof(float) + 4096);
    // Whole 128-byte lines per CTA and pass.
    const auto store_floats = [&](double share) {
        return std::size_t(share * half / sizeof(float) / sms) / 32 * 32;
    };
    const device_buffer fresh(passes * sms * store_floats(stores.back()) + 32);
    const auto scratch = flush_scratch();
    cudaMemset(data.raw(), 0, data.bytes());
    float* sink = data.get() + data.size() - 1;
    for (const auto& item : list) {
        const int r = std::stoi(item);
        ASSERT_TRUE(r >= 1 && sms % r == 0) << r << " readers do not divide " << sms << " SMs";
        const int slices = sms / r;
        for (const int rotate : rotations) {
            ASSERT_EQ(std::gcd(rotate, slices), rotate == 0 ? slices : 1)
                << "rotate " << rotate << " must be 0 or coprime to " << slices << " slices";
            for (const int wait_us : waits_us)
                for (const double w : stores)
                    for (const double f : sizes) {
                        const std::size_t unit = 32 * std::size_t(slices);
                        const std::size_t n = std::size_t(f * half / sizeof(float)) / unit * unit;
                        const std::size_t wf = store_floats(w);
                        const long long spin = static_cast<long long>(wait_us) * khz / 1000;
                        const auto v = counters().collect(
                            [&] {
                                flush_l2(scratch.get(), scratch.size(), stream->get());
                                probe::sweep_slices(data.get(), n, slices, 1, 0, fresh.get(), 0,
                                                    false, 0, sink, sms, smem, stream->get());
                            },
                            [&] {
                                probe::sweep_slices(data.get(), n, slices, passes, rotate,
                                                    fresh.get(), wf, read_stored, spin, sink, sms,
                                                    smem, stream->get());
                            });
                        const double bytes = double(n) * sizeof(float);
                        // Read-then-written lines are read from DRAM once each (no pass or CTA
                        // touches another's): the set's own re-reads are the rest.
                        const double stored_read =
                            read_stored ? double(wf) * sizeof(float) * sms * passes : 0.0;
                        const double reread = v.values.at("dram_read_bytes") - stored_read;
                        const double written = v.values.at("dram_write_bytes");
                        const double fabric = v.values.at("l2_fabric_bytes");
                        std::printf(
                            "%3d readers a line, rotate %2d, wait %4d us, stores %.2f x half a "
                            "pass%s: set %6.1f MB = %.2f x half the L2: DRAM reads %8.2f MB = %.3f "
                            "of the set a pass, writes %6.2f MB, fabric %.3f of the set a pass, "
                            "%.3f ms\n",
                            r, rotate, wait_us, double(wf) * sizeof(float) * sms / half,
                            read_stored ? " (read, then written)" : "", bytes / 1e6, bytes / half,
                            reread / 1e6, reread / bytes / passes, written / 1e6,
                            fabric / bytes / passes, v.values.at("duration_ns") / 1e6);
                        EXPECT_GE(reread, 0) << bytes;
                    }
        }
    }
}
