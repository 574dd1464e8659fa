#include <gtest/gtest.h>

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
        EXPECT_TRUE(static_cast<bool>(r->launch)) << r->id;
        EXPECT_TRUE(static_cast<bool>(r->model)) << r->id;
        EXPECT_TRUE(static_cast<bool>(r->can_run)) << r->id;
        const auto m = r->model(shape{256, 256, 256}, model_context{});
        EXPECT_GT(m.textbook.flops, 0) << r->id;
        EXPECT_GT(m.textbook.global_bytes, 0) << r->id;
    }
}
