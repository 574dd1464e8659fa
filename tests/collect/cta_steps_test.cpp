// When each CTA reaches each step of K, for the L2 request coalescer (docs/models/l2.md, "The
// request coalescer"). The coalescer merges requests for one sector from SMs of one domain that
// are in flight together; the CTAs of a row of tiles share A's strip and mostly start in one
// domain, yet at 2048^3 the rungs with 128 x 128 tiles merge 9-34 % of their requests, with the
// same grid and placement. How far apart in K those co-readers run is what the CTA lifetimes
// (cta_drift_test.cpp) cannot show. Here a rung's own body (kernels/step_hook.cuh) notes, on
// thread 0 of each CTA, %globaltimer at the top of every step of K, before the step's loads.
// Printed per rung and shape: the coalescer's input and merges of the rung and of the stepped
// kernel, each after the tool's preparation (so that the timestamps are seen not to change what
// they observe; the trace is that of the stepped launch whose merges are printed), and, for the
// CTAs of one row of tiles that started in the first microsecond, how far apart they reach each
// step (deciles over rows and steps, us). TGEMM_CTA_TRACE_DIR, where set, gets each trace as
// <rung>-<shape>-r<launch>-steps.csv (the launch's requests and merges on a first line; then cta,
// sm, start, end, and one column per step, ns from the launch's first start), which
// scripts/probes/cta_steps_table.py reads beside the coalescing domains. Runs when TGEMM_CTA_STEPS
// lists the shapes (TGEMM_CTA_STEPS_RUNGS the rungs; every one whose body takes the hook by
// default; TGEMM_CTA_STEPS_REPEAT launches of each, 1 by default). Asserted: the stepped kernel
// runs as many CTAs per SM as the rung's, every CTA reached every step, in order. Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/counter_session.hpp"
#include "core/shape.hpp"
#include "cta_drift_kernels.hpp"
#include "deciles.hpp"
#include "env_list.hpp"
#include "rung.hpp"
#include "traced_pair.hpp"

using namespace tgemm;

using tgemm::test::CapacityEdge;
using tgemm::test::deciles;
using tgemm::test::traced_pair;

namespace {

// The coalescer's merges (collect/metric_table.cpp, l2_coalesced_bytes).
constexpr const char* coalesced_metric =
    "lrc__request_sectors_op_read_coalescing_achieved_type_hardware";

// A first line with what the coalescer took and merged in this launch (# key value ...), then
// one line per CTA in launch order: SM, start, end, then the time of each step, all in ns from
// the launch's first start.
void write_steps(const std::string& path, const std::vector<probe::cta_span>& spans,
                 const std::vector<unsigned long long>& times, int steps,
                 const std::map<std::string, double, std::less<>>& counted) {
    std::ofstream f(path);
    ASSERT_TRUE(f) << "cannot write " << path;
    f << "# l2_requested_bytes " << counted.at("l2_requested_bytes") << " l2_coalesced_bytes "
      << counted.at("l2_coalesced_bytes") << '\n';
    unsigned long long t0 = ~0ull;
    for (const auto& c : spans) t0 = std::min(t0, c.start_ns);
    f << "cta,sm,start_ns,end_ns";
    for (int i = 0; i < steps; ++i) f << ",s" << i;
    f << '\n';
    for (std::size_t b = 0; b < spans.size(); ++b) {
        f << b << ',' << spans[b].sm << ',' << spans[b].start_ns - t0 << ','
          << spans[b].end_ns - t0;
        for (int i = 0; i < steps; ++i) f << ',' << times[b * std::size_t(steps) + i] - t0;
        f << '\n';
    }
}

// The launches the profiler makes of a rung without tensor cores (one per group it is counted in,
// in order), and which of them counts the coalescer's merges. Nothing when no group counts them.
std::optional<std::pair<std::size_t, std::size_t>> launches_and_merge_launch(
    const counter_session& counters) {
    const auto groups = counters.groups_counted(false);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (const auto& metric : groups[g])
            if (metric.rfind(coalesced_metric, 0) == 0) return std::pair{groups.size(), g};
    return std::nullopt;
}

// For the CTAs of each row of tiles (one strip of A, `row_ctas` CTAs) that started in the launch's
// first microsecond: how far apart the first and last reach each step (us).
std::vector<double> row_spreads(const std::vector<probe::cta_span>& spans,
                                const std::vector<unsigned long long>& times, int steps,
                                std::size_t row_ctas) {
    unsigned long long t0 = ~0ull;
    for (const auto& c : spans) t0 = std::min(t0, c.start_ns);
    std::map<std::size_t, std::vector<std::size_t>> rows;
    for (std::size_t b = 0; b < spans.size(); ++b)
        if (spans[b].start_ns - t0 < 1000) rows[b / row_ctas].push_back(b);
    std::vector<double> apart;
    for (const auto& [row, members] : rows) {
        if (members.size() < 2) continue;
        for (int i = 0; i < steps; ++i) {
            unsigned long long lo = ~0ull, hi = 0;
            for (const std::size_t b : members) {
                lo = std::min(lo, times[b * std::size_t(steps) + i]);
                hi = std::max(hi, times[b * std::size_t(steps) + i]);
            }
            apart.push_back(double(hi - lo) / 1e3);
        }
    }
    return apart;
}

// The stepped kernel's launch that counted the coalescer's merges: its trace and the counts.
struct stepped_launch {
    std::vector<unsigned long long> times;
    std::vector<probe::cta_span> spans;
    counter_values count;
};

// The stepped kernel, counted: the profiler launches it once per metric group, and the trace kept
// is that of the launch that counted the coalescer, fetched in the next launch's preparation
// (outside the counted range) or after the last. Nothing (and a failure) where no group counts
// the merges or a group was replayed.
std::optional<stepped_launch> counted_stepped_launch(const traced_pair& pair,
                                                     counter_session& counters) {
    const auto order = launches_and_merge_launch(counters);
    if (!order) {
        ADD_FAILURE() << "no group counts " << coalesced_metric;
        return std::nullopt;
    }
    std::vector<stepped_launch> seen;
    const auto fetch = [&] {
        seen.emplace_back();
        seen.back().spans = pair.fetch_steps(seen.back().times);
    };
    bool launched = false;
    const auto count = counters.collect(
        [&] {
            if (launched) fetch();
            pair.prepare();
        },
        [&] {
            pair.launch_stepped();
            launched = true;
        });
    fetch();
    if (seen.size() != order->first) {
        ADD_FAILURE() << seen.size() << " launches where " << order->first
                      << " groups were counted: a group was replayed";
        return std::nullopt;
    }
    auto out = std::move(seen[order->second]);
    out.count = count;
    return out;
}

// Every step of every CTA (us).
std::vector<double> step_times_us(const std::vector<unsigned long long>& times, std::size_t ctas,
                                  int steps) {
    std::vector<double> out;
    for (std::size_t b = 0; b < ctas; ++b)
        for (int i = 1; i < steps; ++i)
            out.push_back(
                double(times[b * std::size_t(steps) + i] - times[b * std::size_t(steps) + i - 1]) /
                1e3);
    return out;
}

}  // namespace

