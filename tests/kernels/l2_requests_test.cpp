// What L1 forwards to L2 of the tiled rungs' loads (kernels/l2_requests.hpp) against Nsight
// Compute's count of the L2 request coalescer's input, lrc__request_sectors_op_read_coalescable,
// measured on the H100 and the H200 for 13 rungs at five shapes, three of them in neither
// shipped profile (docs/validation/{h100,h200}-l2-read-path.csv). Runs in CI without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "l2_requests.hpp"
#include "model/levels.hpp"
#include "model/rung_model.hpp"
#include "profile/profile_file.hpp"
#include "shipped_profiles.hpp"
#include "validation_csv.hpp"

using namespace tgemm;

namespace {

struct read_path_row {
    std::string kernel;
    std::string size;
    double l1_requested = 0, l1_hit = 0, l1_miss = 0, lrc_requests = 0, lrc_coalesced = 0,
           l2_tex_read = 0;
};

// docs/validation/<gpu>-l2-read-path.csv of a shipped GPU.
std::vector<read_path_row> read_path_rows(const std::string& gpu) {
    std::vector<read_path_row> rows;
    for (const auto& r : test::read_validation_csv(gpu + "-l2-read-path.csv"))
        rows.push_back({r.text("kernel"), r.text("size"), r.number("l1_requested"),
                        r.number("l1_hit"), r.number("l1_miss"), r.number("lrc_requests"),
                        r.number("lrc_coalesced"), r.number("l2_tex_read")});
    return rows;
}

// Where the model misses by more than its tolerance, measured, with the cause as far as known
// (docs/models/l2.md), the same on both GPUs (their SM counts, and so their grids' placement, are
// the same). Asserted to stay outside it, so that a model that learns the effect shows.
struct known_miss {
    const char* kernel;
    const char* size;
    const char* why;
};
// (outer_product at 1536×1536×4096 was one: its grid is 12 tiles wide and 132 = 11 × 12, so the
// CTAs sharing an SM read one strip of B; the model's L2 request band covers it now.)
constexpr known_miss known_misses[] = {
    {"blocktiling_2d", "1000x776x328", "L1 misses 7 % more than the strips hold: not known why"},
};

const known_miss* find_known_miss(const read_path_row& row) {
    for (const auto& k : known_misses)
        if (row.kernel == k.kernel && row.size == k.size) return &k;
    return nullptr;
}

}  // namespace

// Every rung that predicts its L2 read requests matches the coalescer's input within 5 % of its
// value, or of its band where it gives one, but at the known misses above, on the H100 and the
// H200: the largest deviation on the other rows is 3.9 % (blocktiling_2d at 2500×3500×1200 on the
// H100), and the coalescer's input itself differs from what L1 misses by up to 3 %, which the model
// does not see. A rung that does not predict them says why in a note.
TEST(L2Requests, StripsEachCtaStreamsMatchTheCoalescersInput) {
    for (const auto& gpu : test::shipped_gpus()) {
        const auto mc = model_context_for(test::shipped(gpu).gpu);
        const auto rows = read_path_rows(gpu);
        ASSERT_EQ(rows.size(), 63u) << gpu;
        int predicted = 0, banded = 0;
        for (const auto& row : rows) {
            const auto where = gpu + " " + row.kernel + " at " + row.size;
            const auto pred =
                rung_registry::get().find(row.kernel).model(parse_shape(row.size), mc).refined;
            const double requested = 32 * row.lrc_requests;
            if (!pred.l2_requested_bytes) {
                EXPECT_TRUE(std::any_of(pred.notes.begin(), pred.notes.end(), [](const auto& n) {
                    return n.starts_with("L2 read requests: not modelled");
                })) << where;
                continue;
            }
            ++predicted;
            const double ratio = requested / *pred.l2_requested_bytes;
            if (const auto* miss = find_known_miss(row)) {
                EXPECT_GT(std::abs(ratio - 1), 0.05)
                    << where << " is within 5 % now: " << miss->why;
                continue;
            }
            if (const auto* band = pred.band(keys::l2_requested_bytes)) {
                // L1 serving one CTA's strip of B to another of the same SM (l2_requests.hpp).
                EXPECT_GE(requested, 0.95 * band->low) << where;
                EXPECT_LE(requested, 1.05 * band->high) << where;
                ++banded;
                continue;
            }
            EXPECT_NEAR(ratio, 1.0, 0.05)
                << where << ": measured " << requested << ", model " << *pred.l2_requested_bytes;
        }
        EXPECT_EQ(predicted, 63) << gpu;  // every row (thread_tiling's a band since 2026-11-27)
        EXPECT_GT(banded, 5) << gpu;      // thread_tiling's five, outer_product at 1536×1536×4096
    }
}

