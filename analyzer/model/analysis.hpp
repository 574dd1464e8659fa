#pragma once
// Derived numbers for each row of a profile: rates, AI at each source (textbook, refined,
// measured), the roof, the bound, and model-vs-measured ratios. Everything the renderers print
// comes from here, so the plot and the report cannot disagree.
#include <optional>
#include <string>
#include <vector>

#include "profile/profile.hpp"

namespace tgemm {

struct level_comparison {
    std::string key;  // a key from model/levels.hpp
    std::optional<double> textbook;
    std::optional<double> refined;
    std::optional<double> measured;
    // measured / refined, measured / textbook
    [[nodiscard]] std::optional<double> refined_ratio() const;
    [[nodiscard]] std::optional<double> textbook_ratio() const;
};

struct row_analysis {
    const measurement* row = nullptr;
    double useful_flops = 0;       // 2MNK: the convention of TFLOP/s columns (and cuBLAS's)
    std::optional<double> tflops;  // useful_flops / median time
    std::optional<double> pct_cublas;
    std::optional<double> executed_flops;        // counters if measured, else the refined model
    std::optional<double> achieved_flops_per_s;  // executed_flops / median time
    std::optional<double> dram_bytes;            // measured read + write
    double ai_textbook = 0;                      // textbook flops / textbook global bytes
    double attainable_textbook = 0;              // FLOP/s the roof allows at ai_textbook
    std::optional<double> ai_refined;            // refined flops / refined DRAM bytes
    std::optional<double> ai_measured;           // measured flops / measured DRAM bytes
    std::optional<double> attainable;            // FLOP/s at the AI used (measured, else refined)
    std::optional<double> pct_roof;              // achieved executed FLOP/s / attainable
    std::string bound;                           // "DRAM" or "FP32 compute"
    std::vector<level_comparison> levels;
};

struct analysis {
    const profile* source = nullptr;
    double fp32_peak = 0;  // FLOP/s
    double dram_peak = 0;  // B/s
    [[nodiscard]] double ridge() const { return fp32_peak / dram_peak; }
    std::vector<row_analysis> rows;  // one per non-skipped measurement, profile order

    [[nodiscard]] const row_analysis* find(std::string_view kernel, const shape& s) const;
};

[[nodiscard]] analysis analyze(const profile& p);

}  // namespace tgemm
