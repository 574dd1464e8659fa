// Whether the CTAs that share an SM stay in step or drift apart, seen directly: the DRAM wave
// model takes naive's two CTAs per SM as one wave of 2 × SMs crossing K together and
// smem_tiling's, with the same 32 × 32 tiles and grid, as groups of one CTA per SM at unrelated
// points of K (kernels/reg_tiling_model.hpp, estimate_drifting_dram), from their DRAM reads at
// 4096³ alone (B read 62 and 124 times). Here each CTA of the two rungs' own bodies
// (kernels/tile32_bodies.cuh) records its SM, start and end; printed per shape
// (docs/validation/<gpu>-cta-drift.log, docs/models/dram-waves.md):
// - the DRAM reads of the rung and of the traced kernel, each after the tool's preparation, so
//   that the trace is seen not to change what it observes;
// - for every CTA, how far apart in time it and the CTA it shares its SM with longest started,
//   in units of its own lifetime (0: in step; 0.5: the one half done when the other starts),
//   as deciles, over the whole launch and over its first and last quarter;
// - in the first wave, when the earlier of an SM's two CTAs ends, as a share of the later one's
//   lifetime (1: they end together).
// Runs when TGEMM_CTA_DRIFT lists the shapes. Asserted only that every CTA ran, on as many SMs
// as the GPU has, two at a time as the rung. Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/cuda_handles.hpp"
#include "core/shape.hpp"
#include "cta_drift_kernels.hpp"

using namespace tgemm;

using tgemm::test::CapacityEdge;

namespace {

// Deciles 1 … 9 of `v` (sorted here), "-" where empty.
std::string deciles(std::vector<double> v) {
    if (v.empty()) return "-";
    std::sort(v.begin(), v.end());
    std::string s;
    for (int d = 1; d <= 9; ++d) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%s%.2f", d > 1 ? " " : "", v[v.size() * d / 10]);
        s += buf;
    }
    return s;
}

struct drift_summary {
    std::vector<double> offset_all, offset_first_quarter, offset_last_quarter;
    std::vector<double> first_wave_end_share;
    double life_median_us = 0;
    int sms = 0;
    int most_at_once = 0;
};

drift_summary summarize(const std::vector<probe::cta_span>& spans) {
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
                if (o.start_ns <= x.start_ns && x.start_ns < o.end_ns) ++at_once;
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
        // The first wave: the SM's CTAs that started within a microsecond of the launch.
        std::vector<probe::cta_span> first;
        for (const auto& c : list)
            if (c.start_ns - t0 < 1000) first.push_back(c);
        if (first.size() == 2) {
            const auto& a = first[0].end_ns < first[1].end_ns ? first[0] : first[1];
            const auto& b = first[0].end_ns < first[1].end_ns ? first[1] : first[0];
            d.first_wave_end_share.push_back(double(a.end_ns - b.start_ns) /
                                             double(b.end_ns - b.start_ns));
        }
    }
    return d;
}

}  // namespace

TEST_F(CapacityEdge, CtasSharingAnSmInStepOrDrifting) {
    const auto list = test::env_list("TGEMM_CTA_DRIFT");
    if (list.empty()) GTEST_SKIP() << "TGEMM_CTA_DRIFT names no shapes";
    const auto scratch = flush_scratch();
    for (const auto& item : list) {
        const shape s = parse_shape(item);
        for (const auto body : {probe::tile32_body::naive, probe::tile32_body::smem_tiling}) {
            const bool naive = body == probe::tile32_body::naive;
            const test::edge_row row{naive ? "naive" : "smem_tiling", s};
            ASSERT_EQ(probe::traced_tile32_ctas_per_sm(body), 2) << row.kernel;
            const auto w = make(row);
            const auto args = w->args();
            const std::size_t ctas = std::size_t((s.m + 31) / 32) * std::size_t((s.n + 31) / 32);
            const device_buffer trace(ctas * sizeof(probe::cta_span) / sizeof(float) + 1);
            auto* out = static_cast<probe::cta_span*>(trace.raw());
            const auto rung = rung_registry::get()
                                  .find(row.kernel)
                                  .bind(args, launch_context{stream->get(), nullptr});
            const auto traced = [&] {
                probe::launch_traced_tile32(body, args, out, stream->get());
            };
            const auto prepare = [&] {
                w->restore_c();
                w->flush_l2();
            };
            const auto counts = counters().collect(
                std::vector<counter_job>{counter_job{prepare, rung}, counter_job{prepare, traced}});
            ASSERT_EQ(counts.size(), 2u);
            prepare();
            traced();
            std::vector<probe::cta_span> spans(ctas);
            ASSERT_EQ(cudaMemcpyAsync(spans.data(), out, ctas * sizeof(probe::cta_span),
                                      cudaMemcpyDeviceToHost, stream->get()),
                      cudaSuccess);
            ASSERT_EQ(cudaStreamSynchronize(stream->get()), cudaSuccess);
            for (const auto& c : spans) ASSERT_GE(c.sm, 0) << row.kernel << " " << item;
            const auto d = summarize(spans);
            EXPECT_EQ(d.sms, dev.info.sm_count) << row.kernel << " " << item;
            EXPECT_LE(d.most_at_once, 2) << row.kernel << " " << item;
            std::printf(
                "%-11s %s: DRAM reads %.1f MB (rung), %.1f MB (traced), %.1f / %.1f us; "
                "%zu CTAs, lifetime median %.1f us\n",
                row.kernel.c_str(), item.c_str(), counts[0].values.at("dram_read_bytes") / 1e6,
                counts[1].values.at("dram_read_bytes") / 1e6,
                counts[0].values.at("duration_ns") / 1e3, counts[1].values.at("duration_ns") / 1e3,
                ctas, d.life_median_us);
            std::printf("  start offset to the SM's other CTA (lifetimes), deciles: %s\n",
                        deciles(d.offset_all).c_str());
            std::printf("    first quarter of the launch: %s\n",
                        deciles(d.offset_first_quarter).c_str());
            std::printf("    last quarter:                %s\n",
                        deciles(d.offset_last_quarter).c_str());
            std::printf("  first wave, the earlier CTA's end as a share of the later's life: %s\n",
                        deciles(d.first_wave_end_share).c_str());
        }
    }
}
