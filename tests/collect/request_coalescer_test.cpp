// The L2 request coalescer (LRC) merges read requests for one sector that reach it from several
// SMs together (docs/models/l2.md, "What the SMs read from L2"): between which SMs, and how close
// in time? The GEMM rungs merge 0.3-62 % of their requests, a share the launch alone does not
// fix. Here SMs read one 8 MiB buffer each, released together by atomics and then offset by a
// chosen skew, after a flush (cold: the first request of each sector waits on DRAM) or after the
// buffer was read once (warm: it waits on an L2 hit). Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/l2_flush.hpp"
#include "env_list.hpp"
#include "probe_kernels.hpp"

using namespace tgemm;

namespace {

struct in_step_read {
    std::vector<int> sms;  // the readers, in the order of their skews
    long long skew_ns = 0;
    bool warm = false;
    std::size_t chunk_floats = 0;  // > 0: read in steps of this many floats (read_in_steps)
    long long pause_ns = 0;        // the wait after each step
    long long period_ns = 0;       // > 0: steps on a schedule this far apart (read_on_schedule)
};

struct coalesced {
    double requested = 0, merged = 0, fabric = 0, duration_ns = 0;
    double began_within_ns = 0;  // first to last reader's start, measured
};

class RequestCoalescer : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto probe = probe_local_device();
        if (!probe.device) GTEST_SKIP() << "no GPU: " << probe.why_none;
        device = probe.device->index;
        cudaSetDevice(device);
        cudaFree(nullptr);
        sms = probe.device->info.sm_count;
        int khz = 0;
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device);
        cycles_per_ns = khz / 1e6;
        int smem_per_sm = 0;
        cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
        smem = smem_per_sm - 2048;
        stream = std::make_unique<cuda_stream>();
        session = std::make_unique<counter_session>(device);
        scratch = device_buffer(4 * std::size_t(probe.device->info.l2_bytes) / sizeof(float));
        data = device_buffer(buffer_bytes / sizeof(float) + 32);
        cudaMemset(scratch.get(), 0, scratch.bytes());
        cudaMemset(data.get(), 0, data.bytes());
    }

    // Counts every read, batched as the tool batches its pairs (one profiler start per group).
    std::vector<coalesced> count(const std::vector<in_step_read>& reads,
                                 std::size_t bytes = std::size_t(buffer_bytes)) {
        // Per read: the SM -> order map, the start times, the arrival counter and the schedule's
        // base (a sector of their own); even, so that every slice's 64-bit words stay aligned.
        const std::size_t slice = (3 * std::size_t(sms) + 32 + 1) / 2 * 2;
        const std::size_t base_at = (3 * std::size_t(sms) + 2 + 1) / 2 * 2;
        const device_buffer state(slice * reads.size());
        std::vector<int> order(static_cast<std::size_t>(sms));
        for (std::size_t r = 0; r < reads.size(); ++r) {
            std::fill(order.begin(), order.end(), -1);
            for (std::size_t i = 0; i < reads[r].sms.size(); ++i)
                order[std::size_t(reads[r].sms[i])] = int(i);
            cudaMemcpy(state.get() + r * slice, order.data(), order.size() * sizeof(int),
                       cudaMemcpyHostToDevice);
        }
        std::vector<counter_job> jobs;
        for (std::size_t r = 0; r < reads.size(); ++r) {
            float* base = state.get() + r * slice;
            const auto* ord = reinterpret_cast<const int*>(base);
            auto* began = reinterpret_cast<unsigned long long*>(base + sms);
            auto* arrivals = reinterpret_cast<unsigned*>(base + 3 * std::size_t(sms));
            auto* schedule = reinterpret_cast<unsigned long long*>(base + base_at);
            const in_step_read& rd = reads[r];
            const auto skew = static_cast<long long>(double(rd.skew_ns) * cycles_per_ns);
            jobs.push_back(
                {[this, arrivals, schedule, warm = rd.warm] {
                     flush_l2(scratch.get(), scratch.size(), stream->get());
                     if (warm)
                         probe::touch(data.get(), buffer_bytes / sizeof(float), data.get(),
                                      stream->get());
                     cudaMemsetAsync(arrivals, 0, sizeof(unsigned), stream->get());
                     cudaMemsetAsync(schedule, 0, sizeof(unsigned long long), stream->get());
                 },
                 [this, ord, began, arrivals, schedule, skew, n = int(rd.sms.size()),
                  chunk = rd.chunk_floats, floats = bytes / sizeof(float),
                  pause = static_cast<long long>(double(rd.pause_ns) * cycles_per_ns),
                  period = rd.period_ns, skew_ns = rd.skew_ns] {
                     float* sink = data.get() + data.size() - 1;
                     if (period > 0)
                         probe::read_on_schedule(data.get(), floats, chunk, period, ord, n, skew_ns,
                                                 arrivals, schedule, began, sink, sms, smem,
                                                 stream->get());
                     else if (chunk > 0)
                         probe::read_in_steps(data.get(), floats, chunk, pause, ord, n, skew,
                                              arrivals, began, sink, sms, smem, stream->get());
                     else
                         probe::read_in_step(data.get(), floats, ord, n, skew, arrivals, began,
                                             sink, sms, smem, stream->get());
                 },
                 false, warm_kernels(rd.warm)});
        }
        std::vector<coalesced> out;
        constexpr std::size_t batch = 32;
        for (std::size_t first = 0; first < jobs.size(); first += batch) {
            const std::vector<counter_job> part(
                jobs.begin() + long(first),
                jobs.begin() + long(std::min(jobs.size(), first + batch)));
            for (const auto& v : session->collect(part))
                out.push_back({v.values.at("l2_requested_bytes"), v.values.at("l2_coalesced_bytes"),
                               v.values.at("l2_fabric_bytes"), v.values.at("duration_ns")});
        }
        cudaStreamSynchronize(stream->get());
        std::vector<unsigned long long> began(static_cast<std::size_t>(sms));
        for (std::size_t r = 0; r < reads.size(); ++r) {
            const std::size_t k = reads[r].sms.size();
            cudaMemcpy(began.data(), state.get() + r * slice + sms, k * sizeof(began[0]),
                       cudaMemcpyDeviceToHost);
            const auto [lo, hi] = std::minmax_element(began.begin(), began.begin() + long(k));
            out[r].began_within_ns = double(*hi - *lo);
        }
        return out;
    }

    static int warm_kernels(bool warm) { return warm ? 2 : 1; }

    void print_and_check(const std::string& what, const in_step_read& rd, const coalesced& c) {
        const double k = double(rd.sms.size());
        const double most = (k - 1) / k * c.requested;
        std::printf(
            "%-26s %3zu readers, skew %6.2f us, %s: requested %7.2f MB = %.3f x readers x buffer; "
            "merged %7.2f MB = %.3f of requests, %.3f of the most; fabric %6.2f MB; began "
            "within %6.2f us; %7.1f us\n",
            what.c_str(), rd.sms.size(), double(rd.skew_ns) / 1e3, rd.warm ? "warm" : "cold",
            c.requested / 1e6, c.requested / (k * buffer_bytes), c.merged / 1e6,
            c.merged / c.requested, most > 0 ? c.merged / most : 0.0, c.fabric / 1e6,
            c.began_within_ns / 1e3, c.duration_ns / 1e3);
        // Each reader misses each sector of the buffer in its L1 once: the coalescer's input.
        EXPECT_NEAR(c.requested, k * buffer_bytes, 0.03 * k * buffer_bytes) << what;
        // It merges at most all but one request per sector.
        EXPECT_LE(c.merged, most + 0.01 * c.requested) << what;
    }

    static constexpr double buffer_bytes = 8.0 * (1 << 20);
    int device = 0;
    int sms = 0;
    int smem = 0;
    double cycles_per_ns = 1;
    std::unique_ptr<cuda_stream> stream;  // made in SetUp, once a GPU is known
    std::unique_ptr<counter_session> session;
    device_buffer scratch, data;
};

