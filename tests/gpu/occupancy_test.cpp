// The one occupancy calculation (gpu/occupancy.hpp) on the three compute capabilities of the
// spec database. Expected values are cudaOccupancyMaxActiveBlocksPerMultiprocessor's rule
// (cuda_occupancy.h) worked by hand.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/spec.hpp"

using namespace tgemm;

TEST(Occupancy, RegistersThreadsAndSharedMemoryLimitCtasOnTheH100) {
    const auto& h = sm_limits_cc90;
    EXPECT_EQ(ctas_per_sm(h, {256, 128, 8 * 1024}), 2);   // 2D tiling: registers
    EXPECT_EQ(ctas_per_sm(h, {256, 110, 8 * 1024}), 2);   // vectorized
    EXPECT_EQ(ctas_per_sm(h, {128, 177, 16 * 1024}), 2);  // warptiling
    EXPECT_EQ(ctas_per_sm(h, {512, 64, 4096}), 2);        // 1D tiling: registers
    EXPECT_EQ(ctas_per_sm(h, {256, 63, 4224}), 4);        // 63 → 64 per thread in whole warps
    EXPECT_EQ(ctas_per_sm(h, {256, 48, 0}), 5);
    EXPECT_EQ(ctas_per_sm(h, {256, 40, 0}), 6);
    EXPECT_EQ(ctas_per_sm(h, {256, 255, 80 * 1024}), 1);
    EXPECT_EQ(ctas_per_sm(h, {256, 64, 120 * 1024}), 1);   // shared memory binds
    EXPECT_EQ(ctas_per_sm(h, {128, 32, 100 * 1024}), 2);   // shared memory
    EXPECT_EQ(ctas_per_sm(h, {1024, 32, 0}), 2);           // threads bind
    EXPECT_EQ(ctas_per_sm(h, {32, 16, 0}), 32);            // the CTA limit binds
    EXPECT_EQ(ctas_per_sm(h, {384, 168, 197 * 1024}), 1);  // rungs 16 and 17
}

// A warp's registers come from one quarter of the register file: 96 registers × 32 lanes =
// 3072 per warp, 5 warps per quarter (16384 / 3072 = 5.3), 20 per SM; the whole file divided
// by 3072 would give 21.
TEST(Occupancy, RegistersAreAllocatedPerPartition) {
    EXPECT_EQ(ctas_per_sm(sm_limits_cc90, {32, 96, 0}), 20);
}

// Shared memory per CTA is its own bytes plus the 1 KB reserve, in units of 128 bytes: 1000 +
// 1024 → 2048, 114 CTAs' worth of 228 KB (2024 bytes unrounded would give 115), and 11 000 +
// 1024 → 12 032, 19.
TEST(Occupancy, SharedMemoryIsAllocatedInUnits) {
    sm_limits many_ctas = sm_limits_cc90;
    many_ctas.ctas_per_sm = 1000;  // so that shared memory alone binds
    many_ctas.threads_per_sm = 1 << 16;
    EXPECT_EQ(ctas_per_sm(many_ctas, {32, 0, 1000}), 114);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc90, {32, 0, 11'000}), 19);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc90, {32, 0, 227 * 1024 + 1}), 0);  // above the opt-in
    EXPECT_EQ(ctas_per_sm(sm_limits_cc90, {32, 256, 0}), 0);  // above 255 registers a thread
}

// The same kernels on the other GPUs of the database: the A100's 164 KB and the RTX 5070 Ti's
// 1536 threads, 24 CTAs and 100 KB per SM.
TEST(Occupancy, TheLimitsOfEachComputeCapabilityApply) {
    EXPECT_EQ(ctas_per_sm(sm_limits_cc80, {128, 32, 100 * 1024}), 1);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc80, {1024, 32, 0}), 2);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc120, {1024, 32, 0}), 1);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc120, {32, 16, 0}), 24);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc120, {256, 126, 69632}), 1);  // bf16_wmma: 2 on the H100
    EXPECT_EQ(ctas_per_sm(sm_limits_cc90, {256, 126, 69632}), 2);
    EXPECT_EQ(ctas_per_sm(sm_limits_cc120, {128, 32, 100 * 1024}), 0);  // above its 99 KB
}

TEST(Occupancy, UnknownLimitsAreAnError) {
    EXPECT_THROW((void)ctas_per_sm(sm_limits{}, {128, 32, 0}), error);
}

// Compile-time use, as the rungs check their launch bounds.
static_assert(ctas_per_sm(sm_limits_cc90, {256, 48, 0}) == 5);

// Each GPU of the database carries the limits of its compute capability, with a source.
TEST(Spec, EveryGpuHasTheSmLimitsOfItsComputeCapability) {
    for (const auto& s : gpu_specs()) {
        EXPECT_EQ(s.limits, sm_limits_for(s.cc_major, s.cc_minor)) << s.key;
        EXPECT_FALSE(s.limits_source.empty()) << s.key;
    }
    EXPECT_EQ(find_gpu("rtx5070ti").limits.threads_per_sm, 1536);
    EXPECT_FALSE(sm_limits_for(7, 5));
}

// A model asks for at least one resident CTA: a kernel that does not fit is an error, not a
// division by zero.
TEST(Occupancy, AModelOfAKernelThatDoesNotFitIsAnError) {
    EXPECT_EQ(resident_ctas_per_sm(sm_limits_cc90, {256, 48, 0}), 5);
    try {
        (void)resident_ctas_per_sm(sm_limits_cc80, {384, 168, 197 * 1024});
        FAIL();
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
    }
}