TEST_F(CapacityEdge, CoReadersThroughTheStepsOfK) {
    const auto list = test::env_list("TGEMM_CTA_STEPS");
    if (list.empty()) GTEST_SKIP() << "TGEMM_CTA_STEPS names no shapes";
    auto ids = test::env_list("TGEMM_CTA_STEPS_RUNGS");
    if (ids.empty())
        ids = {"smem_tiling",    "smem_register", "blocktiling_1d",
               "blocktiling_2d", "vectorized",    "warptiling"};
    const auto repeat = test::env_list("TGEMM_CTA_STEPS_REPEAT");
    const int repeats = repeat.empty() ? 1 : std::stoi(repeat.front());
    const auto scratch = flush_scratch();
    for (const auto& item : list) {
        const shape s = parse_shape(item);
        for (const auto& id : ids) {
            const auto traced_id = probe::traced_rung_named(id);
            ASSERT_TRUE(traced_id && probe::traced_steps(*traced_id, s) > 0)
                << id << " has no stepped body";
            const auto& r = rung_registry::get().find(id);
            int own = 0;
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&own, r.config->kernel, r.config->threads,
                                                          0);
            ASSERT_EQ(probe::stepped_ctas_per_sm(*traced_id), own) << id;
            const traced_pair pair(*this, id, s, stream->get());
            const auto rung = r.bind(pair.args(), launch_context{stream->get(), nullptr});
            const auto prepare = [&] { pair.prepare(); };
            for (int rep = 0; rep < repeats; ++rep) {
                const auto own_count = counters().collect(prepare, rung);
                const auto stepped = counted_stepped_launch(pair, counters());
                ASSERT_TRUE(stepped) << id;
                const auto& times = stepped->times;
                const auto& spans = stepped->spans;
                const auto& stepped_count = stepped->count;
                const int steps = pair.steps();
                if (const char* dir = std::getenv("TGEMM_CTA_TRACE_DIR"))
                    write_steps(std::string(dir) + "/" + id + "-" + item + "-r" +
                                    std::to_string(rep) + "-steps.csv",
                                spans, times, steps, stepped_count.values);
                // Every CTA reached every step, in order, within its lifetime.
                for (std::size_t b = 0; b < spans.size(); ++b) {
                    const unsigned long long* row = &times[b * std::size_t(steps)];
                    EXPECT_GE(row[0], spans[b].start_ns) << id << " CTA " << b;
                    for (int i = 1; i < steps; ++i)
                        ASSERT_GE(row[i], row[i - 1]) << id << " CTA " << b;
                    EXPECT_LE(row[steps - 1], spans[b].end_ns) << id << " CTA " << b;
                }
                const auto apart = row_spreads(spans, times, steps,
                                               probe::traced_ctas(*traced_id, shape{1, s.n, s.k}));
                const auto step_us = step_times_us(times, spans.size(), steps);
                const auto& c0 = own_count.values;
                const auto& c1 = stepped_count.values;
                std::printf(
                    "%-14s %s, launch %d: %zu CTAs, %d steps; requests %.1f / %.1f MB, merged %.1f "
                    "/ %.1f MB "
                    "(%.3f / %.3f), DRAM reads %.1f / %.1f MB, %.1f / %.1f us (rung / stepped)\n",
                    id.c_str(), item.c_str(), rep, spans.size(), steps,
                    c0.at("l2_requested_bytes") / 1e6, c1.at("l2_requested_bytes") / 1e6,
                    c0.at("l2_coalesced_bytes") / 1e6, c1.at("l2_coalesced_bytes") / 1e6,
                    c0.at("l2_coalesced_bytes") / c0.at("l2_requested_bytes"),
                    c1.at("l2_coalesced_bytes") / c1.at("l2_requested_bytes"),
                    c0.at("dram_read_bytes") / 1e6, c1.at("dram_read_bytes") / 1e6,
                    c0.at("duration_ns") / 1e3, c1.at("duration_ns") / 1e3);
                std::printf("  time per step (us), deciles: %s\n", deciles(step_us).c_str());
                std::printf(
                    "  first wave, one row of tiles: first to last CTA at a step (us): %s\n",
                    deciles(apart).c_str());
            }
        }
    }
}
