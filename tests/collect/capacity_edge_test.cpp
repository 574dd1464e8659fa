// The rows at the L2's capacity edge where the tool's DRAM reads and Nsight Compute's differ
// launch after launch (docs/validation-method.md): what moves them. Each row counted as the tool
// counts a pair (restore C, flush L2, the launch, in the counter pass) after one change of what
// comes before. Printed (docs/validation/<gpu>-capacity-edge*.log; docs/validation-method.md, "The
// capacity edge: where the operands sit"); asserted only that every count ran.
// Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/l2_flush.hpp"
#include "collect/measure.hpp"
#include "collect/timer.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "probe_kernels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

struct edge_row {
    std::string kernel;
    shape size;
};

// The rows of issue 10's open DRAM and fabric comparisons on this GPU.
std::vector<edge_row> open_rows(const std::string& gpu) {
    if (gpu == "h200")
        return {{"smem_register", {2048, 2048, 2048}},
                {"blocktiling_1d", {2048, 2048, 2048}},
                {"naive", {1536, 1536, 4096}}};
    if (gpu == "h100") {
        std::vector<edge_row> rows;
        for (const char* k : {"naive", "blocktiling_1d", "smem_tiling", "thread_tiling",
                              "outer_product", "smem_register"})
            rows.push_back({k, {2500, 3500, 1200}});
        return rows;
    }
    return {};
}

class CapacityEdge : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto probe = probe_local_device();
        if (!probe.device) GTEST_SKIP() << "no GPU: " << probe.why_none;
        dev = *probe.device;
        rows = open_rows(dev.info.key);
        if (rows.empty()) GTEST_SKIP() << "no capacity-edge rows listed for " << dev.info.key;
        cudaSetDevice(dev.index);
        cudaFree(nullptr);
        stream = std::make_unique<cuda_stream>();
    }

    // The workspace of `row` as the tool makes one (with its L2 flush buffer), with the cuBLAS
    // reference where a handle is given.
    [[nodiscard]] std::unique_ptr<workspace> make(const edge_row& row,
                                                  cublasHandle_t cublas = nullptr) const {
        const auto& r = rung_registry::get().find(row.kernel);
        auto seed = defaults.seed;
        // The tool's seed for the shape (measure.cpp, space_for), for the toolseed step.
        if (tool_seed)
            seed ^= static_cast<std::uint64_t>(row.size.m * 73856093 ^ row.size.n * 19349663 ^
                                               row.size.k * 83492791);
        return std::make_unique<workspace>(row.size, r.types, defaults.alpha, defaults.beta,
                                           dev.info.l2_bytes, stream->get(), cublas, seed);
    }

    // Counts `row` on `w` `times` times in one profiler start per group, each launch after the
    // tool's preparation and `before` (if any), and prints each count after `label`.
    void count(const std::string& label, const edge_row& row, const workspace& w, int times = 2,
               const std::function<void()>& before = {}) const {
        const auto launch = rung_registry::get()
                                .find(row.kernel)
                                .bind(w.args(), launch_context{stream->get(), nullptr});
        const counter_job job{[&w, &before] {
                                  w.restore_c();
                                  w.flush_l2();
                                  if (before) before();
                              },
                              launch};
        for (const auto& c :
             counters().collect(std::vector<counter_job>(std::size_t(times), job))) {
            const auto& v = c.values;
            std::printf("%-46s %s at %s: DRAM reads %.2f MB, fabric %.2f MB, %.1f us at %.0f MHz\n",
                        label.c_str(), row.kernel.c_str(), to_arg(row.size).c_str(),
                        v.at("dram_read_bytes") / 1e6, v.at("l2_fabric_bytes") / 1e6,
                        v.at("duration_ns") / 1e3, v.at("sm_clock_hz") / 1e6);
            EXPECT_GT(v.at("dram_read_bytes"), 0) << row.kernel;
        }
    }

    // The first row counted three times in this process, after `free_one_first` (a workspace made
    // and freed before) and with the cuBLAS reference made for the counted buffers or not. Each
    // case is a test of its own, to be run alone (--gtest_filter): the process's first count.
    void count_first_row(const char* label, bool free_one_first, bool with_reference) const {
        if (free_one_first) (void)make(rows.front());
        std::unique_ptr<cublas_handle> cublas;
        if (with_reference) cublas = std::make_unique<cublas_handle>(stream->get());
        const auto w = make(rows.front(), cublas ? cublas->get() : nullptr);
        count(label, rows.front(), *w, 3);
    }

    local_device dev;
    std::vector<edge_row> rows;
    std::unique_ptr<cuda_stream> stream;  // made in SetUp, once a GPU is known
    // Made at the first count, so that a process that only launches (TheWorkspaceStepByStep's
    // launch step) runs under Nsight Compute, which holds the profiler itself.
    mutable std::unique_ptr<counter_session> session;
    counter_session& counters() const {
        if (!session) session = std::make_unique<counter_session>(dev.index);
        return *session;
    }
    measure_options defaults;
    bool tool_seed = false;  // make(): the operands' values as the tool draws them
};

}  // namespace

