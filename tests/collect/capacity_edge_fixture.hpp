#pragma once
// The fixture of the capacity-edge tests (capacity_edge_test.cpp, capacity_edge_steps_test.cpp):
// the open DRAM and fabric rows of this GPU, their workspaces made as the tool makes them, and
// each counted as the tool counts a pair (restore C, flush L2, the launch, in the counter pass).
// Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/measure.hpp"
#include "collect/workspace.hpp"
#include "core/strings.hpp"
#include "env_list.hpp"
#include "rung.hpp"

namespace tgemm::test {

struct edge_row {
    std::string kernel;
    shape size;
};

// The pairs at the L2's capacity edge whose DRAM reads or fabric bytes differed from Nsight
// Compute's on this GPU (issue 10; docs/validation-method.md).
inline std::vector<edge_row> open_rows(const std::string& gpu) {
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
  public:
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

    // A zeroed buffer of 4 × the L2 for flush_l2, made where the test calls this: the order of a
    // test's allocations places its buffers (docs/validation-method.md, "The capacity edge").
    [[nodiscard]] device_buffer flush_scratch() const {
        device_buffer b(4 * std::size_t(dev.info.l2_bytes) / sizeof(float));
        cudaMemset(b.raw(), 0, b.bytes());
        return b;
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

}  // namespace tgemm::test