// What the file shows and docs/models/l2.md builds on: the L2 counts the SMs' reads as the
// coalescer's input less what it merged (to 0.01 % or 200 sectors), and the share merged, a timing
// effect, spans 1.3 % to 62 % of the requests across these rows.
TEST(L2Requests, TheL2CountsTheRequestsLessTheCoalescersMerges) {
    double least = 1, most = 0;
    for (const auto& gpu : test::shipped_gpus())
        for (const auto& row : read_path_rows(gpu)) {
            const auto where = row.kernel + " at " + row.size;
            EXPECT_NEAR(row.l2_tex_read, row.lrc_requests - row.lrc_coalesced,
                        std::max(1e-4 * row.l2_tex_read, 200.0))
                << where;
            const double merged = row.lrc_coalesced / row.lrc_requests;
            least = std::min(least, merged);
            most = std::max(most, merged);
        }
    EXPECT_NEAR(least, 0.013, 0.001);
    EXPECT_NEAR(most, 0.618, 0.001);
}

// By hand: 8192×768×2048 FP32 in 128 × 128 tiles, 2 CTAs per SM on 132 SMs: the grid is 6 wide
// and 132 = 22 × 6, so an SM's two CTAs read one strip of B. B's strips: 2048 rows × 512 B =
// 32,768 sectors, read by the 64 CTAs of each of 6 columns: 12,582,912 sectors, half of them
// the low end's saving. At 2048³ (16 wide) and with one CTA per SM: no band.
TEST(L2Requests, CtasOfOneSmShareBsStripWhereTheGridWidthDividesTheSms) {
    const shape s{8192, 768, 2048};
    refined_model r;
    kernels::set_l2_requests(r, s, 4, 128, 128, 2, 132, kernels::sm_sharing::not_in_step);
    const double b = 12'582'912.0 * 32;
    ASSERT_TRUE(r.l2_requested_band);
    EXPECT_DOUBLE_EQ(r.l2_requested_band->high, *r.l2_requested_bytes);
    EXPECT_DOUBLE_EQ(r.l2_requested_band->low, *r.l2_requested_bytes - b / 2);
    refined_model square;
    kernels::set_l2_requests(square, shape{2048, 2048, 2048}, 4, 128, 128, 2, 132,
                             kernels::sm_sharing::not_in_step);
    EXPECT_FALSE(square.l2_requested_band);
    refined_model one;
    kernels::set_l2_requests(one, s, 4, 128, 128, 1, 132, kernels::sm_sharing::in_step);
    EXPECT_FALSE(one.l2_requested_band);
}

