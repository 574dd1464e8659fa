#pragma once
// The findings' "tensor ladder, step by step": for each pair of consecutive tensor rungs at the
// focus size, what the later rung buys and at which level, read off the two rows' counters. A
// reader sees where each technique (ldmatrix and swizzles, wgmma and TMA, warp specialization,
// clusters and multicast) moves traffic, without comparing the tables row by row.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/execution.hpp"
#include "render/findings.hpp"

namespace tgemm::render {

// One side of a step: a rung's rate and its counters (keys from model/levels.hpp; a key that
// is absent was not measured).
struct step_row {
    std::string kernel;
    std::optional<double> tflops;  // 2MNK / median time, in TFLOP/s
    std::optional<double> median_ms;
    std::map<std::string, double, std::less<>> counters;
    execution_view exec;  // the "why" counters (empty fields where not measured)
};

// A relative change below this is no change: the level is left out of the step.
inline constexpr double step_same_within = 0.01;
// DRAM traffic moves between launches (how much of C stays dirty in L2 at the end, how much of
// a strip the next wave still finds: docs/validation-method.md): only a larger change is the
// step's.
inline constexpr double step_dram_same_within = 0.10;

// The lines of one step from `from` to `to`: the rate, then one line per level whose counters
// changed (shared memory, TMA, L1, L2, DRAM), then the counters either row lacks.
[[nodiscard]] std::vector<std::string> ladder_step_lines(const step_row& from, const step_row& to);

// One group per pair of consecutive tensor rungs of one input type at the focus size (ladder
// order; cuBLAS rows are references, not steps), headed "bf16_wmma → bf16_mma at 2048³".
[[nodiscard]] std::vector<finding_group> tensor_ladder_steps(const analysis& a);
// The same for the FP32 rungs.
[[nodiscard]] std::vector<finding_group> fp32_ladder_steps(const analysis& a);

// A later rung this much slower than an earlier one is a contradiction worth explaining when it
// moves no more bytes.
inline constexpr double contradiction_from = 0.10;

// Each rung that runs slower than an earlier rung of its input type at the focus size while
// moving no more L1 global-load and DRAM bytes, set against the fastest such earlier rung, with
// the step's lines (the "why" line names the factor of Little's law that moved).
[[nodiscard]] std::vector<finding_group> fewer_bytes_yet_slower(const analysis& a);

}  // namespace tgemm::render
