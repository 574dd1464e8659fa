// The collector measured on kernels whose traffic is known exactly. Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/l2_flush.hpp"
#include "model/levels.hpp"
#include "probe_kernels.hpp"

using namespace tgemm;

namespace {

void print(const char* what, const counter_values& v) {
    std::printf(
        "%-34s dram_read %12.0f dram_write %12.0f l2 %14.0f l2_write %12.0f l2_tex %14.0f "
        "l2_fabric %12.0f duration_ns %10.0f\n",
        what, v.values.at("dram_read_bytes"), v.values.at("dram_write_bytes"),
        v.values.at("l2_bytes"), v.values.at("l2_write_bytes"), v.values.at("l2_tex_bytes"),
        v.values.at("l2_fabric_bytes"), v.values.at("duration_ns"));
}

// The GPU made current, a counter session, and the buffers of kernels whose traffic is known:
// an L2 flush scratch of 4× the L2, 64 MB to read, 16 MB to dirty after the flush.
struct known_traffic {
    explicit known_traffic(const local_device& d, cupti_ranges ranges = cupti_ranges::user)
        : device(select(d.index)),
          sm_count(d.info.sm_count),
          l2_bytes(d.info.l2_bytes),
          session(d.index, ranges),
          scratch(4 * static_cast<std::size_t>(d.info.l2_bytes) / sizeof(float) / 32 * 32),
          data(64u << 20 >> 2),
          dirty(16u << 20 >> 2) {
        cudaMemset(scratch.get(), 0, scratch.bytes());
        cudaMemset(data.get(), 0, data.bytes());
    }
    static int select(int index) {
        cudaSetDevice(index);
        cudaFree(nullptr);
        return index;
    }
    void flush() const { flush_l2(scratch.get(), scratch.size(), stream.get()); }
    void dirty_after_flush() const {
        flush();
        cudaMemsetAsync(dirty.get(), 1, dirty.bytes(), stream.get());
    }
    void read64() const { probe::touch(data.get(), data.size(), data.get(), stream.get()); }
    void store64() const { probe::store(data.get(), data.size(), stream.get()); }
    // 8 MB read by one CTA on every SM.
    void read8_everywhere() const { read_everywhere((8u << 20) / sizeof(float)); }
    void spin(long long cycles) const {
        probe::spin(cycles, reinterpret_cast<int*>(dirty.get()), stream.get());
    }

    // The first n floats of `data`, read by one CTA on every SM.
    void read_everywhere(std::size_t n) const {
        probe::read_by_every_sm(data.get(), n, data.get() + data.size() - 1, sm_count,
                                stream.get());
    }

    int device;
    int sm_count;
    std::int64_t l2_bytes;
    cuda_stream stream;
    counter_session session;
    device_buffer scratch, data, dirty;
};

// The known-traffic kernels as jobs for the collector; skips without a GPU.
class Collector : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto probe = probe_local_device();
        if (!probe.device) GTEST_SKIP() << "no GPU: " << probe.why_none;
        k = std::make_unique<known_traffic>(*probe.device);
    }
    // The same kernels counted in CUPTI's automatic range of each kernel (--cupti-ranges kernel).
    void count_kernel_ranges() {
        const auto probe = probe_local_device();
        k.reset();
        k = std::make_unique<known_traffic>(*probe.device, cupti_ranges::kernel);
    }
    std::unique_ptr<known_traffic> k;
    const std::function<void()> flush = [this] { k->flush(); };
    const std::function<void()> dirty = [this] { k->dirty_after_flush(); };
    const std::function<void()> read64 = [this] { k->read64(); };
    const std::function<void()> spin_long = [this] { k->spin(40000000); };

    // 16 MiB (C) stored in `pattern` by ctas × threads after a flush, counted: the L1's store
    // bytes, the L2's writes, and the share of the extra requests L2 did not count, with the two
    // ends the L2 write model allows asserted: 1.5 × C (all merged) … 1.5 × the L1's (none), 5 %.
    struct part_stores {
        double c = 0, l1 = 0, l2 = 0, merged = 0;
    };
    part_stores count_part_stores(probe::part_pattern pattern, const char* what, int ctas = 528,
                                  int threads = 256) {
        part_stores r;
        const std::size_t bytes = k->data.bytes() / 4 / 2048 * 2048;
        r.c = double(bytes);
        const auto v = k->session.collect(flush, [&] {
            probe::store_parts(k->data.get(), bytes, pattern, k->stream.get(), ctas, threads);
        });
        r.l1 = v.values.at("l1_global_store_bytes");
        r.l2 = v.values.at("l2_write_bytes");
        r.merged = (1.5 * r.l1 - r.l2) / (1.5 * r.l1 - 1.5 * r.c);
        EXPECT_GE(r.l2, 0.95 * 1.5 * r.c) << what;
        EXPECT_LE(r.l2, 1.05 * 1.5 * r.l1) << what;
        return r;
    }
};

}  // namespace

