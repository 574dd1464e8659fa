// Tests that need a GPU. Without one each skips and says why.
#include <gtest/gtest.h>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/measure.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "model/levels.hpp"

using namespace tgemm;

namespace {

std::optional<local_device> gpu_or_skip_reason(std::string& why) {
    const auto probe = probe_local_device();
    if (!probe.device) why = "no GPU: " + probe.why_none;
    return probe.device;
}

#define REQUIRE_GPU(dev)                       \
    std::string why_;                          \
    const auto dev = gpu_or_skip_reason(why_); \
    if (!dev) GTEST_SKIP() << why_;

}  // namespace

// Every rung computes αAB + βC within the FP32 tolerance on shapes no tile divides.
TEST(Gpu, EveryRungVerifiesOnOddShapes) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get()};
    for (const auto s : {shape{1000, 777, 333}, shape{129, 65, 31}, shape{256, 256, 256}}) {
        const workspace ws(s, 0.5f, 3.0f, dev->info.l2_bytes, stream.get(), cublas.get(), 7);
        for (const auto* r : rung_registry::get().all()) {
            if (r->can_run(dev->info, s)) continue;
            const auto v = verify_rung(*r, ws, ctx);
            EXPECT_TRUE(v.ok) << v.describe(r->id) << " at " << to_arg(s);
        }
    }
}

// The instrumented FP32 counters equal each rung's executed-FLOP model exactly.
TEST(Gpu, MeasuredFlopsEqualTheExecutedCount) {
    REQUIRE_GPU(dev);
    measure_options o;
    o.rungs = rung_registry::get().all();
    o.shapes = {shape{512, 512, 512}, shape{1000, 777, 333}};
    o.timing.min_runs = 2;
    o.timing.min_total_ms = 0;
    o.peaks = false;  // the peaks have their own test (peaks_test.cpp)
    const auto out = measure(*dev, o);
    EXPECT_TRUE(out.failures.empty());
    for (const auto& m : out.result.measurements) {
        if (m.skipped || m.kernel == "cublas") continue;
        ASSERT_TRUE(m.counter(keys::flops)) << m.kernel;
        EXPECT_EQ(*m.counter(keys::flops), *m.model.refined.get(keys::flops))
            << m.kernel << " at " << to_arg(m.size);
    }
}
