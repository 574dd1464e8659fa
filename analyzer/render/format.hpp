#pragma once
// Numbers as an engineer reads them: SI prefixes, three or four significant figures, and a
// dash for anything that was not measured. The plot and the report share these.
#include <optional>
#include <string>
#include <string_view>

namespace tgemm::render {

// Printed wherever a value is absent; never 0.
inline constexpr std::string_view missing_mark = "—";

// 8.59e9, "B" → "8.59 GB"; 3.352e12, "B/s" → "3.35 TB/s"; 512, "B" → "512 B".
[[nodiscard]] std::string format_si(double v, std::string_view unit);
// 4.29e9, "wavefronts" → "4.29 G wavefronts"; an empty noun gives "4.29 G".
[[nodiscard]] std::string format_count(double v, std::string_view noun);
// 0.25 → "0.25", 7.94 → "7.94", 18.33 → "18.3", 512 → "512".
[[nodiscard]] std::string format_ai_value(double v);
// 0.25 → "0.25 FLOP/B".
[[nodiscard]] std::string format_ai(double v);
// FLOP/s → TFLOP/s digits without the unit: 5.17e13 → "51.7".
[[nodiscard]] std::string format_tflops_value(double flops_per_s);
// A fraction as a percentage: 0.853 → "85.3 %".
[[nodiscard]] std::string format_percent(double fraction);
// measured / model: 0.624 → "0.624×", 41.2 → "41.2×", 0.0243 → "1/41".
[[nodiscard]] std::string format_ratio(double r);
// Milliseconds: 0.0813 → "0.081", 21.84 → "21.84", 343.2 → "343.2".
[[nodiscard]] std::string format_ms(double ms);

// The same, with "—" for an absent value.
[[nodiscard]] std::string format_si(std::optional<double> v, std::string_view unit);
[[nodiscard]] std::string format_count(std::optional<double> v, std::string_view noun);
[[nodiscard]] std::string format_ai(std::optional<double> v);
[[nodiscard]] std::string format_tflops_value(std::optional<double> v);
[[nodiscard]] std::string format_percent(std::optional<double> v);
[[nodiscard]] std::string format_ratio(std::optional<double> v);

}  // namespace tgemm::render