// The collector on kernels whose traffic is known: a kernel that moves no data shows (almost)
// no DRAM traffic; a kernel that reads 64 MB after flush_l2 shows 64 MB read and (almost)
// nothing written, since the read-based flush leaves L2 clean (collect/l2_flush.hpp); with
// 16 MB dirtied after the flush, the same kernel writes those 16 MB back. The printed table is
// the evidence docs/validation.md cites.
TEST_F(Collector, KnownTrafficKernels) {
    const auto idle_short = k->session.collect(flush, [&] { k->spin(100000); });
    print("spin 50 us, flushed", idle_short);
    const auto idle_long = k->session.collect(flush, spin_long);
    print("spin 20 ms, flushed", idle_long);
    print("spin 20 ms, 16 MB dirty", k->session.collect(dirty, spin_long));
    const auto read = k->session.collect(flush, read64);
    print("read 64 MB, flushed", read);
    const auto read_dirty = k->session.collect(dirty, read64);
    print("read 64 MB, 16 MB dirty", read_dirty);
    EXPECT_LT(idle_long.values.at("dram_write_bytes"), 1e6);
    EXPECT_LT(idle_long.values.at("dram_read_bytes"), 1e6);
    EXPECT_NEAR(read.values.at("dram_read_bytes"), 64.0 * (1 << 20), 0.02 * 64 * (1 << 20));
    // Clean: under 1 MB written back (issue 10's probe saw 0.02-0.25 MB after such a read).
    EXPECT_LT(read.values.at("dram_write_bytes"), 1e6);
    // And the test can tell: 16 MB dirtied after the flush come back as writes.
    EXPECT_GT(read_dirty.values.at("dram_write_bytes"), 8e6);
}

// A batch (the pairs of one size, --counter-batch) shares one profiler start per group, each
// launch in its own range after its own preparation: its values are each launch's alone. The
// kernels differ in what they move, so ranges given to the wrong launch, or traffic of one
// range counted in the next, fail here.
TEST_F(Collector, ABatchCountsEachLaunchAsAlone) {
    const std::vector<counter_job> jobs = {
        {flush, spin_long}, {flush, read64}, {dirty, read64}, {flush, spin_long}};
    const auto batch = k->session.collect(jobs);
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
    const auto alone = k->session.collect(flush, read64);
    EXPECT_EQ(batch[1].launches, alone.launches);
    EXPECT_EQ(batch[1].values.at("l1_global_load_requests"),
              alone.values.at("l1_global_load_requests"));
    EXPECT_NEAR(batch[1].values.at("l2_bytes"), alone.values.at("l2_bytes"),
                0.02 * alone.values.at("l2_bytes"));
}

