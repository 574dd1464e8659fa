// Tests that need a GPU. Without one each skips and says why.
#include <gtest/gtest.h>

#include "collect/counter_session.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/measure.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "model/levels.hpp"
#include "require_gpu.hpp"

using namespace tgemm;

// Every rung computes αAB + βC within its tolerance (docs/measurement.md) on shapes no tile
// divides. The first two have rows of any length (the FP32 rungs take them, the 16-bit rungs
// refuse them: their rows must be multiples of 16 bytes); the others have 16-byte rows.
TEST(Gpu, EveryRungVerifiesOnOddShapes) {
    REQUIRE_GPU(dev);
    cudaSetDevice(dev->index);
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get()};
    int verified = 0;
    for (const auto s : {shape{1000, 777, 333}, shape{129, 65, 31}, shape{1000, 776, 328},
                         shape{129, 72, 40}, shape{256, 256, 256}}) {
        std::vector<std::unique_ptr<workspace>> spaces;
        for (const auto* r : rung_registry::get().all()) {
            if (r->can_run(dev->info, s)) continue;
            const workspace* ws = nullptr;
            for (const auto& w : spaces)
                if (w->types == r->types) ws = w.get();
            if (!ws) {
                spaces.push_back(std::make_unique<workspace>(
                    s, r->types, 0.5f, 3.0f, dev->info.l2_bytes, stream.get(), cublas.get(), 7));
                ws = spaces.back().get();
            }
            const auto v = verify_rung(r->bind(ws->args(), ctx), *ws);
            EXPECT_TRUE(v.ok) << v.describe(r->id) << " at " << to_arg(s);
            ++verified;
        }
    }
    EXPECT_GT(verified, 0);
}

// The instrumented FP32 counters equal each rung's executed-FLOP model exactly.
TEST(Gpu, MeasuredFlopsEqualTheExecutedCount) {
    REQUIRE_GPU(dev);
    measure_options o;
    o.rungs = rung_registry::get().all();
    o.shapes = {shape{512, 512, 512}, shape{1000, 777, 333}, shape{1000, 776, 328}};
    o.timing.min_runs = 2;
    o.timing.min_total_ms = 0;
    o.peaks = false;  // the peaks have their own test (peaks_test.cpp)
    const auto out = measure(*dev, o);
    EXPECT_TRUE(out.failures.empty());
    for (const auto& m : out.result.measurements) {
        if (m.skipped || m.kernel.starts_with("cublas")) continue;
        ASSERT_TRUE(m.counter(keys::flops)) << m.kernel;
        EXPECT_EQ(*m.counter(keys::flops), *m.model.refined.get(keys::flops))
            << m.kernel << " at " << to_arg(m.size);
    }
}

// The tensor-core FLOP counters are FLOPs: for every tensor rung and shape they equal the
// model's executed count exactly, which is 2·M·N·K where the tiles divide the shape
// (docs/tensor/README.md). Shapes of this test: one every tile divides, one none does.
TEST(Gpu, TensorFlopsEqualTwoMnkExactly) {
    REQUIRE_GPU(dev);
    measure_options o;
    for (const auto* r : rung_registry::get().all())
        if (r->types.ab != element_type::fp32 && !r->id.starts_with("cublas")) o.rungs.push_back(r);
    ASSERT_FALSE(o.rungs.empty());
    o.shapes = {shape{2048, 2048, 2048}, shape{1000, 776, 328}};
    o.timing.min_runs = 2;
    o.timing.min_total_ms = 0;
    o.peaks = false;
    const auto out = measure(*dev, o);
    EXPECT_TRUE(out.failures.empty());
    int compared = 0;
    for (const auto& m : out.result.measurements) {
        if (m.skipped) continue;
        const auto counted = m.counter(keys::tensor_flops);
        ASSERT_TRUE(counted) << m.kernel << " at " << to_arg(m.size);
        EXPECT_EQ(*counted, *m.model.refined.get(keys::tensor_flops))
            << m.kernel << " at " << to_arg(m.size);
        if (m.size == shape{2048, 2048, 2048}) {
            EXPECT_EQ(*counted, 2.0 * 2048 * 2048 * 2048);
        }
        ++compared;
    }
    EXPECT_GT(compared, 0);
}
