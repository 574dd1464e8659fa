#include "render/format.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace tgemm::render {

namespace {

// Digits for a mantissa in [1, 1000): 8.59, 41.9, 343.7.
std::string mantissa(double m) {
    if (std::fabs(m) < 9.995) return fmt::format("{:.2f}", m);
    return fmt::format("{:.1f}", m);
}

struct scaled {
    double value;
    std::string_view prefix;
};

scaled scale_si(double v) {
    static constexpr std::array<std::string_view, 6> prefixes = {"", "k", "M", "G", "T", "P"};
    std::size_t i = 0;
    double m = v;
    // Step up while the rounded mantissa would print as 1000.0 or more.
    while (std::fabs(m) >= 999.95 && i + 1 < prefixes.size()) {
        m /= 1000;
        ++i;
    }
    return {m, prefixes[i]};
}

std::string plain_or_mantissa(double m, bool prefixed) {
    // Counts below 1000 are whole numbers: "512 B", "0 conflicts".
    if (!prefixed && m == std::floor(m)) return fmt::format("{:.0f}", m);
    return mantissa(m);
}

}  // namespace

std::string format_si(double v, std::string_view unit) {
    const auto s = scale_si(v);
    return fmt::format("{} {}{}", plain_or_mantissa(s.value, !s.prefix.empty()), s.prefix, unit);
}

std::string format_count(double v, std::string_view noun) {
    const auto s = scale_si(v);
    auto out = plain_or_mantissa(s.value, !s.prefix.empty());
    if (!s.prefix.empty()) out += fmt::format(" {}", s.prefix);
    if (!noun.empty()) out += fmt::format(" {}", noun);
    return out;
}

std::string format_ai_value(double v) {
    if (v >= 99.95) return fmt::format("{:.0f}", v);
    if (v >= 9.995) return fmt::format("{:.1f}", v);
    if (v >= 1) return fmt::format("{:.2f}", v);
    return fmt::format("{:.3g}", v);
}

std::string format_ai(double v) {
    return format_ai_value(v) + " FLOP/B";
}

std::string format_tflops_value(double flops_per_s) {
    const double t = flops_per_s / 1e12;
    if (t >= 99.95) return fmt::format("{:.0f}", t);
    if (t >= 9.995) return fmt::format("{:.1f}", t);
    if (t >= 1) return fmt::format("{:.2f}", t);
    return fmt::format("{:.3f}", t);
}

std::string format_percent(double fraction) {
    const double p = fraction * 100;
    if (p < 1) return fmt::format("{:.2f} %", p);
    return fmt::format("{:.1f} %", p);
}

std::string format_ratio(double r) {
    // Far below one reads better as "1 in N": DRAM traffic 1/41 of the textbook count.
    if (r > 0 && r < 0.1) return fmt::format("1/{:.0f}", 1 / r);
    if (r >= 99.95) return fmt::format("{:.0f}×", r);
    if (r >= 9.995) return fmt::format("{:.1f}×", r);
    return fmt::format("{:.3f}×", r);
}

std::string format_ms(double ms) {
    if (ms < 1) return fmt::format("{:.3f}", ms);
    if (ms < 99.995) return fmt::format("{:.2f}", ms);
    return fmt::format("{:.1f}", ms);
}

std::string format_si(std::optional<double> v, std::string_view unit) {
    return v ? format_si(*v, unit) : std::string(missing_mark);
}
std::string format_count(std::optional<double> v, std::string_view noun) {
    return v ? format_count(*v, noun) : std::string(missing_mark);
}
std::string format_ai(std::optional<double> v) {
    return v ? format_ai(*v) : std::string(missing_mark);
}
std::string format_tflops_value(std::optional<double> v) {
    return v ? format_tflops_value(*v) : std::string(missing_mark);
}
std::string format_percent(std::optional<double> v) {
    return v ? format_percent(*v) : std::string(missing_mark);
}
std::string format_ratio(std::optional<double> v) {
    return v ? format_ratio(*v) : std::string(missing_mark);
}

}  // namespace tgemm::render