// The experiment behind the L2 traffic model (kernels/l2_traffic.hpp, docs/models/l2.md), on
// kernels whose traffic is known, after the collector's own preparation: a line one SM reads or
// writes crosses between the two partitions half the time (homed in the other one); a line SMs
// on both partitions read crosses once; a store is counted at both partitions when it crosses
// (1.5 per stored byte). A kernel that touches nothing shows what every counted window holds
// besides the kernel (1.69 MB of fabric bytes on the H100, docs/validation/h100-collector-known-
// traffic.log): the fabric is compared after taking that off. Measured in three runs there: the
// one-SM lines within 0.7 % (asserted 2 %); the 8 MB every SM reads +0.0, -4.0 and -4.0 %
// (whether a partition's later requests find its own copy depends on timing; asserted 5 %).
TEST_F(Collector, L2PartitionsOnKnownTraffic) {
    const double mb64 = 64.0 * (1 << 20);
    const double mb8 = 8.0 * (1 << 20);
    const auto idle = k->session.collect(flush, [&] { k->spin(100000); });
    print("spin 50 us, flushed", idle);
    const auto read = k->session.collect(flush, read64);
    print("read 64 MB once, flushed", read);
    const auto store = k->session.collect(flush, [&] { k->store64(); });
    print("store 64 MB once, flushed", store);
    const auto shared = k->session.collect(flush, [&] { k->read8_everywhere(); });
    print("read 8 MB on every SM, flushed", shared);
    const double window = idle.values.at("l2_fabric_bytes");
    EXPECT_LT(window, 4e6);
    const auto fabric = [&](const counter_values& v) {
        return v.values.at("l2_fabric_bytes") - window;
    };
    EXPECT_NEAR(read.values.at("l2_tex_bytes"), mb64, 0.02 * mb64);
    EXPECT_NEAR(fabric(read), 0.5 * mb64, 0.02 * 0.5 * mb64);
    EXPECT_NEAR(store.values.at("l2_write_bytes"), 1.5 * mb64, 0.02 * 1.5 * mb64);
    EXPECT_NEAR(fabric(store), 0.5 * mb64, 0.02 * 0.5 * mb64);
    EXPECT_NEAR(fabric(shared), mb8, 0.05 * mb8);
}

// The capacity the DRAM wave model assumes (docs/models/dram-waves.md): a line that SMs on both
// partitions read is held in each of them, so lines every SM reads stay in L2 up to about half
// its size. Measured on the counted pass, like every GEMM row: a working set every SM reads,
// after the preparation flushed L2 and read the same set once; its DRAM reads are what of it
// did not stay. The sweep is printed (docs/validation/<gpu>-l2-capacity.log); asserted are the
// two ends: a quarter of half the L2 stays (re-read under 2 % plus what an idle window holds),
// and a set larger than the whole L2 does not (over a quarter re-read), where `data` holds one.
TEST_F(Collector, L2HoldsLinesEverySmReadsUpToAboutHalfItsSize) {
    const double half = 0.5 * double(k->l2_bytes);
    const std::size_t most = k->data.size();
    for (const double f : {0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 2.4}) {
        const std::size_t n = std::min(most, std::size_t(f * half / sizeof(float)) / 32 * 32);
        const double bytes = double(n) * sizeof(float);
        const auto v = k->session.collect(
            [&] {
                k->flush();
                k->read_everywhere(n);
            },
            [&] { k->read_everywhere(n); });
        const double reread = v.values.at("dram_read_bytes");
        std::printf("set %6.1f MB = %.2f x half the L2: DRAM reads %8.2f MB = %.3f of the set\n",
                    bytes / 1e6, bytes / half, reread / 1e6, reread / bytes);
        if (f == 0.25) {
            EXPECT_LT(reread, 0.02 * bytes + 1e6) << bytes;
        }
        if (bytes > 1.2 * double(k->l2_bytes)) {
            EXPECT_GT(reread, 0.25 * bytes) << bytes;
        }
    }
}

