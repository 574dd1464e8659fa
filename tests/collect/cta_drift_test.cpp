// Whether the CTAs that share an SM stay in step or drift apart, seen directly. The DRAM wave
// model takes naive's two CTAs per SM, and those of rungs 07-12, as one wave of CTAs per SM x SMs
// crossing K together, and those of rungs 03, 05 and 06 as groups of one CTA per SM at unrelated
// points of K (kernels/reg_tiling_model.hpp, estimate_drifting_dram); until these traces it took
// rung 04 as drifting too, all from their DRAM reads alone (at 4096^3 naive reads B 62 times,
// smem_tiling, with the same 32 x 32 tiles and grid, 124). Here each CTA of a rung's own body
// (kernels/tile32_bodies.cuh, 04_thread_tiling.cuh … 10_warptiling.cuh) records its SM, start and
// end; printed per rung and shape (docs/validation/<gpu>-cta-drift.log, docs/models/dram-waves.md):
// - the DRAM reads of the rung and of the traced kernel, each after the tool's preparation, so
//   that the trace is seen not to change what it observes;
// - for every CTA, how far apart in time it and the CTA it shares its SM with longest started,
//   in units of its own lifetime (0: in step; 0.5: one half done when the other starts), as
//   deciles, over the whole launch and over its first and last quarter;
// - in the first wave, when the first of an SM's CTAs ends, as a share of when its last one
//   does (1: they end together);
// - across SMs, how far apart the CTAs of each wave in launch order start.
// Runs when TGEMM_CTA_DRIFT lists the shapes (TGEMM_CTA_DRIFT_RUNGS the rungs; all nine traced
// by default); TGEMM_CTA_TRACE_DIR, where set, gets each trace as <rung>-<shape>.csv. Asserted: the
// traced kernel runs as many CTAs per SM as the rung's, every CTA ran, on every SM, never more at
// once than that. Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/cuda_handles.hpp"
#include "core/shape.hpp"
#include "cta_drift_kernels.hpp"
#include "deciles.hpp"
#include "rung.hpp"
#include "traced_pair.hpp"

using namespace tgemm;

using tgemm::test::CapacityEdge;
using tgemm::test::deciles;
using tgemm::test::traced_pair;

