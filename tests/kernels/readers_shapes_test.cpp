// The DRAM model at eight shapes chosen to tell apart the two rules for what a partition holds
// of a strip (every strip whole, or 1 − (1/2)^(r+1) of a strip r CTAs read, kernels/wave_dram.hpp):
// wide grids whose waves read most strips of B with one to four CTAs. Both rules' predictions
// were committed (docs/validation/readers-shapes-predictions.csv, 3594b2d) before the tool measured
// ten FP32 rungs there on the H200 and the H100 (docs/validation/<gpu>-readers-shapes.json;
// docs/models/dram-waves.md, "Wide grids: the readers' share measured"). And at four more, where
// thread_tiling's walks of B, rule 2's look-back and a part-filled wave's early finishers matter,
// predicted before seven rungs were measured there (docs/validation/walks-shapes-predictions.csv,
// 56f9132; <gpu>-walks-shapes.json; "The schedule seen directly" there). And at six more, wide
// grids whose strips of B one or two CTAs of a wave read, where a set swept by readers that move
// decides (docs/validation/sweep-shapes-predictions.csv, 785cbc8; <gpu>-sweep-shapes.json; "A set
// swept again and again" there).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "dram_expectations.hpp"
#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "rung.hpp"

using namespace tgemm;

namespace {

// The rows outside the model and its band (10 %, writes 10 % or 1 MB): the model at these shapes
// is not done. Reads: the naive rungs at the widest grids re-read more than a wave that fits (the
// wave's B strips, read by one or two CTAs, held 3/4 or 7/8 per partition: under the edge;
// measured 1.3–2.2 × the value), and smem_tiling with them at three of those shapes since the
// strips are found again after any number of waves (2026-11-27, wave_dram.cpp; it reads what naive
// reads there, and its value of groups drifting apart, 326–860 MB, read each strip again after
// one group without it); outer_product at 1024×3072×4096 (−21 %: how its groups drift); and the
// others named. Came in on 2026-11-27 (docs/models/dram-waves.md, "The schedule seen directly"):
// smem_tiling at 3072×4608×1024 on the H200 (88 MB read against a value of 250 MB, now 88.1);
// thread_tiling at 1024×3072×4096 (+30 % over the value of drifting groups, now within 0.1 % with
// its waves in step and its four walks of B); and the writes of blocktiling_2d and vectorized
// there, whose grid (8 × 24 tiles of 128 × 128) is one part-filled wave the model keeps dirty to
// the end, where they write 1.1–2.9 MB (warptiling and sm90_fp32, the same grid, none): the CTAs
// alone on an SM finish first (traced at 0.70–0.72 of the others' lifetime), which the write
// band's high end now allows (wave_dram.cpp). Came in later on 2026-11-27
// (docs/models/dram-waves.md, "A set swept again and again"): naive at 1536×5120×1280 on the H100
// and naive and smem_tiling at 768×8448×1024 and smem_tiling at 2048×4224×1536 on the H200, whose B
// strips, read by one or two CTAs of a wave and again by other CTAs on other SMs, leave L2 as a set
// swept by readers that move does, not as the share of it a partition holds for readers that stay
// says.
const std::set<std::string> known_misses = {
    "h100 smem_tiling at 1536×5120×1280 reads",
    "h100 blocktiling_1d at 3072×4608×1024 reads",
    "h100 outer_product at 1024×3072×4096 reads",
    "h100 outer_product at 512×8192×2048 reads",
    "h200 naive at 2048×4224×1536 reads",
    "h200 naive at 1536×5120×1280 reads",
    "h200 smem_tiling at 1536×5120×1280 reads",
    "h200 outer_product at 512×8192×2048 reads",
    // Four shapes where thread_tiling's walks of B, the look-back of rule 2 and a part-filled
    // wave's early finishers matter, predicted before they were measured (2026-11-27,
    // docs/validation/walks-shapes-predictions.csv): thread_tiling at 2500×3000×3000 on the H100
    // (+25 %: 15.5 passes over B where its waves give 12; the H200 reads 11.1, within its value),
    // outer_product at 768×2304×6144 on the H100 (−42 %, no band there; the H200 inside its
    // band), and naive and smem_tiling at 1152×4608×1536 on the H200 (+57 %, the re-reads of the
    // wide grids above; the H100 inside).
    "h100 thread_tiling at 2500×3000×3000 reads",
    "h100 outer_product at 768×2304×6144 reads",
    "h200 naive at 1152×4608×1536 reads",
    "h200 smem_tiling at 1152×4608×1536 reads",
    // Six wide shapes where the swept-set rule moves the reads, predicted before they were
    // measured (2026-11-27, docs/validation/sweep-shapes-predictions.csv): the H200's drifting
    // smem_tiling at three of them (−10 … −37 %: its groups of one CTA per SM; the share rule
    // alone gave −51 … −57 %) and naive at 3072×3840×1920 (−19 %; −48 %), below the value.
    "h200 smem_tiling at 1280×7168×1152 reads",
    "h200 smem_tiling at 1664×5632×1408 reads",
    "h200 smem_tiling at 3072×3840×1920 reads",
    "h200 naive at 3072×3840×1920 reads",
    // Three shapes where CTAs sharing an SM and a strip decide the L2 requests, predicted before
    // they were measured (2026-11-28, docs/validation/sm-sharing-shapes-README.txt): smem_tiling at
    // 1664×6656×1280 on the H200 (+46 % over the value of its drifting groups, as at the wide
    // shapes above; the H100 within the band).
    "h200 smem_tiling at 1664×6656×1280 reads",
    // Four odd shapes, every rung but cuBLAS, predicted before they were measured (2026-11-28,
    // docs/validation/odd-shapes-README.txt): naive and smem_tiling at 776×9992×552 on the H100
    // (+21 … +22 %, the wide grids' re-reads above), thread_tiling at 2216×1112×3336 on the H100
    // (+21 %) and naive_uncoalesced at 6000×512×2504 on the H200 (0.79: A 1.9 × the half, read
    // fewer times than once per column of tiles).
    "h100 naive at 776×9992×552 reads",
    "h100 smem_tiling at 776×9992×552 reads",
    "h100 thread_tiling at 2216×1112×3336 reads",
    "h200 naive_uncoalesced at 6000×512×2504 reads",
    // Six shapes most rungs launch in one wave, predicted before they were measured (2026-11-28,
    // docs/validation/one-wave-shapes-README.txt): on the H200, naive_uncoalesced at
    // 3840×640×1792 (+18 % over its band's high end, A at 0.87 of the half) and smem_tiling at
    // 640×5120×1536 (+23 %, the wide grids' re-reads above); the H100 inside on all 204 values.
    "h200 naive_uncoalesced at 3840×640×1792 reads",
    "h200 smem_tiling at 640×5120×1536 reads",
    // Six shapes eight rungs launch with no more CTAs than SMs, predicted before they were measured
    // (2026-11-28, docs/validation/small-launch-shapes-README.txt): on the H100 reads just above
    // the model's high end, naive_uncoalesced at 2816×512×2048 (+3.7 %), naive and thread_tiling
    // at 1024×1664×3072 (+4.3 %, +2.4 %) and thread_tiling at 640×1280×4096 (+0.9 %); on the H200
    // smem_tiling's writes at 2816×512×2048, 1.06 MB where the model has none (1 MB allowed).
    "h100 naive_uncoalesced at 2816×512×2048 reads",
    "h100 naive at 1024×1664×3072 reads",
    "h100 thread_tiling at 1024×1664×3072 reads",
    "h100 thread_tiling at 640×1280×4096 reads",
    "h200 smem_tiling at 2816×512×2048 writes",
};

// Every row of `<gpu>-<set>.json` within the model or its band but the named misses, and each
// named miss outside (so that a model that brings one in shows, and the list shrinks with it).
void expect_within_or_named(const std::string& gpu, const std::string& set, int rows, int misses) {
    const auto p = read_profile(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/" + gpu + "-" +
                                set + ".json");
    const auto mc = model_context_for(p.gpu);
    int compared = 0, missed = 0;
    for (const auto& m : p.measurements) {
        ASSERT_FALSE(m.skipped) << m.kernel;
        ASSERT_TRUE(m.verified) << m.kernel;
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        const auto where = gpu + " " + m.kernel + " at " + to_string(m.size);
        const double reads = m.counters.at(std::string(keys::dram_read_bytes));
        const auto allowed = test::dram_reads_allowed(pred);
        const bool reads_in = reads >= allowed.low && reads <= allowed.high;
        const double writes = m.counters.at(std::string(keys::dram_write_bytes));
        const auto w = test::dram_writes_allowed(pred);
        const bool writes_in = writes >= w.allowed_low && writes <= w.allowed_high;
        for (const auto& [in, what, measured, low, high] :
             {std::tuple{reads_in, "reads", reads, allowed.low, allowed.high},
              std::tuple{writes_in, "writes", writes, w.low, w.high}}) {
            const bool named = known_misses.contains(where + " " + what);
            EXPECT_EQ(in, !named) << where << ": DRAM " << what << " " << measured / 1e6
                                  << " MB against " << low / 1e6 << " … " << high / 1e6
                                  << (named ? " (a named miss, now inside)" : "");
            missed += named;
        }
        ++compared;
    }
    EXPECT_EQ(compared, rows);
    EXPECT_EQ(missed, misses);
}

}  // namespace

