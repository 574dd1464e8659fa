// The DRAM read model at shapes the shipped profiles do not hold: a profile the tool measured on
// the H100 at three shapes chosen after the model was written (docs/models/dram-waves.md,
// "Shapes the model was not fitted to"): odd and wide (2500×3500×1200), tall and skinny
// (6144×1024×1536) and deep (1536×1536×4096). Every rung's reads within 10 % of the model as the
// code computes it now, or of its band's ends, as in the shipped-profile test; cuBLAS's only from
// below (only its compulsory reads are modelled). The one row outside is named, so a change that
// moves it either way shows here.
#include <gtest/gtest.h>

#include <string>

#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "rung.hpp"

using namespace tgemm;

TEST(NewShapes, DramReadsWithinTheModelOrItsBand) {
    const auto p =
        read_profile(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/h100-new-shapes.json");
    const auto mc = model_context_for(p.gpu);
    const double tol = model::dram_tolerance;
    int compared = 0;
    int outside = 0;
    for (const auto& m : p.measurements) {
        if (m.skipped) continue;
        const auto& r = rung_registry::get().find(m.kernel);
        const auto pred = r.model(m.size, mc).refined;
        const double reads = m.counters.at(std::string(keys::dram_read_bytes));
        const double model = pred.dram_read_bytes.value();
        const double low = pred.dram_read_band ? pred.dram_read_band->low : model;
        const double high = pred.dram_read_band ? pred.dram_read_band->high : model;
        const auto where = m.kernel + " at " + to_string(m.size);
        ++compared;
        EXPECT_GE(reads, (1 - tol) * low) << where;
        if (m.kernel.starts_with("cublas")) continue;
        if (reads <= (1 + tol) * high) continue;
        ++outside;
        // The known miss: blocktiling_1d's 64×64 tiles at 2500×3500×1200 read 10.6 % more than
        // the model, whose waves of 264 CTAs keep B in L2 (docs/models/dram-waves.md).
        EXPECT_EQ(where, "blocktiling_1d at 2500×3500×1200") << reads << " > " << high;
        EXPECT_LE(reads, 1.11 * high) << where;
    }
    EXPECT_EQ(compared, 49);
    EXPECT_LE(outside, 1);
}
