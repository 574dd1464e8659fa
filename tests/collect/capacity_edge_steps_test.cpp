// The workspace's construction taken apart at the L2's capacity edge (docs/validation-method.md,
// "The capacity edge: where the operands sit"): TGEMM_EDGE_STEPS names steps run in order in this
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
// Skips when the variable is unset. Printed (docs/validation/<gpu>-capacity-edge-*.log); asserted
// only that every step ran.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "capacity_edge_fixture.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/timer.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "probe_kernels.hpp"
#include "rung.hpp"

using namespace tgemm;
using tgemm::test::CapacityEdge;

namespace {

// What the steps of one process have made so far, and the steps themselves.
class step_runner {
  public:
    step_runner(CapacityEdge& fixture, std::string steps)
        : fx(fixture), label(std::move(steps) + ":") {}

    // Runs one step; false (with a test failure) for one it does not know or cannot run yet.
    bool run(const std::string& step) {
        if (step == "ws" || step == "toolws") return make_workspaces(step == "toolws");
        if (step == "sharedws") return make_shared();
        if (step == "verify" || step == "time") return verify_or_time(step == "verify");
        if (step == "ref" || step == "ref-nogemm" || step == "ref-discard")
            return reference_by_hand(step != "ref-nogemm", step == "ref-discard");
        if (step == "handle") return make_handle();
        if (step.rfind("pad", 0) == 0) {
            pads.push_back(std::make_unique<device_buffer>(std::stoul(step.substr(3)) * 256));
            return true;
        }
        if (step == "session") return (void)fx.counters(), true;
        if (step == "toolseed") return fx.tool_seed = true;
        if (step == "refws") return reference_workspace();
        if (step == "reset") return cudaCtxResetPersistingL2Cache(), true;
        if (step == "evl") {
            evict_last_then_discard();
            return cudaStreamSynchronize(fx.stream->get()), true;
        }
        if (step == "launch") return launch_rows();
        if (step == "count" || step == "count-evl") return count_rows(step == "count-evl");
        ADD_FAILURE() << "unknown step '" << step << "' in TGEMM_EDGE_STEPS";
        return false;
    }

  private:
    cublasHandle_t handle() {
        if (!cublas) cublas = std::make_unique<cublas_handle>(fx.stream->get());
        return cublas->get();
    }

    // The workspace row i is counted on.
    [[nodiscard]] const workspace* counted_of(std::size_t i) const {
        if (shared) return shared.get();
        return i < counted.size() ? counted[i].get() : nullptr;
    }
    bool have_workspaces() const {
        if (shared || counted.size() == fx.rows.size()) return true;
        ADD_FAILURE() << "a count, launch, verify or time before a workspace step";
        return false;
    }

    bool make_workspaces(bool with_reference) {
        counted.clear();
        shared.reset();
        for (const auto& row : fx.rows)
            counted.push_back(fx.make(row, with_reference ? handle() : nullptr));
        return true;
    }

    bool make_shared() {
        for (const auto& row : fx.rows)
            if (!(row.size == fx.rows.front().size)) {
                ADD_FAILURE() << "sharedws needs one shape";
                return false;
            }
        counted.clear();
        shared = fx.make(fx.rows.front(), handle());
        return true;
    }

    bool verify_or_time(bool verify) {
        if (!have_workspaces()) return false;
        for (std::size_t i = 0; i < fx.rows.size(); ++i) {
            const workspace& w = *counted_of(i);
            const auto launch =
                rung_registry::get()
                    .find(fx.rows[i].kernel)
                    .bind(w.args(),
                          launch_context{fx.stream->get(), cublas ? cublas->get() : nullptr});
            if (verify)
                EXPECT_TRUE(verify_rung(launch, w).ok) << fx.rows[i].kernel;
            else
                (void)time_rung(launch, w, fx.defaults.timing);
        }
        return true;
    }

