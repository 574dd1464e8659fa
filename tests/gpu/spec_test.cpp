#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "gpu/peaks.hpp"
#include "gpu/spec.hpp"

using namespace tgemm;

// Seed 002: 108 SMs × 64 cores × 1.41 GHz × 2 = 19.5 TFLOP/s; 2,039 GB/s; ridge 9.75.
TEST(Spec, A100ReproducesSeed002) {
    const auto p = derive_peaks(find_gpu("a100"));
    EXPECT_DOUBLE_EQ(p.fp32_flops, 108.0 * 64 * 2 * 1.41e9);  // 19.49184e12
    EXPECT_EQ(std::round(p.fp32_flops / 1e11) / 10, 19.5);    // as the seed prints it
    EXPECT_DOUBLE_EQ(p.dram_bytes_per_s, 640.0 * 3186e6);     // 2039.04e9
    EXPECT_EQ(std::round(p.dram_bytes_per_s / 1e9), 2039);
    // The seed divides its rounded figures, 19.5 / 2.0; the unrounded ridge is 9.56.
    const double tflops_printed = std::round(p.fp32_flops / 1e11) / 10;     // 19.5
    const double tbs_printed = std::round(p.dram_bytes_per_s / 1e11) / 10;  // 2.0
    EXPECT_EQ(tbs_printed, 2.0);
    EXPECT_DOUBLE_EQ(tflops_printed / tbs_printed, 9.75);
    EXPECT_NEAR(p.ridge(), 9.56, 0.005);
}

// Seed 003: RTX 5070 Ti 43.9 TFLOP/s FP32, 896 GB/s; naive bound at AI 0.25 → 0.224 TFLOP/s.
TEST(Spec, Rtx5070TiReproducesSeed003) {
    const auto p = derive_peaks(find_gpu("rtx5070ti"));
    EXPECT_EQ(std::round(p.fp32_flops / 1e11) / 10, 43.9);
    EXPECT_DOUBLE_EQ(p.dram_bytes_per_s, 896e9);
    EXPECT_DOUBLE_EQ(0.25 * p.dram_bytes_per_s, 0.224e12);
    EXPECT_EQ(std::round(p.tensor_fp16_flops / 1e11) / 10, 87.9);
}

// docs/anchors.md: 132 × 128 × 2 × 1.98 GHz = 66.9 TFLOP/s; 5120/8 B × 2619 MHz × 2 = 3.35 TB/s.
TEST(Spec, H100MatchesAnchors) {
    const auto p = derive_peaks(find_gpu("h100"));
    EXPECT_EQ(std::round(p.fp32_flops / 1e11) / 10, 66.9);
    EXPECT_EQ(std::round(p.dram_bytes_per_s / 1e10) / 100, 3.35);
    const auto h200 = derive_peaks(find_gpu("h200"));
    EXPECT_EQ(std::round(h200.dram_bytes_per_s / 1e10) / 100, 4.81);
}

TEST(Spec, RoofsFromGpuInfoMatchTheDatabase) {
    const auto& s = find_gpu("h100");
    const auto roofs = theoretical_roofs(gpu_info_from_spec(s));
    EXPECT_DOUBLE_EQ(roofs.at("fp32").theoretical, derive_peaks(s).fp32_flops);
    EXPECT_DOUBLE_EQ(roofs.at("dram").theoretical, derive_peaks(s).dram_bytes_per_s);
}

TEST(Spec, UnknownGpuSuggestsClosest) {
    try {
        (void)find_gpu("h10");
        FAIL();
    } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::usage);
        EXPECT_NE(std::string(e.what()).find("did you mean 'h100'"), std::string::npos) << e.what();
    }
    EXPECT_EQ(find_gpu("H100").key, "h100");
}

TEST(Spec, DeviceNamesMapToKeys) {
    EXPECT_EQ(key_for_device_name("NVIDIA H100 80GB HBM3"), "h100");
    EXPECT_EQ(key_for_device_name("NVIDIA H200"), "h200");
    EXPECT_EQ(key_for_device_name("NVIDIA A100-SXM4-80GB"), "a100");
    EXPECT_EQ(key_for_device_name("NVIDIA GeForce RTX 5070 Ti"), "rtx5070ti");
    EXPECT_FALSE(key_for_device_name("NVIDIA GeForce GTX 1080"));
}

// The L2 traffic model's partition count: by key, else by compute capability where every known
// GPU of it agrees, else 0 (unknown: no L2 traffic is modelled).
TEST(Spec, L2PartitionsByKeyThenByComputeCapability) {
    EXPECT_EQ(l2_partitions_of("h100", "9.0"), 2);
    EXPECT_EQ(l2_partitions_of("H200", "9.0"), 2);
    EXPECT_EQ(l2_partitions_of("a100", "8.0"), 2);
    EXPECT_EQ(l2_partitions_of("gh200-unknown", "9.0"), 2);
    EXPECT_EQ(l2_partitions_of("rtx5070ti", "12.0"), 0);
    EXPECT_EQ(l2_partitions_of("some-gpu", "7.5"), 0);
    // The coalescer's fan-out: measured on the H100 and the H200 only.
    EXPECT_EQ(l2_coalescer_fanout_of("h100", "9.0"), 4);
    EXPECT_EQ(l2_coalescer_fanout_of("H200", "9.0"), 4);
    EXPECT_EQ(l2_coalescer_fanout_of("gh200-unknown", "9.0"), 4);
    EXPECT_EQ(l2_coalescer_fanout_of("a100", "8.0"), 0);
    EXPECT_EQ(l2_coalescer_fanout_of("rtx5070ti", "12.0"), 0);
}