std::vector<int> first_sms(int k) {
    std::vector<int> v(std::size_t(k), 0);
    for (int i = 0; i < k; ++i) v[std::size_t(i)] = i;
    return v;
}

}  // namespace

// How many SMs, reading together: SMs 0 ... k - 1 with no skew, cold and warm. One reader has
// nothing to merge with (asserted: under 1 % of its requests).
TEST_F(RequestCoalescer, ReadersTogether) {
    std::vector<in_step_read> reads;
    for (const bool warm : {false, true})
        for (const int k : {1, 2, 4, 8, 16, 32, 66, sms}) reads.push_back({first_sms(k), 0, warm});
    const auto got = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r) {
        print_and_check("SMs 0 ... k-1 together", reads[r], got[r]);
        if (reads[r].sms.size() == 1) {
            EXPECT_LT(got[r].merged, 0.01 * got[r].requested);
        }
    }
}

// Between which SMs: SM 0 and SM x together, cold, for every x. The fabric bytes say whether x
// reads through SM 0's L2 partition (about half the buffer crosses) or the other (all of it).
TEST_F(RequestCoalescer, PairsWithSmZero) {
    std::vector<in_step_read> reads;
    for (int x = 1; x < sms; ++x) reads.push_back({{0, x}, 0, false});
    const auto got = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r)
        print_and_check("SM 0 and SM " + std::to_string(reads[r].sms[1]), reads[r], got[r]);
    std::printf("merged share of the most, SM 0 with SM 1 ... %d:", sms - 1);
    for (std::size_t r = 0; r < reads.size(); ++r)
        std::printf(" %.2f", got[r].merged / (0.5 * got[r].requested));
    std::printf("\n");
}