namespace {

struct drift_summary {
    std::vector<double> offset_all, offset_first_quarter, offset_last_quarter;
    std::vector<double> first_wave_end_share;
    // Per SM with more than one first-wave CTA: when its first and its last of them end (µs).
    std::vector<double> first_wave_first_end_us, first_wave_last_end_us;
    std::vector<double> wave_start_spread;
    double life_median_us = 0;
    int sms = 0;
    int most_at_once = 0;
};

drift_summary summarize(const std::vector<probe::cta_span>& spans, std::size_t wave) {
    drift_summary d;
    std::map<int, std::vector<probe::cta_span>> on_sm;
    unsigned long long t0 = ~0ull, t1 = 0;
    std::vector<double> lives;
    for (const auto& c : spans) {
        on_sm[c.sm].push_back(c);
        t0 = std::min(t0, c.start_ns);
        t1 = std::max(t1, c.end_ns);
        lives.push_back(double(c.end_ns - c.start_ns) / 1e3);
    }
    std::sort(lives.begin(), lives.end());
    d.life_median_us = lives[lives.size() / 2];
    d.sms = int(on_sm.size());
    const double span = double(t1 - t0);
    for (auto& [sm, list] : on_sm) {
        std::sort(list.begin(), list.end(),
                  [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto& x = list[i];
            int at_once = 1;
            double best_overlap = 0, offset = -1;
            for (std::size_t j = 0; j < list.size(); ++j) {
                if (j == i) continue;
                const auto& o = list[j];
                const double lo = double(std::max(x.start_ns, o.start_ns));
                const double hi = double(std::min(x.end_ns, o.end_ns));
                if (hi <= lo) continue;
                // Resident together when x starts: beyond the 2 µs a freed slot takes to refill
                // and %globaltimer's steps.
                if (o.start_ns <= x.start_ns && x.start_ns + 2000 < o.end_ns) ++at_once;
                if (hi - lo > best_overlap) {
                    best_overlap = hi - lo;
                    const double life = double(x.end_ns - x.start_ns);
                    offset = (x.start_ns > o.start_ns ? double(x.start_ns - o.start_ns)
                                                      : double(o.start_ns - x.start_ns)) /
                             life;
                }
            }
            d.most_at_once = std::max(d.most_at_once, at_once);
            if (offset < 0) continue;
            d.offset_all.push_back(offset);
            const double when = double(x.start_ns - t0) / span;
            if (when < 0.25) d.offset_first_quarter.push_back(offset);
            if (when > 0.75) d.offset_last_quarter.push_back(offset);
        }
        // The first wave: the SM's CTAs that started within a microsecond of the launch; when
        // the first of them ends, as a share of the time to the last one's end.
        unsigned long long first_end = ~0ull, last_end = 0;
        int first_wave = 0;
        for (const auto& c : list)
            if (c.start_ns - t0 < 1000) {
                ++first_wave;
                first_end = std::min(first_end, c.end_ns);
                last_end = std::max(last_end, c.end_ns);
            }
        if (first_wave > 1) {
            d.first_wave_end_share.push_back(double(first_end - t0) / double(last_end - t0));
            d.first_wave_first_end_us.push_back(double(first_end - t0) / 1e3);
            d.first_wave_last_end_us.push_back(double(last_end - t0) / 1e3);
        }
    }
    // Across SMs: the CTAs of each run of one wave in launch order, from the second on, start
    // within p90 − p10 of each other (in median lifetimes): 0 where whole waves start together.
    for (std::size_t w0 = wave; w0 + wave <= spans.size(); w0 += wave) {
        std::vector<double> starts;
        for (std::size_t i = w0; i < w0 + wave; ++i) starts.push_back(double(spans[i].start_ns));
        std::sort(starts.begin(), starts.end());
        d.wave_start_spread.push_back((starts[wave * 9 / 10] - starts[wave / 10]) / 1e3 /
                                      d.life_median_us);
    }
    return d;
}

// One line per CTA in launch order: SM, start and end in ns from the launch's first start.
void write_trace(const std::string& path, const std::vector<probe::cta_span>& spans) {
    std::ofstream f(path);
    ASSERT_TRUE(f) << "cannot write " << path;
    unsigned long long t0 = ~0ull;
    for (const auto& c : spans) t0 = std::min(t0, c.start_ns);
    f << "cta,sm,start_ns,end_ns\n";
    for (std::size_t i = 0; i < spans.size(); ++i)
        f << i << ',' << spans[i].sm << ',' << spans[i].start_ns - t0 << ',' << spans[i].end_ns - t0
          << '\n';
}

// The rungs to trace: TGEMM_CTA_DRIFT_RUNGS, or every one with a traced body.
std::vector<std::string> rungs_to_trace() {
    auto ids = test::env_list("TGEMM_CTA_DRIFT_RUNGS");
    if (ids.empty())
        ids = {"naive",          "smem_tiling",   "thread_tiling",
               "outer_product",  "smem_register", "blocktiling_1d",
               "blocktiling_2d", "vectorized",    "warptiling"};
    return ids;
}

// Calls f(shape text, shape, rung id, traced rung) for every shape `list` names and every rung to
// trace.
template <class F>
void for_each_traced(const std::vector<std::string>& list, const F& f) {
    for (const auto& item : list) {
        const shape s = parse_shape(item);
        for (const auto& id : rungs_to_trace()) {
            const auto traced_id = probe::traced_rung_named(id);
            ASSERT_TRUE(traced_id) << id << " has no traced body";
            f(item, s, id, *traced_id);
        }
    }
}

}  // namespace

TEST_F(CapacityEdge, CtasSharingAnSmInStepOrDrifting) {
    const auto list = test::env_list("TGEMM_CTA_DRIFT");
    if (list.empty()) GTEST_SKIP() << "TGEMM_CTA_DRIFT names no shapes";
    const auto scratch = flush_scratch();
    for_each_traced(list, [&](const std::string& item, const shape& s, const std::string& id,
                              probe::traced_rung traced_id) {
        const auto& r = rung_registry::get().find(id);
        // The traced kernel must run as many CTAs per SM as the rung's own.
        int own = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&own, r.config->kernel, r.config->threads, 0);
        const int per_sm = probe::traced_ctas_per_sm(traced_id);
        cudaFuncAttributes attr{};
        cudaFuncGetAttributes(&attr, r.config->kernel);
        ASSERT_EQ(per_sm, own) << id;
        const traced_pair pair(*this, id, s, stream->get());
        const auto rung = r.bind(pair.args(), launch_context{stream->get(), nullptr});
        const auto prepare = [&] { pair.prepare(); };
        const auto counts = counters().collect(std::vector<counter_job>{
            counter_job{prepare, rung}, counter_job{prepare, [&] { pair.launch(); }}});
        ASSERT_EQ(counts.size(), 2u);
        const auto spans = pair.trace();
        const std::size_t ctas = pair.ctas();
        const auto d = summarize(spans, std::size_t(per_sm) * dev.info.sm_count);
        if (const char* dir = std::getenv("TGEMM_CTA_TRACE_DIR"))
            write_trace(std::string(dir) + "/" + id + "-" + item + ".csv", spans);
        EXPECT_EQ(d.sms, std::min<int>(dev.info.sm_count, int(ctas))) << id << " " << item;
        EXPECT_LE(d.most_at_once, per_sm) << id << " " << item;
        std::printf(
            "%-14s %s: %d CTAs per SM (%d registers, traced %d); DRAM reads %.1f MB (rung), "
            "%.1f MB (traced), %.1f / %.1f us; %zu CTAs, lifetime median %.1f us\n",
            id.c_str(), item.c_str(), per_sm, attr.numRegs, probe::traced_registers(traced_id),
            counts[0].values.at("dram_read_bytes") / 1e6,
            counts[1].values.at("dram_read_bytes") / 1e6, counts[0].values.at("duration_ns") / 1e3,
            counts[1].values.at("duration_ns") / 1e3, ctas, d.life_median_us);
        std::printf("  start offset to the SM's other CTA (lifetimes), deciles: %s\n",
                    deciles(d.offset_all).c_str());
        std::printf("    first quarter of the launch: %s\n",
                    deciles(d.offset_first_quarter).c_str());
        std::printf("    last quarter:                %s\n",
                    deciles(d.offset_last_quarter).c_str());
        std::printf("  first wave, when an SM's first CTA ends, as a share of its last's end: %s\n",
                    deciles(d.first_wave_end_share).c_str());
    });
}

