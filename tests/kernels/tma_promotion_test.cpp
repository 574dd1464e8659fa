// The TMA rungs' fabric bytes against the L2 traffic model, with their tensor maps' L2
// promotion as shipped (256 B) and switched off, measured with Nsight Compute on the H100 and
// the H200 (docs/validation/{h100,h200}-tma-l2-promotion.csv; docs/models/l2.md, "TMA loads").
// Runs in CI without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_context.hpp"
#include "model/levels.hpp"
#include "model/rung_model.hpp"
#include "shipped_profiles.hpp"
#include "tensor/tma_l2_promotion.hpp"
#include "validation_csv.hpp"

using namespace tgemm;

namespace {

struct promotion_row {
    std::string promotion, kernel, size;
    double fabric = 0, tex_read = 0, dram_read = 0, duration_ns = 0;
};

std::vector<promotion_row> promotion_rows(const std::string& gpu) {
    std::vector<promotion_row> rows;
    for (const auto& r : test::read_validation_csv(gpu + "-tma-l2-promotion.csv"))
        rows.push_back({r.text("promotion"), r.text("kernel"), r.text("size"),
                        32 * r.number("l2_fabric"), 32 * r.number("l2_tex_read"),
                        r.number("dram_read_bytes"), r.number("duration_ns")});
    return rows;
}

// The fabric model's value, computed as the ladder ships (256-byte promotion), and as it would be
// with the promotion off: less (P-1)/P of A's and B's modelled DRAM reads.
double model_fabric(const promotion_row& r, const model_context& mc, bool promoted) {
    const auto s = parse_shape(r.size);
    const auto pred = rung_registry::get().find(r.kernel).model(s, mc).refined;
    if (promoted) return *pred.l2_fabric_bytes;
    const double c = 2.0 * double(s.m) * double(s.n);
    const double far = double(mc.l2_partitions - 1) / mc.l2_partitions;
    return *pred.l2_fabric_bytes - far * (*pred.dram_read_bytes - c);
}

}  // namespace

// Without multicast (bf16_wgmma, bf16_ws), the fabric meets the model within the L2 tolerance,
// 10 %, with the maps as shipped and with their promotion off, on both GPUs (the largest: bf16_ws
// at 3000×1992×1000 without promotion on the H100, +6.6 %); the promotion's share is what the
// model adds. But bf16_wgmma at 1024³ on the H100 with the promotion off or at 128 bytes: 64
// CTAs, one wave, whose value since 2026-11-28 has the strips read on one partition cross only
// for the far half (docs/models/l2.md, "A launch of one wave"); Nsight Compute's single launches
// of those builds lie 1.16 above it, as its launches of the shipped build do by less (1.07; on the
// H200 1.02, and its promotion-off builds 1.07-1.08, inside; the tool's own launches 0.92 and 0.97
// of the value, the H100's with its window), where the start column moves the value by −2 … +3 %
// (the one-sided share 0.25-0.38 about its mean 0.33): named, so that one coming in shows.
TEST(TmaPromotion, FabricMeetsTheModelWithAndWithoutPromotion) {
    static_assert(tensor::tma_l2_promotion_bytes == 256);
    const std::set<std::string> above = {"h100 NONE bf16_wgmma at 1024",
                                         "h100 L2_128B bf16_wgmma at 1024"};
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = test::for_ncu(model_context_for(test::shipped(gpu).gpu));
        const auto rows = promotion_rows(gpu);
        ASSERT_EQ(rows.size(), 36u) << gpu;
        int compared = 0;
        for (const auto& r : rows) {
            if (r.kernel == "bf16_cluster") continue;
            const auto where = gpu + " " + r.promotion + " " + r.kernel + " at " + r.size;
            const double model = model_fabric(r, mc, r.promotion == "256B");
            if (above.count(where))
                EXPECT_GT(r.fabric / model, 1.10) << where << ": a named miss, now inside";
            else
                EXPECT_NEAR(r.fabric / model, 1.0, 0.10) << where;
            ++compared;
        }
        EXPECT_EQ(compared, 24) << gpu;
    }
}

// 128-byte promotion moves nothing against none; the DRAM reads do not move either.
TEST(TmaPromotion, Only256BytePromotionAddsFabricTraffic) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto rows = promotion_rows(gpu);
        std::map<std::string, promotion_row> none;
        for (const auto& r : rows)
            if (r.promotion == "NONE") none[r.kernel + r.size] = r;
        for (const auto& r : rows) {
            const auto where = gpu + " " + r.promotion + " " + r.kernel + " at " + r.size;
            const auto& off = none.at(r.kernel + r.size);
            EXPECT_NEAR(r.dram_read, off.dram_read, 0.005 * off.dram_read) << where;
            if (r.promotion == "L2_128B") {
                EXPECT_NEAR(r.fabric, off.fabric, 0.01 * off.fabric) << where;
            }
            if (r.promotion == "256B") {
                EXPECT_GT(r.fabric, 1.1 * off.fabric) << where;
            }
        }
    }
}

// Multicast (bf16_cluster): above the kept rule by 4-32 % as shipped, inside the band.
TEST(TmaPromotion, MulticastLiesInItsBand) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = test::for_ncu(model_context_for(test::shipped(gpu).gpu));
        for (const auto& r : promotion_rows(gpu)) {
            if (r.kernel != "bf16_cluster" || r.promotion != "256B") continue;
            const auto where = gpu + " " + r.size;
            const auto pred =
                rung_registry::get().find(r.kernel).model(parse_shape(r.size), mc).refined;
            const auto* band = pred.band(keys::l2_fabric_bytes);
            ASSERT_NE(band, nullptr) << where;
            EXPECT_GE(r.fabric, band->low) << where;
            EXPECT_LE(r.fabric, band->high) << where;
        }
    }
}

// What the files show of multicast and of time, printed: the cluster rung's fabric over the
// value, and each rung's duration as shipped over without promotion (one launch each).
TEST(TmaPromotion, PrintMulticastAndTime) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = test::for_ncu(model_context_for(test::shipped(gpu).gpu));
        std::map<std::string, promotion_row> none;
        for (const auto& r : promotion_rows(gpu))
            if (r.promotion == "NONE") none[r.kernel + r.size] = r;
        for (const auto& r : promotion_rows(gpu)) {
            if (r.promotion != "256B") continue;
            const auto& off = none.at(r.kernel + r.size);
            std::printf("%s %-13s %-15s fabric / model %.3f (off: %.3f), time %.3f of off\n",
                        gpu.c_str(), r.kernel.c_str(), r.size.c_str(),
                        r.fabric / model_fabric(r, mc, true),
                        off.fabric / model_fabric(off, mc, false), r.duration_ns / off.duration_ns);
        }
    }
}
