#pragma once
// The wording rules of the findings: each turns a few measured and modelled numbers into one
// plain sentence that names a gap and its cause, or into nothing when the numbers show no
// such gap. They take plain numbers, not rows, so each rule can be tested on its own.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.hpp"
#include "render/names.hpp"  // roof_word, which the sentences use

namespace tgemm::render {

// Measured / model inside [lo, hi] is no gap worth a sentence.
inline constexpr double gap_band_lo = 0.8;
inline constexpr double gap_band_hi = 1.25;
[[nodiscard]] bool outside_band(double ratio);

// A ratio as a reader takes it in: 0.0156 → "1/64", 0.62 → "0.62×", 1.85 → "1.85×", 23.4 →
// "23×".
[[nodiscard]] std::string times(double ratio);

// The roof that bounds a rung and how close it gets (row_analysis::bound_roof and friends).
struct bound_inputs {
    std::string roof;          // display name: "FP32", "DRAM", "L2", "shared-memory"
    bool compute = false;      // the compute roof bounds it (no memory level is lower)
    double attainable = 0;     // FLOP/s the bounding roof allows
    double achieved = 0;       // executed FLOP/s
    std::optional<double> ai;  // FLOP per byte at the bounding level (memory roofs only)
    bool model_ai = false;     // that AI comes from the refined model, not the counters
    // Every roof the bound was taken over, display names ("FP32", "DRAM", "L2", ...).
    std::vector<std::string> roofs_checked;
    // What the SM moves, for a rung far below its roof ("343.7 GB of L1 global load traffic,
    // 5.00 B per FMA"); may be empty.
    std::string inside_sm;
    // A tensor rung's compute roof ("BF16 tensor") and its FLOP/s: a memory bound then says
    // what share of that roof it leaves. Empty for an FP32 rung.
    std::string tensor_roof;
    double tensor_roof_value = 0;
};
// Below this share of its bounding roof, no roof explains the rung's rate.
inline constexpr double far_below_roof = 0.2;
// "Bound by the DRAM roof: at 16.0 FLOP/B it allows 53.6 TFLOP/s; the kernel reaches 76.5 %
// of that, 12.6 TFLOP/s short." A tensor rung under a memory roof: "… it allows 455.0 TFLOP/s,
// 42.5 % of the BF16 tensor roof (1070.5 TFLOP/s); …".
[[nodiscard]] std::string bound_sentence(const bound_inputs& in);

// DRAM bytes (read + write) against the textbook's global bytes, which count every element
// access as DRAM traffic. Far below: L2 serves the re-reads; above: re-reads miss L2. `then`
// is a clause added after a semicolon (how the traffic changes with the size).
[[nodiscard]] std::optional<std::string> dram_against_textbook(double measured, double textbook,
                                                               std::string_view then = {});

// DRAM reads at two sizes against the compulsory A + B + C: the operands stay in L2 at the
// small size and are re-read from DRAM at the big one. A clause, no capital, no period.
[[nodiscard]] std::optional<std::string> l2_spill_clause(const shape& small, double small_ratio,
                                                         const shape& big, double big_ratio);

// DRAM writes against the compulsory M·N·4 B of C: far fewer means C was still in L2 when the
// kernel ended.
[[nodiscard]] std::optional<std::string> dram_writes(double measured, double compulsory,
                                                     const shape& s);

// L1 global load bytes against the textbook's element loads (loads per output × M·N × 4 B).
// `uses_shared`: the rung stages operands in shared memory, where most of the textbook's
// loads land.
[[nodiscard]] std::optional<std::string> l1_against_textbook(double measured, double textbook,
                                                             bool uses_shared);

// Shared load wavefronts and the bank conflicts among them (the replays): conflicts per
// conflict-free wavefront give the n-way figure.
[[nodiscard]] std::optional<std::string> bank_conflicts(double load_wavefronts,
                                                        double load_conflicts);

// Shared-memory bytes as the roof sees them (wavefronts × 128 B) against the textbook's element
// accesses × 4 B.
[[nodiscard]] std::optional<std::string> shared_against_textbook(double measured_bytes,
                                                                 double textbook_bytes);

// The refined model missing one level. `what` names it ("DRAM bytes (read + write)"), the
// values are already formatted; `cause` is what the data says about the miss (a clause), empty
// when it says nothing.
struct refined_miss_inputs {
    std::string what;
    double ratio = 1;  // measured / refined
    std::string measured;
    std::string refined;
    std::string cause;
};
[[nodiscard]] std::optional<std::string> refined_miss(const refined_miss_inputs& in);

}  // namespace tgemm::render