// Why some rungs share an SM unevenly: each rung's CTAs alone on their SM (dynamic shared memory
// asked for that admits one CTA per SM; the kernel uses none) against the rung's own launch. If
// the SM's first CTA, favoured by the scheduler, ran as if alone, the first wave's first end
// would come when one CTA alone ends (T1), and the share the drift table prints would be T1 over
// the first wave's last end. Printed per rung and shape (docs/validation/cta-drift/,
// docs/models/dram-waves.md "The schedule seen directly"): the lifetime median alone and shared,
// the first wave's first and last ends, and the two shares. Runs when TGEMM_CTA_ALONE lists the
// shapes. Asserted only that the launch alone holds one CTA per SM. Needs a GPU.
TEST_F(CapacityEdge, CtasAloneOnAnSmAgainstSharingIt) {
    const auto list = test::env_list("TGEMM_CTA_ALONE");
    if (list.empty()) GTEST_SKIP() << "TGEMM_CTA_ALONE names no shapes";
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev.index);
    const int alone_smem = smem_per_sm / 2 + 1024;  // two CTAs' worth no longer fits
    const auto scratch = flush_scratch();
    for_each_traced(list, [&](const std::string& item, const shape& s, const std::string& id,
                              probe::traced_rung traced_id) {
        ASSERT_EQ(probe::traced_ctas_per_sm(traced_id, alone_smem), 1) << id;
        const int per_sm = probe::traced_ctas_per_sm(traced_id);
        const traced_pair pair(*this, id, s, stream->get());
        const auto shared = pair.trace();
        const auto alone = pair.trace(alone_smem);
        const auto wave = std::size_t(per_sm) * dev.info.sm_count;
        const auto d_shared = summarize(shared, wave);
        const auto d_alone = summarize(alone, std::size_t(dev.info.sm_count));
        // The first wave of the shared launch: its first and last ends (median over SMs).
        const auto median = [](std::vector<double> v) {
            if (v.empty()) return 0.0;
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        const double first_end = median(d_shared.first_wave_first_end_us),
                     last_end = median(d_shared.first_wave_last_end_us);
        std::printf(
            "%-14s %s: %d CTAs per SM; lifetime alone %.1f us, shared %.1f us; first wave "
            "ends %.1f / %.1f us: share %.2f, alone over the last end %.2f\n",
            id.c_str(), item.c_str(), per_sm, d_alone.life_median_us, d_shared.life_median_us,
            first_end, last_end, last_end > 0 ? first_end / last_end : 0.0,
            last_end > 0 ? d_alone.life_median_us / last_end : 0.0);
    });
}