// By hand, two CTAs per SM on two SMs, 32 × 32 tiles, K = 8 (a strip of A: 32 rows of one
// sector; of B: 8 rows of 4 sectors). 32 × 128: one row of four tiles, a wave of four; whichever
// two share an SM read one strip of A, so two of the four CTAs read A from L1 (2 × 32 sectors),
// and no two read one strip of B. 64 × 64: two rows of two; of the three ways to pair four CTAs,
// one pairs the rows (2 CTAs read A from L1), one the columns (2 read B), one neither: 2/3 of a
// CTA's A and 2/3 of its B, 2/3 × (32 + 32) sectors. One CTA per SM: none.
TEST(L2Requests, CtasKeepingInStepShareStripsAsTheyShareSms) {
    EXPECT_DOUBLE_EQ(kernels::in_step_shared_bytes(shape{32, 128, 8}, 4, 32, 32, 2, 2), 64 * 32);
    EXPECT_NEAR(kernels::in_step_shared_bytes(shape{64, 64, 8}, 4, 32, 32, 2, 2), 2.0 / 3 * 64 * 32,
                1e-9);
    EXPECT_EQ(kernels::in_step_shared_bytes(shape{64, 64, 8}, 4, 32, 32, 1, 4), 0);
}

// naive at 960×9728×896 (a sweep shape: 304 tiles wide, two CTAs per SM on 132): a wave of 264
// lies in one or two rows of tiles, so CTAs in step share strips of A often enough to take the
// requests more than 10 % under the value: the band's low end lies at 0.824 of it. Measured
// 0.805 and 0.806 of it on the H100 and the H200 (docs/validation/<gpu>-sweep-shapes.json),
// within the L2 tolerance of that end.
TEST(L2Requests, CtasInStepOnAWideGridReadStripsOfAFromL1) {
    const shape s{960, 9728, 896};
    refined_model in_step;
    kernels::set_l2_requests(in_step, s, 4, 32, 32, 2, 132, kernels::sm_sharing::in_step);
    ASSERT_TRUE(in_step.l2_requested_band);
    const double value = *in_step.l2_requested_bytes;
    EXPECT_DOUBLE_EQ(in_step.l2_requested_band->high, value);
    EXPECT_DOUBLE_EQ(in_step.l2_requested_band->low,
                     value - kernels::in_step_shared_bytes(s, 4, 32, 32, 2, 132));
    EXPECT_NEAR(in_step.l2_requested_band->low / value, 0.824, 0.001);
    EXPECT_GE(0.805 * value, (1 - model::l2_tolerance) * in_step.l2_requested_band->low);
    // Not in step, the CTA that next takes an SM, 132 later, is in the same row for 172 of a
    // row's 304: their reads of A, 172 × 30 strips of 32 rows × 896 floats, the low end's saving.
    refined_model apart;
    kernels::set_l2_requests(apart, s, 4, 32, 32, 2, 132, kernels::sm_sharing::not_in_step);
    ASSERT_TRUE(apart.l2_requested_band);
    EXPECT_DOUBLE_EQ(apart.l2_requested_band->low, value - 172.0 * 30 * 32 * 896 * 4);
    EXPECT_DOUBLE_EQ(kernels::successor_shared_bytes(s, 4, 32, 32, 132), 172.0 * 30 * 32 * 896 * 4);
    EXPECT_EQ(kernels::successor_shared_bytes(shape{2048, 2048, 2048}, 4, 32, 32, 132), 0);
}

// By hand: 32 × 36 × 8 floats in 32 × 32 tiles (2 CTAs). A: 32 rows of 32 B, whole sectors, read
// by both CTAs: 2 × 32. B: rows of 144 B, so every other row starts mid-sector: the first
// strip's 128 B touch 4 and 5 sectors in turn (8 rows: 36), the second's 16 B one (8). C: the
// same two widths over 32 rows: 16 × 4 + 16 × 5 + 32 × 1 = 176. 64 + 44 + 176 = 284.
TEST(L2Requests, StripSectorsCountWhereRowsStartAndEnd) {
    EXPECT_EQ(kernels::strip_sectors(shape{32, 36, 8}, 4, 32, 32), 284);
    // Rows of whole sectors: the bytes over 32 (2048³, 32 × 32 tiles: 4096 CTAs).
    const double strips = 4096.0 * 2 * 32 * 2048 * 4 + 2048.0 * 2048 * 4;
    EXPECT_EQ(kernels::strip_sectors(shape{2048, 2048, 2048}, 4, 32, 32), strips / 32);
}