// How long a dirty line stays in L2 (the DRAM write model, docs/models/dram-waves.md "DRAM
// writes"): W bytes stored once (whole sectors, each by one SM), then a set read either by one
// CTA on every SM (as the strips of A and B are) or once; the counted DRAM writes are the stored
// lines the reads pushed out. The sweep over the set's size is printed
// (docs/validation/<gpu>-l2-dirty-capacity.log); asserted are the two ends: behind a quarter of
// half the L2 of reads nothing leaves (under 2 % of W plus the 1 MB an idle window may hold),
// behind 1.5 × half the L2 read on every SM almost all of it does (over 3/4 of W).
TEST_F(Collector, DirtyLinesLeaveL2AfterAboutHalfItsSizeOfReads) {
    const double half = 0.5 * double(k->l2_bytes);
    for (const bool everywhere : {true, false})
        for (const std::size_t w : {std::size_t(4) << 20, std::size_t(16) << 20}) {
            const std::size_t stored = std::min(k->dirty.size(), w / sizeof(float));
            const double w_bytes = double(stored) * sizeof(float);
            for (const double f :
                 {0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0, 1.1, 1.25, 1.5, 2.0}) {
                const std::size_t n =
                    std::min(k->data.size(), std::size_t(f * half / sizeof(float)) / 32 * 32);
                const double bytes = double(n) * sizeof(float);
                const auto v = k->session.collect(flush, [&] {
                    probe::store(k->dirty.get(), stored, k->stream.get());
                    if (everywhere)
                        k->read_everywhere(n);
                    else
                        probe::touch(k->data.get(), n, k->data.get() + k->data.size() - 1,
                                     k->stream.get());
                });
                const double written = v.values.at("dram_write_bytes");
                std::printf(
                    "stored %5.1f MB, then read %6.1f MB = %.2f x half the L2 %s: DRAM "
                    "writes %7.2f MB = %.3f of the stored\n",
                    w_bytes / 1e6, bytes / 1e6, bytes / half, everywhere ? "on every SM" : "once",
                    written / 1e6, written / w_bytes);
                if (f == 0.25) {
                    EXPECT_LT(written, 0.02 * w_bytes + 1e6) << w_bytes << " " << bytes;
                }
                if (everywhere && f == 1.5 && bytes >= 1.5 * half * 0.99) {
                    EXPECT_GT(written, 0.75 * w_bytes) << w_bytes << " " << bytes;
                }
            }
        }
}

// Which stores of parts of one sector L2 counts once (the L2 write model's band,
// docs/models/l2.md): 16 MiB stored in requests that each write part of a sector, in six
// patterns (tests/collect/probe_kernels.hpp). L2 counts a store at the SM's partition and again
// at the home when that is the other one (× 1.5, Collector.L2PartitionsOnKnownTraffic), so its
// writes lie between 1.5 × the 16 MiB (parts merged into one write per sector) and 1.5 × the L1's
// store sectors (none merged). Printed (docs/validation/<gpu>-l2-partial-stores.log) with the
// share merged; asserted are those two ends, within 5 %.
TEST_F(Collector, PartialSectorStoresAtL2) {
    using probe::part_pattern;
    const std::pair<part_pattern, const char*> patterns[] = {
        {part_pattern::halves_adjacent, "16 B halves, next store"},
        {part_pattern::halves_apart, "16 B halves, one store between"},
        {part_pattern::quarters_adjacent, "4 B lanes, 16 B halves, next store"},
        {part_pattern::quarters_apart, "4 B lanes, 16 B halves, one store between"},
        {part_pattern::eighths_adjacent, "4 B eighths, 8 stores in a row"},
        {part_pattern::eighths_by_warps, "4 B eighths, each by another warp"},
        {part_pattern::halves_loaded_first, "16 B halves, next store, loaded first"},
        {part_pattern::halves_rmw, "16 B halves, each loaded then stored"},
        {part_pattern::quarters_apart_rmw, "4 B lanes, one between, each loaded"},
    };
    for (const auto& [pattern, what] : patterns) {
        const auto r = count_part_stores(pattern, what);
        std::printf(
            "%-42s L1 store %6.1f MB = %.2f x C; L2 writes %6.1f MB = %.3f x 1.5 C; "
            "merged %.3f\n",
            what, r.l1 / 1e6, r.l1 / r.c, r.l2 / 1e6, r.l2 / (1.5 * r.c), r.merged);
        EXPECT_GT(r.l1, 1.9 * r.c) << what;
    }
}

