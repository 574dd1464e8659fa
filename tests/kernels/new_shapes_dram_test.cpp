// The DRAM read and L2 traffic models at shapes the shipped profiles do not hold: profiles the tool
// measured on the H100 and on the H200 at three shapes chosen after the DRAM model was written
// (docs/models/dram-waves.md, "Shapes the model was not fitted to"): odd and wide (2500×3500×1200),
// tall and skinny (6144×1024×1536) and deep (1536×1536×4096). Every rung's reads within 10 % of the
// model as the code computes it now, or of its band's ends, as in the shipped-profile test;
// cuBLAS's only from below (only its compulsory reads are modelled). The one row outside is named,
// so a change that moves it either way shows here.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "dram_expectations.hpp"
#include "l2_expectations.hpp"
#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {
// docs/validation/<gpu>-new-shapes.json, read once per GPU.
const profile& new_shapes(const std::string& gpu) {
    static std::map<std::string, profile> cache;
    auto it = cache.find(gpu);
    if (it == cache.end())
        it = cache
                 .emplace(gpu, read_profile(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" +
                                            gpu + "-new-shapes.json"))
                 .first;
    return it->second;
}

class NewShapes : public ::testing::TestWithParam<std::string> {};

// "<gpu> <kernel> at <shape>" → the most its DRAM reads may be, as a multiple of the model's
// high end (the measured ratio, rounded up).
const std::map<std::string, double> known_misses = {
    {"h100 blocktiling_1d at 2500×3500×1200", 1.11},
};

}  // namespace

// The L2 traffic model (docs/models/l2.md) at the same shapes: L2 writes and fabric bytes as in
// the shipped-profile test, every rung but cuBLAS. The fabric's A and B part is the DRAM read
// model's, so the rows whose DRAM reads that model misses (below) miss their fabric with them:
// named, and held to the measured excess of their reads.
TEST_P(NewShapes, L2WritesAndFabricWithinTheModelOrItsBand) {
    const auto& p = new_shapes(GetParam());
    const auto mc = model_context_for(p.gpu);
    int compared = 0;
    for (const auto& m : p.measurements) {
        if (m.skipped || m.kernel.starts_with("cublas")) continue;
        const auto& r = rung_registry::get().find(m.kernel);
        const auto pred = r.model(m.size, mc).refined;
        const double c = double(m.size.m) * double(m.size.n) * element_bytes(r.types.c);
        const auto where = m.kernel + " at " + to_string(m.size);
        const double fabric = m.counters.at(std::string(keys::l2_fabric_bytes));
        ++compared;
        if (known_misses.contains(GetParam() + " " + where)) {
            const double reads_excess =
                m.counters.at(std::string(keys::dram_read_bytes)) - pred.dram_read_bytes.value();
            EXPECT_TRUE(
                test::within_l2_model(pred, fabric, keys::l2_fabric_bytes, reads_excess, where));
            EXPECT_TRUE(test::within_l2_model(pred,
                                              m.counters.at(std::string(keys::l2_write_bytes)),
                                              keys::l2_write_bytes, 0, where));
            continue;
        }
        test::expect_l2_traffic(pred, m.counters.at(std::string(keys::l2_write_bytes)), fabric, c,
                                where);
    }
    EXPECT_EQ(compared, 43);
}

TEST_P(NewShapes, DramReadsWithinTheModelOrItsBand) {
    const auto& p = new_shapes(GetParam());
    const auto mc = model_context_for(p.gpu);
    int compared = 0;
    int outside = 0;
    for (const auto& m : p.measurements) {
        if (m.skipped) continue;
        const auto& r = rung_registry::get().find(m.kernel);
        const auto pred = r.model(m.size, mc).refined;
        const double reads = m.counters.at(std::string(keys::dram_read_bytes));
        const auto allowed = test::dram_reads_allowed(pred);
        const double high =
            pred.dram_read_band ? pred.dram_read_band->high : pred.dram_read_bytes.value();
        const auto where = m.kernel + " at " + to_string(m.size);
        ++compared;
        EXPECT_GE(reads, allowed.low) << where;
        if (m.kernel.starts_with("cublas")) continue;
        if (reads <= allowed.high) continue;
        ++outside;
        // The known misses, each held to its measured excess so that a change either way shows:
        // H100: blocktiling_1d's 64×64 tiles at 2500×3500×1200 read 10.6 % more than the model,
        // whose waves of 264 CTAs keep B in L2 (docs/models/dram-waves.md); Nsight Compute
        // on run-kernel reads 65.3 MB, 2.4 % over the model: at the L2's capacity edge the count
        // follows where the operands sit in physical memory (65.3-71.0 MB over 27 allocation
        // recipes, docs/validation-method.md), and the tool's process order is a dear one. The
        // model has no band for the placement yet.
        // (H200 smem_tiling at 1536×1536×4096, 13.4 % over the value, was a named miss until
        // 2026-11-27; it is inside the band the groups running at once give the drifting rungs,
        // kernels/reg_tiling_model.hpp. naive there, 21 % over the model before the measured
        // retention curve, is within 10 %.)
        const auto it = known_misses.find(GetParam() + " " + where);
        ASSERT_NE(it, known_misses.end()) << where << ": " << reads << " > " << high;
        EXPECT_LE(reads, it->second * high) << where;
    }
    EXPECT_EQ(compared, 49);
    EXPECT_EQ(outside, GetParam() == "h100" ? 1 : 0);
}