// The tool's own count (CUPTI; the coalescer's counters collected for every rung since
// 2026-11-25) at 2048³ and 1000×776×328 on the H100,
// docs/validation/h100-l2-requests-every-rung.json (the command is in its env): every rung that
// predicts its L2 read requests within the L2 tolerance, 10 %. Against the ncu runs the same
// counter moves between launches by what L1 hits (vectorized at 2048³: 537.9 MB under ncu, 512.8 MB
// here, model 553.6 MB), so this file is held to the L2 tolerance rather than the 5 % of
// the ncu files.
TEST(L2Requests, TheToolsOwnCountForEveryRung) {
    const auto p = read_profile(std::string(TGEMM_SOURCE_DIR) +
                                "/docs/validation/h100-l2-requests-every-rung.json");
    const auto mc = model_context_for(p.gpu);
    int compared = 0;
    for (const auto& m : p.measurements) {
        const auto it = m.counters.find(std::string(keys::l2_requested_bytes));
        ASSERT_NE(it, m.counters.end()) << m.kernel << " " << to_arg(m.size);
        const auto pred = rung_registry::get().find(m.kernel).model(m.size, mc).refined;
        if (!pred.l2_requested_bytes) continue;
        const double ratio = it->second / *pred.l2_requested_bytes;
        ++compared;
        if (const auto* band = pred.band(keys::l2_requested_bytes)) {
            // thread_tiling's walks of B (l2_requests.hpp): within the tolerance of the band.
            EXPECT_GE(it->second, (1 - model::l2_tolerance) * band->low) << m.kernel;
            EXPECT_LE(it->second, (1 + model::l2_tolerance) * band->high) << m.kernel;
            continue;
        }
        // The TMA rungs at 1000×776×328 (rows of 656 B, a last K box 8 of 64 columns inside, edge
        // boxes past M and N) ask for every sector of their boxes, outside parts included: 22-36 %
        // more than the inside sectors alone, which the model counted until 2026-11-26; now
        // within 2.3 % (docs/models/13_17_tensor.md).
        EXPECT_NEAR(ratio, 1, model::l2_tolerance) << m.kernel << " at " << to_arg(m.size);
        if (m.kernel == "bf16_wgmma" || m.kernel == "bf16_ws") {
            EXPECT_NEAR(ratio, 1, 0.012) << m.kernel << " at " << to_arg(m.size);
        }
    }
    EXPECT_EQ(compared, 2 * 17);  // every rung but cuBLAS's three, two shapes
}

// The tool's and ncu's counts of the coalescer's input at 2048³ differ by up to 4.7 % in one
// launch each (h100-l2-requests-every-rung.json against h100-l2-read-path.csv). Measured again on
// the H100, the tool five times (--repeat 5, h100-lrc-2048-5runs.json) and ncu three times
// (h100-lrc-2048-ncu3.csv), on one machine in one call: ncu's median lies inside the tool's own
// range of five launches, widened by 1 %, for every rung but thread_tiling, whose warps walk B
// more often than L1 holds it (docs/models/l2.md): its tool launches ask 2-4 % less than ncu's,
// every one of them. Held outside, so that a change shows.
TEST(L2Requests, TheToolAndNcuMeetWithinTheToolsLaunchSpread) {
    const auto p =
        read_profile(std::string(TGEMM_SOURCE_DIR) + "/docs/validation/h100-lrc-2048-5runs.json");
    std::map<std::string, std::vector<double>> ncu;
    for (const auto& row : test::read_validation_csv("h100-lrc-2048-ncu3.csv"))
        ncu[row.text("kernel")].push_back(32 * row.number("requests"));
    int compared = 0;
    for (const auto& m : p.measurements) {
        ASSERT_TRUE(m.repeats) << m.kernel << ": not a --repeat profile";
        const auto& spread = m.repeats->counters.at(std::string(keys::l2_requested_bytes));
        auto runs = ncu.at(m.kernel);
        ASSERT_EQ(runs.size(), 3u) << m.kernel;
        std::sort(runs.begin(), runs.end());
        const double ncu_median = runs[1];
        const bool inside = ncu_median >= 0.99 * spread.min && ncu_median <= 1.01 * spread.max;
        if (m.kernel == "thread_tiling") {
            EXPECT_FALSE(inside) << "thread_tiling now meets ncu: update docs/models/l2.md";
            EXPECT_LT(spread.max, 0.98 * runs.front());
        } else {
            EXPECT_TRUE(inside) << m.kernel << ": ncu " << ncu_median << ", the tool " << spread.min
                                << " … " << spread.max;
        }
        ++compared;
    }
    EXPECT_EQ(compared, 11);
}

