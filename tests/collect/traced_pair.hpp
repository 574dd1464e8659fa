#pragma once
// One rung at one shape with its traced kernel (tests/collect/cta_drift_kernels.hpp), launched
// after the tool's preparation: the CTA lifetime tests (cta_drift_test.cpp) and the K-step traces
// (cta_steps_test.cpp). Needs a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/cuda_handles.hpp"
#include "cta_drift_kernels.hpp"
#include "rung.hpp"

namespace tgemm::test {

// One rung at one shape with its traced kernel: the workspace as the tool makes it, the trace
// buffer, and each launch after the tool's preparation (C restored, L2 flushed).
class traced_pair {
  public:
    traced_pair(const CapacityEdge& fixture, const std::string& id, const shape& s,
                cudaStream_t stream)
        : rung_(*probe::traced_rung_named(id)),
          w_(fixture.make({id, s})),
          args_(w_->args()),
          ctas_(probe::traced_ctas(rung_, s)),
          trace_(ctas_ * sizeof(probe::cta_span) / sizeof(float) + 1),
          blank_(ctas_, probe::cta_span{-1, ~0ull, 0}),
          stream_(stream) {}

    void prepare() const {
        cudaMemcpyAsync(out(), blank_.data(), ctas_ * sizeof(probe::cta_span),
                        cudaMemcpyHostToDevice, stream_);
        w_->restore_c();
        w_->flush_l2();
    }
    // The stepped kernel (probe::launch_stepped) into steps_, made at the first call.
    void launch_stepped() const {
        if (steps_.get() == nullptr) steps_ = device_buffer(ctas_ * std::size_t(steps()) * 2);
        probe::launch_stepped(rung_, args_, out(), step_times(), stream_);
    }
    // One prepared launch of the stepped kernel: its spans, and times[b × steps() + i], when CTA
    // b reached step i (%globaltimer, ns).
    std::vector<probe::cta_span> trace_steps(std::vector<unsigned long long>& times) const {
        prepare();
        launch_stepped();
        return fetch_steps(times);
    }
    // The spans and step times of the last launch of the stepped kernel.
    std::vector<probe::cta_span> fetch_steps(std::vector<unsigned long long>& times) const {
        times.assign(ctas_ * std::size_t(steps()), 0);
        EXPECT_EQ(cudaMemcpyAsync(times.data(), step_times(), times.size() * sizeof(times[0]),
                                  cudaMemcpyDeviceToHost, stream_),
                  cudaSuccess);
        return fetch();
    }
    // The traced kernel, with `extra_smem` bytes of dynamic shared memory asked for.
    void launch(int extra_smem = 0) const {
        probe::launch_traced(rung_, args_, out(), stream_, extra_smem);
    }
    // One prepared launch and its spans.
    std::vector<probe::cta_span> trace(int extra_smem = 0) const {
        prepare();
        launch(extra_smem);
        return fetch();
    }
    [[nodiscard]] const gemm_args& args() const { return args_; }
    [[nodiscard]] std::size_t ctas() const { return ctas_; }
    [[nodiscard]] int steps() const { return probe::traced_steps(rung_, args_.size); }

  private:
    std::vector<probe::cta_span> fetch() const {
        std::vector<probe::cta_span> spans(ctas_);
        EXPECT_EQ(cudaMemcpyAsync(spans.data(), out(), ctas_ * sizeof(probe::cta_span),
                                  cudaMemcpyDeviceToHost, stream_),
                  cudaSuccess);
        EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
        for (const auto& c : spans) EXPECT_GE(c.sm, 0);
        return spans;
    }
    unsigned long long* step_times() const {
        return reinterpret_cast<unsigned long long*>(steps_.raw());
    }
    probe::cta_span* out() const { return static_cast<probe::cta_span*>(trace_.raw()); }
    probe::traced_rung rung_;
    std::unique_ptr<workspace> w_;
    gemm_args args_;
    std::size_t ctas_;
    device_buffer trace_;
    std::vector<probe::cta_span> blank_;
    mutable device_buffer steps_;
    cudaStream_t stream_;
};

}  // namespace tgemm::test