// Where the first wave starts (docs/cupti.md, "The counter pass fixes where the first wave
// starts"): a short kernel of j CTAs after the flush, inside the preparation, might move it; the
// placement probe and the open rows counted after j = 0 … 112 of them.
TEST_F(CapacityEdge, AShortKernelBeforeTheCountedLaunch) {
    const std::vector<int> shifts = {0, 8, 16, 24, 32, 48, 64, 80, 96, 112};
    const device_buffer shift_out(std::size_t(shifts.back()) * sizeof(probe::cta_placement));
    auto* shift_places = static_cast<probe::cta_placement*>(shift_out.raw());
    const auto shift = [&](int j) {
        // 32 threads and 1 KiB of shared memory each (the probe kernel writes a byte of it).
        if (j > 0) probe::record_placement(shift_places, j, 32, 1024, 2000, stream->get());
    };

    // Where the placement probe (one CTA of 256 threads per SM, two waves) starts after j.
    const device_buffer scratch(4 * std::size_t(dev.info.l2_bytes) / sizeof(float));
    cudaMemset(scratch.get(), 0, scratch.bytes());
    int smem_per_sm = 0;
    cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev.index);
    const int ctas = 2 * dev.info.sm_count;
    const device_buffer buffer(std::size_t(ctas) * sizeof(probe::cta_placement));
    auto* out = static_cast<probe::cta_placement*>(buffer.raw());
    for (const int j : shifts) {
        (void)counters().collect(
            [&] {
                flush_l2(scratch.get(), scratch.size(), stream->get());
                shift(j);
            },
            [&] {
                probe::record_placement(out, ctas, 256, smem_per_sm - 2048, 20000, stream->get());
            });
        std::vector<probe::cta_placement> p(24);
        ASSERT_EQ(cudaMemcpy(p.data(), out, p.size() * sizeof(p[0]), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        std::printf("after %3d CTAs: the probe's CTAs 0 ... 23 on SMs", j);
        for (const auto& c : p) std::printf(" %d", c.sm);
        std::printf("\n");
    }

    // The open rows after j.
    for (const auto& row : rows) {
        const auto w = make(row);
        for (const int j : shifts)
            count("after " + std::to_string(j) + " CTAs:", row, *w, 1, [&shift, j] { shift(j); });
    }
}

// Where the operands sit in memory: the L2 spreads lines over its slices and sets by physical
// address, so at the capacity edge which lines evict each other may depend on it. Each open row
// counted twice after `pad` MiB were allocated before its workspace, for several pads.
TEST_F(CapacityEdge, WhereTheOperandsSit) {
    for (const auto& row : rows)
        for (const int pad_mib : {0, 2, 6, 10, 14, 30, 62, 126, 254}) {
            const device_buffer pad(std::size_t(pad_mib) << 20 >> 2);
            const auto w = make(row);
            count(std::to_string(pad_mib) + " MiB before its buffers:", row, *w);
        }
}

// What the tool does before it counts a pair, step by step: a workspace without and with the
// cuBLAS reference (and the handle made), then the verification launch, then the timed launches
// (the default policy), then a workspace without the reference again.
TEST_F(CapacityEdge, TheToolsStepsBeforeTheCount) {
    std::unique_ptr<cublas_handle> cublas;
    for (const auto& row : rows) {
        count("no cuBLAS, no reference:", row, *make(row));
        if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
        const auto w = make(row, cublas->get());
        count("the cuBLAS reference made:", row, *w);
        const auto launch = rung_registry::get()
                                .find(row.kernel)
                                .bind(w->args(), launch_context{stream->get(), cublas->get()});
        EXPECT_TRUE(verify_rung(launch, *w).ok) << row.kernel;
        count("verified:", row, *w);
        (void)time_rung(launch, *w, defaults.timing);
        count("timed:", row, *w);
    }
    for (const auto& row : rows) count("again without a reference:", row, *make(row));
}

// What running a cuBLAS GEMM leaves in the process that a later launch might feel: the L2
// persisting limit and the stream's access policy window, printed, and the first row counted on
// the same buffers after each step and after each possible undoing of it.
TEST_F(CapacityEdge, WhatTheCublasReferenceLeaves) {
    int max_persisting = 0;
    cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, dev.index);
    std::printf("the GPU's largest L2 set-aside for persisting accesses: %.1f MB\n",
                max_persisting / 1e6);
    const auto& row = rows.front();
    const auto w = make(row);
    const auto state_and_count = [&](const char* step) {
        std::size_t persisting = 0;
        cudaDeviceGetLimit(&persisting, cudaLimitPersistingL2CacheSize);
        cudaStreamAttrValue window{};
        cudaStreamGetAttribute(stream->get(), cudaStreamAttributeAccessPolicyWindow, &window);
        std::printf("%s persisting limit %.1f MB, stream window %zu B (hit ratio %.2f)\n", step,
                    persisting / 1e6, window.accessPolicyWindow.num_bytes,
                    window.accessPolicyWindow.hitRatio);
        count(step, row, *w);
    };
    state_and_count("at the start:");
    const cublas_handle cublas(stream->get());
    state_and_count("a cuBLAS handle on the stream:");
    (void)std::make_unique<workspace>(row.size, w->types, defaults.alpha, defaults.beta, 0,
                                      stream->get(), cublas.get(), defaults.seed);
    state_and_count("the cuBLAS reference run, freed:");
    cudaCtxResetPersistingL2Cache();
    state_and_count("cudaCtxResetPersistingL2Cache:");
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    state_and_count("persisting limit set to 0:");
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

// Which buffers: counted with buffers made before any cuBLAS call, after the handle was made,
// after a cuBLAS GEMM ran, and after the persisting L2 limit was set to 0; the first buffers
// counted again at the end.
TEST_F(CapacityEdge, BuffersMadeBeforeAndAfterCublas) {
    const auto& row = rows.front();
    const auto first = make(row);
    count("buffers made before any cuBLAS call:", row, *first);
    const cublas_handle cublas(stream->get());
    const auto second = make(row);
    count("buffers made after the handle:", row, *second);
    (void)std::make_unique<workspace>(row.size, first->types, defaults.alpha, defaults.beta, 0,
                                      stream->get(), cublas.get(), defaults.seed);
    const auto third = make(row);
    count("buffers made after a cuBLAS GEMM:", row, *third);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    const auto fourth = make(row);
    count("buffers made after the persisting limit 0:", row, *fourth);
    count("the first buffers again:", row, *first);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(CapacityEdge, FirstCountFreshBuffers) {
    count_first_row("fresh buffers:", false, false);
}
TEST_F(CapacityEdge, FirstCountAfterAWorkspaceWasFreed) {
    count_first_row("after a workspace was made and freed:", true, false);
}
TEST_F(CapacityEdge, FirstCountOfAWorkspaceWithTheReference) {
    count_first_row("a workspace made with the cuBLAS reference:", false, true);
}

// The workspace's construction taken apart: TGEMM_EDGE_STEPS names steps run in order in this
// process (scripts/probes/capacity_edge_steps.sh runs each list in a fresh one):
//   ws        the counted workspaces of the rows, made as run-kernel makes them (no reference)
//   toolws    the same with the cuBLAS reference, as the tool makes them
//   sharedws  one workspace with the reference for every row, as the tool shares one between the
//             rungs of a shape with the same operand types (the rows' shapes and types alike)
//   verify, time   each row verified against the reference, or timed with the tool's default
//             policy (measure.cpp does both before it counts)
//   ref       the reference's steps by hand on the first row's shape: FP32 copies allocated and
//             uploaded, one cublasSgemm, C downloaded, the copies freed
//   ref-nogemm   the same without the GEMM;  ref-discard  with the copies' L2 lines discarded
//             (discard.global.L2) before they are freed
//   handle    a cuBLAS handle made now (the steps that need one make it when none is yet); prints
//             how much device memory making it took
//   pad<N>    N KiB allocated and held from now on
//   session   the counter session opened now (else at the first count), as the tool opens it
//             after its cuBLAS handle and before any workspace
//   toolseed  the workspaces made after it hold the values the tool draws for the shape
//   refws     a workspace of the first row made with the reference and no flush buffer, freed
//   reset     cudaCtxResetPersistingL2Cache
//   evl       read a 4x-L2 scratch buffer with an L2 evict_last policy, then discard its lines
//   launch    every row launched three times after the tool's preparation, without counters
//             (for Nsight Compute: scripts/probes/capacity_edge_steps.sh with NCU=1)
//   count     every row counted three times after the tool's preparation;  count-evl  the same
//             with evl after the flush
// Skips when the variable is unset.
TEST_F(CapacityEdge, TheWorkspaceStepByStep) {
    const char* env = std::getenv("TGEMM_EDGE_STEPS");
    if (!env || !*env) GTEST_SKIP() << "TGEMM_EDGE_STEPS names no steps";
    std::unique_ptr<cublas_handle> cublas;
    std::vector<std::unique_ptr<workspace>> counted;
    std::unique_ptr<workspace> shared;
    std::unique_ptr<device_buffer> scratch;
    std::vector<std::unique_ptr<device_buffer>> pads;
    const device_buffer sink(1);
    const auto evict_last_then_discard = [&] {
        if (!scratch) {
            scratch =
                std::make_unique<device_buffer>(4 * std::size_t(dev.info.l2_bytes) / sizeof(float));
            cudaMemset(scratch->raw(), 0, scratch->bytes());
        }
        probe::read_evict_last(scratch->get(), scratch->size(), sink.get(), stream->get());
        probe::discard_l2(scratch->get(), scratch->bytes() / 128 * 128, stream->get());
    };
    const auto reference_by_hand = [&](bool gemm, bool discard) {
        if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
        const auto& s = rows.front().size;
        const auto mk = std::size_t(s.m * s.k), kn = std::size_t(s.k * s.n),
                   mn = std::size_t(s.m * s.n);
        const device_buffer da(mk), db(kn), dc(mn);
        std::vector<float> host(std::max({mk, kn, mn}), 0.5f);
        for (const auto* b : {&da, &db, &dc})
            cudaMemcpy(b->raw(), host.data(), b->bytes(), cudaMemcpyHostToDevice);
        const float alpha = 1.0f, beta = 0.5f;
        if (gemm) {
            ASSERT_EQ(cublasSgemm(cublas->get(), CUBLAS_OP_N, CUBLAS_OP_N, int(s.n), int(s.m),
                                  int(s.k), &alpha, db.get(), int(s.n), da.get(), int(s.k), &beta,
                                  dc.get(), int(s.n)),
                      CUBLAS_STATUS_SUCCESS);
        }
        cudaStreamSynchronize(stream->get());
        cudaMemcpy(host.data(), dc.raw(), dc.bytes(), cudaMemcpyDeviceToHost);
        if (discard)
            for (const auto* b : {&da, &db, &dc})
                probe::discard_l2(b->get(), b->bytes() / 128 * 128, stream->get());
        cudaStreamSynchronize(stream->get());
    };
    std::stringstream steps(env);
    std::string step;
    while (std::getline(steps, step, ',')) {
        if (step == "ws" || step == "toolws") {
            if (step == "toolws" && !cublas)
                cublas = std::make_unique<cublas_handle>(stream->get());
            counted.clear();
            shared.reset();
            for (const auto& row : rows)
                counted.push_back(make(row, step == "toolws" ? cublas->get() : nullptr));
        } else if (step == "sharedws") {
            if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
            for (const auto& row : rows)
                ASSERT_TRUE(row.size == rows.front().size) << "sharedws needs one shape";
            counted.clear();
            shared = make(rows.front(), cublas->get());
        } else if (step == "verify" || step == "time") {
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const workspace& w = shared ? *shared : *counted.at(i);
                const auto launch =
                    rung_registry::get()
                        .find(rows[i].kernel)
                        .bind(w.args(),
                              launch_context{stream->get(), cublas ? cublas->get() : nullptr});
                if (step == "verify")
                    EXPECT_TRUE(verify_rung(launch, w).ok) << rows[i].kernel;
                else
                    (void)time_rung(launch, w, defaults.timing);
            }
        } else if (step == "ref" || step == "ref-nogemm" || step == "ref-discard") {
            reference_by_hand(step != "ref-nogemm", step == "ref-discard");
        } else if (step == "handle") {
            std::size_t free_before = 0, free_after = 0, total = 0;
            cudaMemGetInfo(&free_before, &total);
            if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
            cudaMemGetInfo(&free_after, &total);
            std::printf("%s: the cuBLAS handle took %.3f MiB\n", env,
                        (double(free_before) - double(free_after)) / (1 << 20));
        } else if (step.rfind("pad", 0) == 0) {
            pads.push_back(std::make_unique<device_buffer>(std::stoul(step.substr(3)) * 256));
        } else if (step == "refws") {
            if (!cublas) cublas = std::make_unique<cublas_handle>(stream->get());
            const auto& r = rung_registry::get().find(rows.front().kernel);
            (void)workspace(rows.front().size, r.types, defaults.alpha, defaults.beta, 0,
                            stream->get(), cublas->get(), defaults.seed);
        } else if (step == "session") {
            (void)counters();
        } else if (step == "toolseed") {
            tool_seed = true;
        } else if (step == "reset") {
            cudaCtxResetPersistingL2Cache();
        } else if (step == "evl") {
            evict_last_then_discard();
            cudaStreamSynchronize(stream->get());
        } else if (step == "launch") {
            ASSERT_TRUE(shared || counted.size() == rows.size()) << "launch before a workspace";
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const workspace& w = shared ? *shared : *counted[i];
                const auto launch = rung_registry::get()
                                        .find(rows[i].kernel)
                                        .bind(w.args(), launch_context{stream->get(), nullptr});
                for (int n = 0; n < 3; ++n) {
                    w.restore_c();
                    w.flush_l2();
                    launch();
                }
            }
            cudaStreamSynchronize(stream->get());
        } else if (step == "count" || step == "count-evl") {
            ASSERT_TRUE(shared || counted.size() == rows.size()) << "count before a workspace";
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const workspace& w = shared ? *shared : *counted[i];
                if (step == "count")
                    count(std::string(env) + ":", rows[i], w, 3);
                else
                    count(std::string(env) + ":", rows[i], w, 3, evict_last_then_discard);
            }
        } else {
            FAIL() << "unknown step '" << step << "' in TGEMM_EDGE_STEPS";
        }
        ASSERT_EQ(cudaGetLastError(), cudaSuccess) << step;
    }
}

