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
        const std::int64_t tile = std::string(id) == "thread_tiling" ? 32 : 128;
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
