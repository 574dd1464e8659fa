#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include "core/error.hpp"
#include "rung.hpp"

using namespace tgemm;

TEST(Registry, HoldsTheIssueTwoRowsInLadderOrder) {
    const auto ids = rung_registry::get().ids();
    ASSERT_GE(ids.size(), 4u);
    EXPECT_EQ(ids[0], "cublas");
    for (const char* id : {"naive", "naive_uncoalesced", "smem_tiling"})
        EXPECT_NE(rung_registry::get().try_find(id), nullptr) << id;
}

TEST(Registry, UnknownKernelSuggestsTheClosest) {
    try {
        (void)rung_registry::get().select("naiv");
        FAIL() << "accepted an unknown kernel";
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
        EXPECT_NE(std::string(e.what()).find("did you mean 'naive'"), std::string::npos)
            << e.what();
    }
}

TEST(Registry, EveryRungHasAModelAndALauncher) {
    ASSERT_GE(rung_registry::get().all().size(), 20u);  // the ladder 01-17 and three references
    for (const auto* r : rung_registry::get().all()) {
        // One of launch and prepare (rung.hpp).
        EXPECT_TRUE(static_cast<bool>(r->launch) != static_cast<bool>(r->prepare)) << r->id;
        EXPECT_TRUE(static_cast<bool>(r->model)) << r->id;
        EXPECT_TRUE(static_cast<bool>(r->can_run)) << r->id;
        const auto m = r->model(shape{256, 256, 256}, test::h100());
        EXPECT_GT(m.textbook.flops, 0) << r->id;
        EXPECT_GT(m.textbook.global_bytes, 0) << r->id;
    }
}

// gridDim.y holds 65535 CTA rows: a taller M is refused with the reason, a normal one runs.
TEST(Registry, RungsRefuseAnMTallerThanTheGridHolds) {
    const gpu_info gpu;  // no shared-memory limit known: only the grid matters here
    for (const auto* id : {"thread_tiling", "blocktiling_2d", "vectorized", "sm90_fp32"}) {
        const auto& r = rung_registry::get().find(id);
        const std::int64_t tile = r.config->tile_m;
        const shape fits{65535 * tile, 64, 64};
        const shape too_tall{65535 * tile + 1, 64, 64};
        EXPECT_FALSE(r.can_run(gpu, fits)) << id;
        const auto why = r.can_run(gpu, too_tall);
        ASSERT_TRUE(why) << id;
        EXPECT_EQ(*why, "M = " + std::to_string(too_tall.m) +
                            " needs more than 65535 CTA rows of " + std::to_string(tile))
            << id;
    }
}

// The 16-bit rungs need N and K in whole 16-byte rows; the refusal names the size at fault only.
TEST(Registry, TensorRungsNameOnlyTheSizeThatIsNotAMultipleOf8) {
    const auto& r = rung_registry::get().find("bf16_mma");
    const auto h100 = gpu_info_from_spec(find_gpu("h100"));
    EXPECT_EQ(r.can_run(h100, shape{2500, 3500, 1200}).value_or(""),
              "N = 3500 is not a multiple of 8: rows of bf16 A, B and C must be whole 16-byte "
              "units for TMA and the 16-byte copies");
    EXPECT_EQ(r.can_run(h100, shape{64, 64, 1201}).value_or("").substr(0, 31),
              "K = 1201 is not a multiple of 8");
    EXPECT_EQ(r.can_run(h100, shape{64, 63, 1201}).value_or("").substr(0, 40),
              "N = 63 and K = 1201 are not multiples of");
    EXPECT_FALSE(r.can_run(h100, shape{2500, 3504, 1200}));
}

// Every rung that launches a kernel of its own states the launch as numbers that hold
// together; the cuBLAS rows, whose kernels are the library's, state none. (Registers and shared
// memory against the compiled kernels: tests/collect/launch_info_test.cpp, on a GPU.)
TEST(Registry, EveryKernelRungStatesItsLaunchAsData) {
    int kernels = 0;
    for (const auto* r : rung_registry::get().all()) {
        if (r->id.starts_with("cublas")) {
            EXPECT_FALSE(r->config) << r->id;
            continue;
        }
        ASSERT_TRUE(r->config) << r->id;
        const auto& c = *r->config;
        EXPECT_NE(c.kernel, nullptr) << r->id;
        EXPECT_GT(c.tile_m, 0) << r->id;
        EXPECT_GT(c.tile_n, 0) << r->id;
        EXPECT_GT(c.tile_k, 0) << r->id;
        EXPECT_TRUE(c.threads > 0 && c.threads <= 1024 && c.threads % 32 == 0) << r->id;
        EXPECT_TRUE(c.registers > 0 && c.registers <= 255) << r->id;
        EXPECT_TRUE(c.dynamic_smem_bytes >= 0 && c.dynamic_smem_bytes <= c.smem_bytes) << r->id;
        EXPECT_GE(c.stages, 1) << r->id;
        EXPECT_GE(c.cluster_size, 1) << r->id;
        // It fits the GPU its registers were counted for.
        EXPECT_GE(ctas_per_sm(sm_limits_cc90, c.cta()), 1) << r->id;
        // Warp and thread tiles, where stated, cover the CTA tile once.
        const int warps = c.threads / 32;
        if (c.warp_m > 0) {
            EXPECT_EQ(c.warp_m * c.warp_n * warps, c.tile_m * c.tile_n) << r->id;
        }
        if (c.thread_m > 0) {
            EXPECT_EQ(c.thread_m * c.thread_n * c.threads, c.tile_m * c.tile_n) << r->id;
        }
        ++kernels;
    }
    EXPECT_GE(kernels, 17);
}

// The persistent, clustered rungs say so; the others do not.
TEST(Registry, PersistentAndClusteredRungsSaySo) {
    const auto& reg = rung_registry::get();
    EXPECT_TRUE(reg.find("bf16_ws").config->persistent);
    EXPECT_EQ(reg.find("bf16_ws").config->cluster_size, 1);
    EXPECT_TRUE(reg.find("bf16_cluster").config->persistent);
    EXPECT_EQ(reg.find("bf16_cluster").config->cluster_size, 2);
    EXPECT_FALSE(reg.find("bf16_wgmma").config->persistent);
    EXPECT_EQ(reg.find("bf16_ws").config->registers, 168);  // __launch_bounds__(384, 1)
}