// DRAM writes as in the shipped-profile test: within 10 % or 1 MB of the model's value or its
// band's ends (tests/kernels/dram_expectations.hpp); cuBLAS's from below only. (Until
// 2026-11-27 thread_tiling at 1536×1536×4096 on the H100 was a named miss below the band: its
// whole grid is resident, and the band's low end now has the groups finish together,
// kernels/reg_tiling_model.hpp.)
TEST_P(NewShapes, DramWritesWithinTheModelOrItsBand) {
    const auto& p = new_shapes(GetParam());
    const auto mc = model_context_for(p.gpu);
    int banded = 0;
    for (const auto& m : p.measurements) {
        if (m.skipped) continue;
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        const bool library = m.kernel.starts_with("cublas");
        const auto where = m.kernel + " at " + to_string(m.size);
        const double writes = m.counters.at(std::string(keys::dram_write_bytes));
        test::expect_dram_writes(pred, writes, double(mc.l2_bytes), library, where);
        banded += !library && pred.band(keys::dram_write_bytes) ? 1 : 0;
    }
    EXPECT_GT(banded, 0);
}

// L2 read requests where the profile measured them, as in the shipped-profile test: within the
// L2 tolerance of the model or its band (docs/models/l2.md).
TEST_P(NewShapes, L2RequestsWithinTheL2Tolerance) {
    const auto& p = new_shapes(GetParam());
    const auto mc = model_context_for(p.gpu);
    int compared = 0;
    for (const auto& m : p.measurements) {
        const auto it = m.counters.find(std::string(keys::l2_requested_bytes));
        if (m.skipped || it == m.counters.end()) continue;
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        compared +=
            test::expect_l2_requests(pred, it->second, m.kernel + " at " + to_string(m.size));
    }
    // Five tensor rungs at the two shapes the BF16 rungs take, and the eleven FP32 rungs at the
    // three (their profiles carry the coalescer's counters since 2026-11-26).
    EXPECT_EQ(compared, 43);
}

// The L2's totals (kernels/l2_totals.hpp) on the same rows: within the L2 tolerance of their
// bands; the rows whose DRAM reads the read model misses with that excess allowed, as for their
// fabric above (the fabric's reads carry it).
TEST_P(NewShapes, L2TotalsWithinTheirBands) {
    const auto& p = new_shapes(GetParam());
    const auto mc = model_context_for(p.gpu);
    int compared = 0;
    for (const auto& m : p.measurements) {
        if (m.skipped || m.kernel.starts_with("cublas")) continue;
        const auto where = m.kernel + " at " + to_string(m.size);
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        const double excess =
            known_misses.contains(GetParam() + " " + where)
                ? m.counters.at(std::string(keys::dram_read_bytes)) - pred.dram_read_bytes.value()
                : 0;
        compared += test::expect_l2_totals(
            pred,
            [&](std::string_view k) {
                const auto it = m.counters.find(std::string(k));
                return it == m.counters.end() ? NAN : it->second;
            },
            where, excess);
    }
    // Reads and all bytes on the 43 rows with an L2 request model.
    EXPECT_EQ(compared, 86);
}

INSTANTIATE_TEST_SUITE_P(Gpus, NewShapes, ::testing::Values("h100", "h200"),
                         [](const auto& info) { return info.param; });
