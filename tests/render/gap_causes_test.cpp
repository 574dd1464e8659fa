#include "render/gap_causes.hpp"

#include <gtest/gtest.h>

namespace tgemm::render {
namespace {

constexpr shape n1024{1024, 1024, 1024};
constexpr shape n2048{2048, 2048, 2048};
constexpr shape n4096{4096, 4096, 4096};

TEST(gap_causes, times_reads_as_a_fraction_below_a_tenth) {
    EXPECT_EQ(times(8.62 / 549.9), "1/64");
    EXPECT_EQ(times(0.62), "0.62×");
    EXPECT_EQ(times(1.85), "1.85×");
    EXPECT_EQ(times(23.4), "23×");
}

TEST(gap_causes, band) {
    EXPECT_FALSE(outside_band(1.0));
    EXPECT_FALSE(outside_band(0.8));
    EXPECT_FALSE(outside_band(1.25));
    EXPECT_TRUE(outside_band(0.79));
    EXPECT_TRUE(outside_band(1.26));
}

TEST(gap_causes, roof_words) {
    EXPECT_EQ(roof_word("fp32"), "FP32");
    EXPECT_EQ(roof_word("dram"), "DRAM");
    EXPECT_EQ(roof_word("l2"), "L2");
    EXPECT_EQ(roof_word("smem"), "shared-memory");
}

TEST(gap_causes, l2_serves_the_rereads_with_the_exact_factor) {
    // naive_uncoalesced at 4096³ on the H100: 8.62 GB against (2MNK + 2MN)·4 B.
    EXPECT_EQ(dram_against_textbook(8.62e9, 549.89e9),
              "L2 serves the re-reads: DRAM traffic is 1/64 of the textbook count (8.62 GB "
              "measured, 549.9 GB on paper).");
    // Above a tenth the factor is a multiple.
    EXPECT_EQ(dram_against_textbook(8.58e9, 17.31e9),
              "L2 serves the re-reads: DRAM traffic is 0.50× the textbook count (8.58 GB "
              "measured, 17.3 GB on paper).");
    EXPECT_EQ(dram_against_textbook(8.62e9, 549.89e9, "then this"),
              "L2 serves the re-reads: DRAM traffic is 1/64 of the textbook count (8.62 GB "
              "measured, 549.9 GB on paper); then this.");
}

TEST(gap_causes, dram_above_the_textbook_means_rereads_miss_l2) {
    EXPECT_EQ(dram_against_textbook(497.9e6, 268.4e6),
              "DRAM traffic is 1.86× the textbook count (497.9 MB measured, 268.4 MB on "
              "paper): operands are read from DRAM more than once, their re-reads miss L2.");
    // Within the band or just below half: nothing to say.
    EXPECT_FALSE(dram_against_textbook(1.1e9, 1e9));
    EXPECT_FALSE(dram_against_textbook(0.6e9, 1e9));
    EXPECT_FALSE(dram_against_textbook(0, 1e9));
}

TEST(gap_causes, l2_spill_needs_a_fit_then_a_spill) {
    EXPECT_EQ(l2_spill_clause(n2048, 1.02, n4096, 42.3),
              "at 2048³ DRAM reads are 1.02× the compulsory A + B + C (the operands stay in "
              "L2), at 4096³ they are 42×");
    EXPECT_FALSE(l2_spill_clause(n2048, 1.6, n4096, 42.3));  // no fit at the small size
    EXPECT_FALSE(l2_spill_clause(n2048, 1.02, n4096, 2.0));  // no spill at the big one
}

TEST(gap_causes, c_stays_in_l2_when_dram_writes_fall_short_of_c) {
    const double c = 1024.0 * 1024 * 4;
    EXPECT_EQ(dram_writes(0, c, n1024),
              "C stays in L2: DRAM writes are 0 B at 1024³ against the 4.19 MB of C (M·N·4 B), "
              "so the L2 still holds all of C when the kernel ends.");
    EXPECT_EQ(dram_writes(0.25 * c, c, n1024),
              "C stays in L2: DRAM writes are 1.05 MB at 1024³ against the 4.19 MB of C "
              "(M·N·4 B), so the L2 still holds 75.0 % of C when the kernel ends.");
    // The H100's 1024³ rows write 0.9–1.3× C: no such finding.
    EXPECT_FALSE(dram_writes(0.9 * c, c, n1024));
    EXPECT_FALSE(dram_writes(0.5 * c, c, n1024));
}

TEST(gap_causes, uncoalesced_loads_from_twice_the_textbook) {
    EXPECT_EQ(l1_against_textbook(2.27e12, 549.8e9, false),
              "Uncoalesced loads: L1 moves 16.5 B per 4-byte element load (2.27 TB, 4.13× the "
              "textbook's 549.8 GB): the lanes of a warp read floats in separate 32-byte "
              "sectors, so a warp load of 32 floats fetches up to 32 sectors instead of one "
              "128 B request.");
    EXPECT_TRUE(l1_against_textbook(2.0 * 549.8e9, 549.8e9, false)->starts_with("Uncoalesced"));
    EXPECT_TRUE(l1_against_textbook(1.9 * 549.8e9, 549.8e9, false)->starts_with("L1 moves 7.60 B"));
}

TEST(gap_causes, broadcast_below_four_bytes_per_load) {
    // naive: A is one sector per warp (1 B per lane), B a 128 B request (4 B per lane).
    EXPECT_EQ(l1_against_textbook(343.6e9, 549.8e9, false),
              "Broadcast: L1 moves 2.50 B per 4-byte element load (343.6 GB against the "
              "textbook's 549.8 GB): lanes that read the same float share one 32-byte sector "
              "(1 B per lane), while a coalesced warp load of 32 floats is one 128 B request "
              "(4 B per lane).");
    // A rung that stages in shared memory: the textbook's loads land there.
    EXPECT_EQ(l1_against_textbook(8.66e9, 309.3e9, true),
              "L1 global loads are 1/36 the textbook's element loads (8.66 GB against 309.3 "
              "GB): the textbook counts every operand load of every output, and this rung "
              "serves most of them from shared memory and registers.");
    // Coalesced within the band: nothing.
    EXPECT_FALSE(l1_against_textbook(3.42e9, 3.22e9, false));
}

TEST(gap_causes, n_way_bank_conflicts_from_replays_per_wavefront) {
    EXPECT_EQ(bank_conflicts(8e9, 4e9),
              "2-way bank conflicts double the shared load wavefronts (4.00 G of 8.00 G "
              "wavefronts are replays).");
    EXPECT_EQ(bank_conflicts(3e9, 2e9),
              "3-way bank conflicts triple the shared load wavefronts (2.00 G of 3.00 G "
              "wavefronts are replays).");
    EXPECT_EQ(bank_conflicts(4e9, 3e9),
              "4-way bank conflicts multiply by 4 the shared load wavefronts (3.00 G of 4.00 G "
              "wavefronts are replays).");
    // blocktiling_2d on the H100: 268.5 M of 671.2 M, not a whole number of ways.
    EXPECT_EQ(bank_conflicts(671.2e6, 268.5e6),
              "Bank conflicts add 66.7 % to the shared load wavefronts, 1.67 for each "
              "conflict-free one (268.5 M of 671.2 M wavefronts are replays).");
    EXPECT_FALSE(bank_conflicts(671.2e6, 0));
    EXPECT_FALSE(bank_conflicts(268e6, 60));  // warptiling_sub: 60 replays are noise
}

TEST(gap_causes, shared_against_the_textbook_accesses) {
    EXPECT_EQ(shared_against_textbook(431.5e9, 549.8e9),
              "Shared memory moves 431.5 GB in 128 B wavefronts, 0.78× the textbook's element "
              "accesses × 4 B (549.8 GB): lanes that read the same word share it (broadcast), "
              "so a wavefront serves more than 32 accesses.");
    EXPECT_TRUE(shared_against_textbook(91e9, 68.7e9)
                    ->ends_with("its wavefronts carry fewer than 32 useful words each."));
    EXPECT_FALSE(shared_against_textbook(62.4e9, 51.5e9));
}

TEST(gap_causes, refined_misses_carry_what_the_data_says) {
    EXPECT_EQ(refined_miss({"DRAM bytes (read + write)", 0.69, "1.61 GB", "2.32 GB",
                            "the model gives a read band of 677 MB to 2.25 GB"}),
              "The refined model misses DRAM bytes (read + write): measured 0.69× its "
              "prediction (1.61 GB against 2.32 GB); the model gives a read band of 677 MB to "
              "2.25 GB.");
    EXPECT_EQ(refined_miss({"L2 bytes", 1.5, "3 GB", "2 GB", ""}),
              "The refined model misses L2 bytes: measured 1.50× its prediction (3 GB against "
              "2 GB); the counters do not say why.");
    EXPECT_FALSE(refined_miss({"L2 bytes", 1.02, "3 GB", "2.9 GB", ""}));
}

TEST(gap_causes, bound_by_a_memory_roof_close_to_it) {
    bound_inputs in;
    in.roof = "DRAM";
    in.attainable = 53.6e12;
    in.achieved = 40.2e12;
    in.ai = 16.0;
    in.roofs_checked = {"FP32", "DRAM"};
    EXPECT_EQ(bound_sentence(in),
              "Bound by the DRAM roof: at 16.0 FLOP/B it allows 53.6 TFLOP/s; the kernel "
              "reaches 75.0 % of the bound, 13.4 TFLOP/s short.");
    in.model_ai = true;
    EXPECT_TRUE(bound_sentence(in).starts_with(
        "Bound by the DRAM roof: at 16.0 FLOP/B (the refined model's AI) it allows"));
}

TEST(gap_causes, bound_by_fp32_names_the_memory_roofs_that_allow_more) {
    bound_inputs in;
    in.roof = "FP32";
    in.compute = true;
    in.attainable = 66.9e12;
    in.achieved = 51.2e12;
    in.roofs_checked = {"FP32", "DRAM", "L2", "shared-memory"};
    EXPECT_EQ(bound_sentence(in),
              "Bound by the FP32 roof (66.9 TFLOP/s): at its AIs the DRAM, L2 and "
              "shared-memory roofs allow more; the kernel reaches 76.5 % of the bound, 15.7 "
              "TFLOP/s short.");
}

TEST(gap_causes, far_below_every_roof_points_inside_the_sm) {
    bound_inputs in;
    in.roof = "FP32";
    in.compute = true;
    in.attainable = 66.9e12;
    in.achieved = 5.8e12;
    in.roofs_checked = {"FP32", "DRAM"};
    in.inside_sm = "343.7 GB of L1 global load traffic, 5.00 B per FMA";
    EXPECT_EQ(bound_sentence(in),
              "Bound by the FP32 roof (66.9 TFLOP/s): at its AI the DRAM roof allows more; the "
              "kernel reaches only 8.7 % of the bound, 61.1 TFLOP/s short, so none of the roofs "
              "checked (FP32, DRAM) is what holds it back: inside the SM it moves 343.7 GB of "
              "L1 global load traffic, 5.00 B per FMA.");
}

TEST(gap_causes, above_its_bound_means_a_roof_is_too_low) {
    bound_inputs in;
    in.roof = "L2";
    in.attainable = 10e12;
    in.achieved = 11e12;
    in.ai = 2.0;
    EXPECT_EQ(bound_sentence(in),
              "Bound by the L2 roof: at 2.00 FLOP/B it allows 10.0 TFLOP/s; the kernel runs at "
              "110.0 % of the bound, 1.00 TFLOP/s above it, so that roof is too low.");
}

}  // namespace
}  // namespace tgemm::render