// The eight wide grids of "Wide grids: the readers' share measured" (docs/models/dram-waves.md).
class ReadersShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(ReadersShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "readers-shapes", 80, 4);
}

INSTANTIATE_TEST_SUITE_P(Gpus, ReadersShapes, ::testing::Values("h100", "h200"));

// The four shapes of "The schedule seen directly", checked out of sample.
class WalksShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(WalksShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "walks-shapes", 28, 2);
}

INSTANTIATE_TEST_SUITE_P(Gpus, WalksShapes, ::testing::Values("h100", "h200"));

// The six shapes of "A set swept again and again", checked out of sample.
class SweepShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(SweepShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "sweep-shapes", 24, GetParam() == "h100" ? 0 : 4);
}

INSTANTIATE_TEST_SUITE_P(Gpus, SweepShapes, ::testing::Values("h100", "h200"));

// The three shapes of "CTAs in step sharing an SM and a strip" (docs/models/l2.md), out of sample.
class SmSharingShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(SmSharingShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "sm-sharing-shapes", 18, GetParam() == "h100" ? 0 : 1);
}

INSTANTIATE_TEST_SUITE_P(Gpus, SmSharingShapes, ::testing::Values("h100", "h200"));

// Every rung but cuBLAS at four odd shapes a user might ask for
// (docs/validation/odd-shapes-README.txt).
class OddShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(OddShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "odd-shapes", 68, GetParam() == "h100" ? 3 : 1);
}

INSTANTIATE_TEST_SUITE_P(Gpus, OddShapes, ::testing::Values("h100", "h200"));

// Six shapes most rungs launch in one wave, every rung but cuBLAS, predicted before they were
// measured (docs/validation/one-wave-shapes-README.txt).
class OneWaveShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(OneWaveShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "one-wave-shapes", 102, GetParam() == "h100" ? 0 : 2);
}

INSTANTIATE_TEST_SUITE_P(Gpus, OneWaveShapes, ::testing::Values("h100", "h200"));

// Six shapes eight rungs launch with no more CTAs than SMs, every rung but cuBLAS, predicted
// before they were measured (docs/validation/small-launch-shapes-README.txt).
class SmallLaunchShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(SmallLaunchShapes, DramWithinTheModelOrItsBand) {
    expect_within_or_named(GetParam(), "small-launch-shapes", 102, GetParam() == "h100" ? 4 : 1);
}

INSTANTIATE_TEST_SUITE_P(Gpus, SmallLaunchShapes, ::testing::Values("h100", "h200"));