// Whether other warps storing on the same SM decide the merging (docs/models/l2.md,
// "Partial-sector stores"): the patterns the rungs' epilogues are nearest to, 16 B halves back to
// back (as vectorized's, read first or not) and 4-byte lanes with each part read just before it
// is stored (as bf16_mma's), stored by one warp per SM, by 8 and by 32. Printed
// (docs/validation/<gpu>-l2-partial-stores.log); asserted are the two ends, as above.
TEST_F(Collector, PartialSectorStoresByFewAndManyWarps) {
    using probe::part_pattern;
    const std::pair<part_pattern, const char*> patterns[] = {
        {part_pattern::halves_adjacent, "16 B halves, next store"},
        {part_pattern::halves_loaded_first, "16 B halves, next store, loaded first"},
        {part_pattern::quarters_apart_rmw, "4 B lanes, one between, each loaded"},
    };
    const std::pair<int, int> launches[] = {
        {k->sm_count, 32}, {k->sm_count, 256}, {4 * k->sm_count, 256}};
    for (const auto& [pattern, what] : patterns)
        for (const auto& [ctas, threads] : launches) {
            const auto r = count_part_stores(pattern, what, ctas, threads);
            std::printf("%-38s %4d CTAs x %3d threads (%2d warps per SM): merged %.3f\n", what,
                        ctas, threads, ctas * threads / 32 / k->sm_count, r.merged);
        }
}

// Which L2 partition each SM is attached to, by the fabric (docs/models/l2.md): 16 MiB read by
// SM s after a flush, then, counted, by SM 0. A partition keeps its copy of a line homed in the
// other one, so when s and SM 0 share a partition SM 0 finds every line there; when not, it
// fetches the half homed in the other partition over the fabric again (8.4 MB). Printed
// (docs/validation/<gpu>-l2-partition-map.log): each SM's fabric bytes less the idle window's, and
// the SMs on SM 0's side. Asserted: each SM falls clearly on one side (under 15 % or 35-65 % of
// the buffer), each side holds 40-60 % of the SMs, and the two SMs of a TPC (2j, 2j + 1) share
// one.
TEST_F(Collector, EachSmReadsThroughOneOfTwoL2Partitions) {
    const std::size_t n = (16u << 20) / sizeof(float);
    const double bytes = double(n) * sizeof(float);
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, k->device);
    const int smem = smem_per_sm - 2048;
    const auto read_on = [&](int sm) {
        probe::read_on_sm(k->data.get(), n, k->data.get() + k->data.size() - 1, sm, k->sm_count,
                          smem, k->stream.get());
    };
    const double window =
        k->session.collect(flush, [&] { k->spin(100000); }).values.at("l2_fabric_bytes");
    std::vector<int> side(std::size_t(k->sm_count), -1);  // 0: SM 0's partition, 1: the other
    for (int sm = 0; sm < k->sm_count; ++sm) {
        const auto v = k->session.collect(
            [&] {
                k->flush();
                read_on(sm);
            },
            [&] { read_on(0); });
        const double extra = v.values.at("l2_fabric_bytes") - window;
        const double share = extra / bytes;
        std::printf("SM %3d, then SM 0: fabric bytes less the window %7.2f MB = %.3f of the read\n",
                    sm, extra / 1e6, share);
        if (share < 0.15) side[std::size_t(sm)] = 0;
        if (share > 0.35 && share < 0.65) side[std::size_t(sm)] = 1;
        EXPECT_NE(side[std::size_t(sm)], -1) << "SM " << sm << ": " << share;
    }
    EXPECT_EQ(side[0], 0);
    const auto near = std::count(side.begin(), side.end(), 0);
    EXPECT_GE(near, 0.4 * k->sm_count);
    EXPECT_LE(near, 0.6 * k->sm_count);
    for (int sm = 0; sm + 1 < k->sm_count; sm += 2)
        EXPECT_EQ(side[std::size_t(sm)], side[std::size_t(sm + 1)]) << "TPC of SMs " << sm;
    std::printf("SMs on SM 0's side (%ld):", long(near));
    for (int sm = 0; sm < k->sm_count; ++sm)
        if (side[std::size_t(sm)] == 0) std::printf(" %d", sm);
    std::printf("\n");
}

