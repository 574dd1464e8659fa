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
    // Where the model bounds an effect it does not derive (refined_model::band): the range the
    // measurement must lie in, which the shipped-profile test asserts.
    std::optional<refined_model::value_band> band;
    // measured / refined, measured / textbook
    [[nodiscard]] std::optional<double> refined_ratio() const;
    [[nodiscard]] std::optional<double> textbook_ratio() const;
    // measured / the nearer end of the band: 1 inside it; empty without a band.
    [[nodiscard]] std::optional<double> band_ratio() const;
};

// One level of the hierarchical roofline for one row: the bytes that level moved (measured,
// textbook, refined), the AI they give, and what that level's roof allows at that AI.
struct level_point {
    std::string roof_key;  // the peaks key of the level's bandwidth roof: "dram", "l2", "smem"
    std::string name;      // "DRAM", "L2", "shared"
    std::optional<double> bytes_measured;
    std::optional<double> bytes_textbook;  // the seed's count, where the seed gives one
    std::optional<double> bytes_refined;
    std::optional<double> ai_measured;  // executed FLOPs / bytes
    std::optional<double> ai_textbook;  // textbook FLOPs / textbook bytes
    std::optional<double> ai_refined;   // refined FLOPs / refined bytes
    // min(compute roof, AI × this level's roof), measured AI (else refined), roofs as the
    // report uses them (measured where the micro-benchmarks ran, else theoretical).
    std::optional<double> attainable;
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
    std::string bound;                           // "DRAM", "FP32 compute" or "tensor compute"
    // The compute roof this row is judged against: fp32, or the tensor roof of its dtype.
    std::string compute_roof;
    int element_bytes = 4;  // of A and B
    std::vector<level_comparison> levels;
    // The hierarchical roofline: DRAM, L2, shared, in that order (levels with no data left out).
    std::vector<level_point> hierarchy;
    // The roof that bounds the row: the lowest of the compute roof and every level's
    // AI × bandwidth ("fp32", "dram", "l2", "smem"), its FLOP/s, and how close the row gets.
    std::string bound_roof;
    std::optional<double> bound_attainable;
    std::optional<double> pct_bound_roof;  // achieved executed FLOP/s / bound_attainable

    [[nodiscard]] const level_point* level(std::string_view roof_key) const;
};

struct analysis {
    const profile* source = nullptr;
    double fp32_peak = 0;  // FLOP/s
    double dram_peak = 0;  // B/s
    [[nodiscard]] double ridge() const { return fp32_peak / dram_peak; }
    std::vector<row_analysis> rows;  // one per non-skipped measurement, profile order

    // The roof the plots and the bound use for `key`: measured when the micro-benchmarks ran,
    // else theoretical; nullopt when the profile has no such roof.
    [[nodiscard]] std::optional<double> roof_value(std::string_view key) const;

    [[nodiscard]] const row_analysis* find(std::string_view kernel, const shape& s) const;
    // The size the single-size plots show (hierarchical roofline, bytes per level, TFLOP/s):
    // of the sizes with the most rows, the largest square one, else the one with the most FLOPs.
    [[nodiscard]] std::optional<shape> focus_size() const;
};

[[nodiscard]] analysis analyze(const profile& p);

// The peaks key of the compute roof for rows of `dtype`: "fp32", or "tensor_bf16" and so on.
[[nodiscard]] std::string_view compute_roof_key(std::string_view dtype);
// The cuBLAS reference row for rows of `dtype`: "cublas" (FP32), "cublas_bf16", "cublas_fp16".
[[nodiscard]] std::string reference_kernel(std::string_view dtype);
// Whether `kernel` is a cuBLAS reference row ("cublas", "cublas_bf16", ...), not a rung.
[[nodiscard]] bool is_reference_kernel(std::string_view kernel);

// Bytes-per-FLOP helpers shared by the analysis and its tests.
inline constexpr double smem_wavefront_bytes = 128.0;  // 32 banks × 4 B per wavefront

}  // namespace tgemm