    bool reference_by_hand(bool gemm, bool discard) {
        const auto h = handle();
        const auto& s = fx.rows.front().size;
        const auto mk = std::size_t(s.m * s.k), kn = std::size_t(s.k * s.n),
                   mn = std::size_t(s.m * s.n);
        const device_buffer da(mk), db(kn), dc(mn);
        std::vector<float> host(std::max({mk, kn, mn}), 0.5f);
        for (const auto* b : {&da, &db, &dc})
            cudaMemcpy(b->raw(), host.data(), b->bytes(), cudaMemcpyHostToDevice);
        const float alpha = 1.0f, beta = 0.5f;
        if (gemm && cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(s.n), int(s.m), int(s.k), &alpha,
                                db.get(), int(s.n), da.get(), int(s.k), &beta, dc.get(),
                                int(s.n)) != CUBLAS_STATUS_SUCCESS) {
            ADD_FAILURE() << "cublasSgemm";
            return false;
        }
        cudaStreamSynchronize(fx.stream->get());
        cudaMemcpy(host.data(), dc.raw(), dc.bytes(), cudaMemcpyDeviceToHost);
        if (discard)
            for (const auto* b : {&da, &db, &dc})
                probe::discard_l2(b->get(), b->bytes() / 128 * 128, fx.stream->get());
        cudaStreamSynchronize(fx.stream->get());
        return true;
    }

    bool make_handle() {
        std::size_t free_before = 0, free_after = 0, total = 0;
        cudaMemGetInfo(&free_before, &total);
        (void)handle();
        cudaMemGetInfo(&free_after, &total);
        std::printf("%s the cuBLAS handle took %.3f MiB\n", label.c_str(),
                    (double(free_before) - double(free_after)) / (1 << 20));
        return true;
    }

    bool reference_workspace() {
        const auto& row = fx.rows.front();
        const auto& r = rung_registry::get().find(row.kernel);
        (void)workspace(row.size, r.types, fx.defaults.alpha, fx.defaults.beta, 0, fx.stream->get(),
                        handle(), fx.defaults.seed);
        return true;
    }

    void evict_last_then_discard() {
        if (!scratch) {
            scratch = std::make_unique<device_buffer>(4 * std::size_t(fx.dev.info.l2_bytes) /
                                                      sizeof(float));
            cudaMemset(scratch->raw(), 0, scratch->bytes());
        }
        probe::read_evict_last(scratch->get(), scratch->size(), sink.get(), fx.stream->get());
        probe::discard_l2(scratch->get(), scratch->bytes() / 128 * 128, fx.stream->get());
    }

    bool launch_rows() {
        if (!have_workspaces()) return false;
        for (std::size_t i = 0; i < fx.rows.size(); ++i) {
            const workspace& w = *counted_of(i);
            const auto launch = rung_registry::get()
                                    .find(fx.rows[i].kernel)
                                    .bind(w.args(), launch_context{fx.stream->get(), nullptr});
            for (int n = 0; n < 3; ++n) {
                w.restore_c();
                w.flush_l2();
                launch();
            }
        }
        cudaStreamSynchronize(fx.stream->get());
        return true;
    }

    bool count_rows(bool evl) {
        if (!have_workspaces()) return false;
        for (std::size_t i = 0; i < fx.rows.size(); ++i) {
            if (evl)
                fx.count(label, fx.rows[i], *counted_of(i), 3,
                         [this] { evict_last_then_discard(); });
            else
                fx.count(label, fx.rows[i], *counted_of(i), 3);
        }
        return true;
    }

    CapacityEdge& fx;
    std::string label;
    std::unique_ptr<cublas_handle> cublas;
    std::vector<std::unique_ptr<workspace>> counted;
    std::unique_ptr<workspace> shared;
    std::unique_ptr<device_buffer> scratch;
    std::vector<std::unique_ptr<device_buffer>> pads;
    const device_buffer sink{1};
};

}  // namespace

TEST_F(CapacityEdge, TheWorkspaceStepByStep) {
    const char* env = std::getenv("TGEMM_EDGE_STEPS");
    if (!env || !*env) GTEST_SKIP() << "TGEMM_EDGE_STEPS names no steps";
    step_runner steps(*this, env);
    std::stringstream list(env);
    std::string step;
    while (std::getline(list, step, ','))
        if (!steps.run(step) || cudaGetLastError() != cudaSuccess) {
            ADD_FAILURE() << "step '" << step << "' of " << env;
            return;
        }
}