// Whether where a set sits moves the L2's retention edge (gpu/l2_retention.hpp, measured with one
// placement by Collector.L2HoldsLinesEverySmReadsUpToAboutHalfItsSize): the same sweep of a set
// every SM reads twice, its second read counted, on a buffer allocated after TGEMM_EDGE_PAD_KIB
// KiB (one fresh process per pad, scripts/probes/capacity_edge_steps.sh does not run this).
// Skips when the variable is unset.
TEST_F(CapacityEdge, RetentionAfterAPad) {
    const char* env = std::getenv("TGEMM_EDGE_PAD_KIB");
    if (!env || !*env) GTEST_SKIP() << "TGEMM_EDGE_PAD_KIB names no pad";
    const device_buffer pad(std::stoul(env) * 256);
    const double half = 0.5 * double(dev.info.l2_bytes);
    const device_buffer data(std::size_t(2.4 * half) / sizeof(float) / 32 * 32 + 32);
    const device_buffer scratch(4 * std::size_t(dev.info.l2_bytes) / sizeof(float));
    cudaMemset(data.raw(), 0, data.bytes());
    cudaMemset(scratch.raw(), 0, scratch.bytes());
    const int sms = dev.info.sm_count;
    float* sink = data.get() + data.size() - 1;
    for (const double f : {0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25}) {
        const std::size_t n = std::size_t(f * half / sizeof(float)) / 32 * 32;
        const auto v = counters().collect(
            [&] {
                flush_l2(scratch.get(), scratch.size(), stream->get());
                probe::read_by_every_sm(data.get(), n, sink, sms, stream->get());
            },
            [&] { probe::read_by_every_sm(data.get(), n, sink, sms, stream->get()); });
        const double bytes = double(n) * sizeof(float);
        const double reread = v.values.at("dram_read_bytes");
        std::printf("pad %s KiB: set %.2f x half the L2: DRAM reads %8.2f MB = %.3f of the set\n",
                    env, bytes / half, reread / 1e6, reread / bytes);
        EXPECT_GE(reread, 0) << bytes;
    }
}