// How close in time: SM 0 and SM x, x started `skew` later, cold and warm; x: its TPC partner
// (1), SMs on SM 0's partition (8, 16) and one on the other (2), as the partition map has them
// (docs/validation/<gpu>-l2-partition-map.log). And every SM, each `skew` after the one before.
TEST_F(RequestCoalescer, Skew) {
    std::vector<in_step_read> reads;
    const long long skews[] = {0, 250, 500, 1000, 2000, 4000, 8000, 16000};
    for (const bool warm : {false, true}) {
        for (const int x : {1, 8, 16, 2})
            for (const long long s : skews) reads.push_back({{0, x}, s, warm});
        for (const long long s : {0LL, 100LL, 250LL, 500LL, 1000LL})
            reads.push_back({first_sms(sms), s, warm});
    }
    const auto got = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r) {
        const auto& rd = reads[r];
        const std::string what = rd.sms.size() == 2 ? "SM 0, then SM " + std::to_string(rd.sms[1])
                                                    : "every SM, one after another";
        print_and_check(what, rd, got[r]);
    }
}

// Which SMs merge with which: the coalescing domains. The two SMs of a TPC (2t, 2t + 1) first;
// then, TPC by TPC, the first TPC not yet placed read together with every other one not yet
// placed (1 MiB each, cold): those whose requests merge with it are its domain. Then the first
// domain's SMs read together, 2 ... all of them, cold and warm: how many requests for one sector
// merge. Printed (docs/validation/<gpu>-request-coalescer.log); asserted: every TPC's two SMs
// merge, and the domains cover every SM once.
TEST_F(RequestCoalescer, Domains) {
    const auto merges = [](const coalesced& c) { return c.merged > 0.25 * c.requested; };
    std::vector<in_step_read> tpcs;
    for (int t = 0; 2 * t + 1 < sms; ++t) tpcs.push_back({{2 * t, 2 * t + 1}, 0, false});
    const auto got = count(tpcs, 1 << 20);
    for (std::size_t r = 0; r < tpcs.size(); ++r) {
        EXPECT_TRUE(merges(got[r])) << "SMs " << tpcs[r].sms[0] << " and " << tpcs[r].sms[1];
    }
    std::vector<int> left;  // TPCs not placed yet
    for (int t = 0; 2 * t + 1 < sms; ++t) left.push_back(t);
    std::vector<std::vector<int>> domains;  // SMs
    while (!left.empty()) {
        const int t = left.front();
        std::vector<in_step_read> pairs;
        for (std::size_t i = 1; i < left.size(); ++i)
            pairs.push_back({{2 * t, 2 * left[i]}, 0, false});
        const auto res = count(pairs, 1 << 20);
        std::vector<int> domain{2 * t, 2 * t + 1}, rest;
        for (std::size_t i = 1; i < left.size(); ++i) {
            if (merges(res[i - 1])) {
                domain.push_back(2 * left[i]);
                domain.push_back(2 * left[i] + 1);
            } else {
                rest.push_back(left[i]);
            }
        }
        domains.push_back(domain);
        left = rest;
    }
    std::vector<int> domain_of(std::size_t(sms), -1);
    for (std::size_t d = 0; d < domains.size(); ++d) {
        std::printf("domain %2zu (%2zu SMs):", d, domains[d].size());
        for (const int s : domains[d]) {
            std::printf(" %d", s);
            EXPECT_EQ(domain_of[std::size_t(s)], -1) << "SM " << s;
            domain_of[std::size_t(s)] = int(d);
        }
        std::printf("\n");
    }
    for (int s = 0; s < sms; ++s) EXPECT_NE(domain_of[std::size_t(s)], -1) << "SM " << s;
    std::printf("domain of SM 0 ... %d:", sms - 1);
    for (const int d : domain_of) std::printf(" %d", d);
    std::printf("\n");

    // How many requests for one sector merge: j SMs of the first domain together.
    std::vector<in_step_read> reads;
    for (const bool warm : {false, true})
        for (std::size_t j = 2; j <= domains[0].size(); ++j)
            reads.push_back(
                {std::vector<int>(domains[0].begin(), domains[0].begin() + long(j)), 0, warm});
    const auto in_domain = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r)
        print_and_check("first domain's SMs", reads[r], in_domain[r]);
}