// What the range around a counted launch adds (docs/cupti.md, "User ranges and kernel ranges"):
// the known-traffic kernels counted in a user range pushed around the launch and in CUPTI's
// automatic range of the kernel, after the same preparation; a batch whose preparations copy
// 16 MB (as the restore of C does) before the flush checks that the copy gets no range of its
// own, and a batch with a launch of two kernels is counted again launch by launch. Printed
// (docs/validation/<gpu>-cupti-ranges.log); asserted: the kernel range holds the known traffic,
// its idle window no more than the user range's, and the recounted batch each launch's own.
TEST_F(Collector, KernelRangesCountTheKernelAlone) {
    const auto spin_user = k->session.collect(flush, [&] { k->spin(100000); });
    const auto read_user = k->session.collect(flush, read64);
    const auto every_user = k->session.collect(flush, [&] { k->read8_everywhere(); });
    print("user range: spin 50 us", spin_user);
    print("user range: read 64 MB", read_user);
    print("user range: read 8 MB on every SM", every_user);
    count_kernel_ranges();
    const auto spin = k->session.collect(flush, [&] { k->spin(100000); });
    const auto read = k->session.collect(flush, read64);
    const auto every = k->session.collect(flush, [&] { k->read8_everywhere(); });
    const auto store = k->session.collect(flush, [&] { k->store64(); });
    print("kernel range: spin 50 us", spin);
    print("kernel range: read 64 MB", read);
    print("kernel range: read 8 MB on every SM", every);
    print("kernel range: store 64 MB", store);
    const std::function<void()> copy_then_flush = [this] {
        cudaMemcpyAsync(k->dirty.get(), k->data.get(), k->dirty.bytes(), cudaMemcpyDeviceToDevice,
                        k->stream.get());
        k->flush();
    };
    const auto batch = k->session.collect(
        std::vector<counter_job>{{copy_then_flush, read64}, {copy_then_flush, spin_long}});
    print("kernel range, batch: read 64 MB", batch[0]);
    print("kernel range, batch: spin 20 ms", batch[1]);
    // A launch of two kernels in a batch: its ranges cannot be told from the next launch's, so
    // the batch is counted again launch by launch (counter_session.cpp, collect_one_pass).
    const auto twice = k->session.collect(std::vector<counter_job>{{flush,
                                                                    [&] {
                                                                        k->read64();
                                                                        k->read64();
                                                                    }},
                                                                   {flush, read64}});
    print("kernel range, batch: read 64 MB twice", twice[0]);
    print("kernel range, batch: read 64 MB after it", twice[1]);
    const double mb64 = 64.0 * (1 << 20);
    EXPECT_NEAR(read.values.at("dram_read_bytes"), mb64, 0.02 * mb64);
    EXPECT_NEAR(read.values.at("l2_tex_bytes"), mb64, 0.02 * mb64);
    EXPECT_NEAR(batch[0].values.at("dram_read_bytes"), mb64, 0.02 * mb64);
    EXPECT_LT(batch[1].values.at("dram_read_bytes"), 1e6);
    EXPECT_LE(spin.values.at("l2_bytes"), spin_user.values.at("l2_bytes") + 1e5);
    // Both reads reach L2 (128 MB from L1), at least the first from DRAM; the launch after it
    // reads its own 64 MB, and each was launched as often as a launch counted alone.
    EXPECT_NEAR(twice[0].values.at("l2_tex_bytes"), 2 * mb64, 0.02 * 2 * mb64);
    EXPECT_GE(twice[0].values.at("dram_read_bytes"), 0.98 * mb64);
    EXPECT_NEAR(twice[1].values.at("dram_read_bytes"), mb64, 0.02 * mb64);
    EXPECT_EQ(twice[0].launches, read.launches);
    EXPECT_EQ(twice[1].launches, read.launches);
}
