#include <gtest/gtest.h>

#include "gpu_context.hpp"

#include <string>

#include "model/levels.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

rung_model model_of(const shape& s) {
    return rung_registry::get().find("warptiling_sub").model(s, test::h100());
}
double at(const rung_model& m, std::string_view key) {
    return m.refined.get(key).value();
}

}  // namespace

TEST(WarptilingSubModel, SeedThreadCountIdentities) {
    // Seed 003 kernel 06: WM·WN/(WMITER·TM·WNITER·TN) = 32, with 128 threads, WM = 32,
    // WN = 128, TM = 8, TN = 4, WMITER = WNITER = 2; 128 outputs per thread as in kernel 05.
    // A lane's outputs are WMITER·TM = 16 rows by WNITER·TN = 8 columns; their split into
    // sub-tiles is the kernel's own (static_asserts in kernels/11_warptiling_sub.cu).
    const auto& c = *rung_registry::get().find("warptiling_sub").config;
    EXPECT_EQ(c.warp_m * c.warp_n / (c.thread_m * c.thread_n), 32);
    EXPECT_EQ(c.threads, 32 * c.tile_m * c.tile_n / (c.warp_m * c.warp_n));
    EXPECT_EQ(c.threads, 128);
    EXPECT_EQ(c.thread_m * c.thread_n, 128);
    EXPECT_EQ(c.thread_m, 2 * 8);
    EXPECT_EQ(c.thread_n, 2 * 4);
}

TEST(WarptilingSubModel, Textbook) {
    const auto m = model_of({4096, 4096, 4096});
    EXPECT_DOUBLE_EQ(m.textbook.global_bytes,
                     (2.0 * 4096.0 * 4096 * 4096 / 128 + 2.0 * 4096 * 4096) * 4);
    // Per thread per k: WMITER·TM + WNITER·TN = 24 shared loads for 128 outputs.
    EXPECT_DOUBLE_EQ(*m.textbook.smem_accesses, 4096.0 * 4096 * 4096 * 24 / 128);
}

TEST(WarptilingSubModel, ExecutedFlopsSquareAndOdd) {
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::flops), 137'489'285'120.0);
    EXPECT_DOUBLE_EQ(at(model_of({1000, 777, 333}), keys::flops),
                     2.0 * 1024 * 896 * 336 + 3.0 * 1000 * 777);
}

TEST(WarptilingSubModel, RefinedL1AndSharedAt4096) {
    const auto m = model_of({4096, 4096, 4096});
    // L1: A and B as in the warptiling rung (67,108,864 sectors each); C: 16 lanes on 256
    // contiguous bytes, 8 sectors per 64-float sub-tile row: 4096 × 64 × 8 = 2,097,152 sectors.
    // (2 × 67,108,864 + 2,097,152) × 32 B = 4,362,076,160 B (Nsight Compute on the public
    // warptiling kernel, same C pattern: 4.36 GB).
    EXPECT_DOUBLE_EQ(at(m, keys::l1_global_load_bytes), 4'362'076'160.0);
    // Shared loads per warp per k: A 4 LDS.128 × 2 (packed) + B 2 LDS.128 × 4 (256 contiguous
    // bytes, no pairs: 4 conflict-free quarters) = 16. 1024 × 4 × 4096 × 16 = 268,435,456.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_load_wavefronts), 268'435'456.0);
    // Stores: stage 1 is the warptiling rung's: 80 per warp per K step.
    EXPECT_DOUBLE_EQ(at(m, keys::smem_store_wavefronts), 83'886'080.0);
}

TEST(WarptilingSubModel, DramWavesAt4096) {
    EXPECT_DOUBLE_EQ(at(model_of({4096, 4096, 4096}), keys::dram_read_bytes),
                     (35.0 + 128.0 + 32.0) * 2 * 1024 * 1024);
}