// Nsight Compute on the three TMA rungs at the two ragged shapes (h100-tma-requests-ncu.csv):
// the L2 is asked for every sector of each box as addressed, outside parts included
// (docs/models/13_17_tensor.md, "TMA boxes"). wgmma and ws within 1.2 %, bf16_cluster within 5 %
// (its multicast boxes and stream-K partial sums at the edges are not derived).
TEST(L2Requests, TheTmaRungsAskForTheWholeBoxAtRaggedShapes) {
    const auto mc = model_context_for(test::shipped("h100").gpu);
    int compared = 0;
    for (const auto& row : test::read_validation_csv("h100-tma-requests-ncu.csv")) {
        const auto kernel = row.text("kernel");
        const auto s = parse_shape(row.text("size"));
        const auto pred = rung_registry::get().find(kernel).model(s, mc).refined;
        ASSERT_TRUE(pred.l2_requested_bytes) << kernel;
        const double ratio = 32 * row.number("requests") / *pred.l2_requested_bytes;
        const bool cluster = kernel == "bf16_cluster";
        EXPECT_NEAR(ratio, 1, cluster ? 0.05 : 0.012) << kernel << " at " << to_arg(s);
        // The bytes delivered to the SMs, exactly: the inside sectors and the outside part's zero
        // fill in whole sectors (bf16_cluster's multicast boxes: +4.6 % and +6.9 %, not derived).
        if (!cluster) {
            EXPECT_EQ(row.number("tma_load_bytes"), *pred.tma_load_bytes)
                << kernel << " at " << to_arg(s);
        }
        ++compared;
    }
    EXPECT_EQ(compared, 6);
}

// By hand: thread_tiling at 2048³, 32 × 128 tiles (64 × 16 CTAs). A: 1024 CTAs × 32 rows × 8 KiB
// = 268,435,456 B; B: 1024 CTAs × 2048 rows × 512 B = 1,073,741,824 B; C: 16,777,216 B. The value
// walks B four times (V = 4), the low end once (docs/models/04_thread_tiling.md).
TEST(L2Requests, ThreadTilingWalksBFourTimesAt2048) {
    refined_model r;
    kernels::set_l2_requests_walked(r, shape{2048, 2048, 2048}, 4, 32, 128, 4);
    const double a = 268'435'456, b = 1'073'741'824, c = 16'777'216;
    EXPECT_DOUBLE_EQ(*r.l2_requested_bytes, a + 4 * b + c);
    ASSERT_TRUE(r.l2_requested_band);
    EXPECT_DOUBLE_EQ(r.l2_requested_band->low, a + b + c);
    EXPECT_DOUBLE_EQ(r.l2_requested_band->high, a + 4 * b + c);
    EXPECT_NE(r.l2_requested_band->reason.find("walks the CTA's strip of B 4 times"),
              std::string::npos);
}