// How far apart in time two requests for a sector may come and still merge, with readers that
// cannot fall into step: SM 0 and SM 1 (one TPC), SM 0 and SM 16 (one domain, two TPCs), and SMs
// 0 1 16 17, each `skew` after the one before, read the buffer in steps of 4 KiB on a schedule of
// one step every 4 us (read_on_schedule), cold and warm; TGEMM_LRC_SCHEDULE lists the skews (ns).
// A GEMM's co-readers of a strip reach each step of K at times that differ by how far they drift
// (tests/collect/cta_steps_test.cpp); this is the share of their requests the coalescer merges at
// each such offset (docs/models/l2.md, "The request coalescer"). Printed; asserted as every
// count here, and the window as measured (all of a pair merged 64 ns apart cold, none 768 ns
// apart cold or 192 ns apart warm).
TEST_F(RequestCoalescer, OnASchedule) {
    const auto list = test::env_list("TGEMM_LRC_SCHEDULE");
    if (list.empty()) GTEST_SKIP() << "TGEMM_LRC_SCHEDULE lists no skews";
    std::vector<in_step_read> reads;
    for (const auto& item : list)
        for (const bool warm : {false, true})
            for (const auto& sms_read :
                 std::vector<std::vector<int>>{{0, 1}, {0, 16}, {0, 1, 16, 17}})
                reads.push_back({sms_read, std::stoll(item), warm, 1024, 0, 4000});
    const auto got = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r) {
        std::string who;
        for (const int sm : reads[r].sms) who += (who.empty() ? "SMs " : " ") + std::to_string(sm);
        print_and_check(who + " on a schedule", reads[r], got[r]);
        // The window measured on both GPUs (docs/models/l2.md, "The request coalescer", point
        // 5): a pair 64 ns apart merges all of the second's requests when the first waits on
        // DRAM; none 768 ns apart, nor 192 ns apart on L2 hits.
        if (reads[r].sms.size() != 2) continue;
        const double most = 0.5 * got[r].requested;
        const long long skew = reads[r].skew_ns;
        if (!reads[r].warm && skew <= 64) {
            EXPECT_GE(got[r].merged, 0.95 * most) << who << " " << skew;
        }
        if (reads[r].warm ? skew >= 192 : skew >= 768) {
            EXPECT_LE(got[r].merged, 0.02 * most) << who << " " << skew;
        }
    }
}

// How much a GEMM's K loop lets merge: 4 and 8 SMs of the first domain (SMs 0 1 16 17 32 33 48 49
// on both GPUs) read the buffer together in steps of 4 or 32 KiB, waiting 0-4 us after each step
// as a CTA computes between its tiles' loads, cold and warm; with TGEMM_LRC_STEPS a list of skews
// (ns, each reader that much after the one before; 1 for none), 4 readers in steps of 4 KiB at
// each skew. Runs when TGEMM_LRC_STEPS is set
// (docs/validation/<gpu>-request-coalescer-steps.log; docs/models/l2.md, "The request
// coalescer"). Printed; asserted as every count here.
TEST_F(RequestCoalescer, StepsWithPauses) {
    if (!std::getenv("TGEMM_LRC_STEPS")) GTEST_SKIP() << "TGEMM_LRC_STEPS is not set";
    const std::vector<int> domain0 = {0, 1, 16, 17, 32, 33, 48, 49};
    // TGEMM_LRC_STEPS lists the skews (ns) between one reader's start and the next's; "1": none.
    std::vector<long long> skews;
    for (const auto& item : test::env_list("TGEMM_LRC_STEPS")) skews.push_back(std::stoll(item));
    if (skews.size() == 1 && skews[0] == 1) skews = {0};
    std::vector<in_step_read> reads;
    for (const long long skew : skews)
        for (const bool warm : {false, true})
            for (const std::size_t j : {4, 8})
                for (const std::size_t kib : {4, 32})
                    for (const long long pause : {0LL, 250LL, 1000LL, 4000LL}) {
                        if (skew > 0 && (j != 4 || kib != 4)) continue;  // one geometry skewed
                        reads.push_back(
                            {std::vector<int>(domain0.begin(), domain0.begin() + long(j)), skew,
                             warm, kib * 256, pause});
                    }
    const auto got = count(reads);
    for (std::size_t r = 0; r < reads.size(); ++r)
        print_and_check("steps of " + std::to_string(reads[r].chunk_floats / 256) + " KiB, pause " +
                            std::to_string(reads[r].pause_ns) + " ns",
                        reads[r], got[r]);
}
