#include "render/ticks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/throw.hpp"

namespace tgemm::render {

std::string decade_label(int exponent) {
    if (exponent > 4 || exponent < -3) return fmt::format("1e{}", exponent);
    // Built by appending: GCC 12 warns (-Wrestrict) about "literal" + std::string here.
    std::string out = exponent >= 0 ? "1" : "0.";
    if (exponent >= 0) return out.append(static_cast<std::size_t>(exponent), '0');
    return out.append(static_cast<std::size_t>(-exponent - 1), '0').append("1");
}

axis make_log_axis(std::string title, double lo, double hi, int label_exponent) {
    if (!(lo > 0) || !(hi > 0) || !std::isfinite(lo) || !std::isfinite(hi))
        TGEMM_THROW(internal, "log axis '{}' needs a positive finite range, got [{}, {}]", title,
                    lo, hi);
    // A hair of tolerance so 10.000000001 does not open a whole empty decade.
    const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    int last = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    if (last <= first) last = first + 1;

    axis a;
    a.title = std::move(title);
    a.scale = scale_kind::log;
    a.min = std::pow(10.0, first);
    a.max = std::pow(10.0, last);
    for (int e = first; e <= last; ++e) {
        const double decade = std::pow(10.0, e);
        a.major.push_back({decade, decade_label(e - label_exponent)});
        if (e == last) break;
        for (int k = 2; k <= 9; ++k) a.minor.push_back(k * decade);
    }
    return a;
}

axis make_linear_axis(std::string title, double hi) {
    axis x;
    x.title = std::move(title);
    x.scale = scale_kind::linear;
    x.min = 0;
    const double raw = std::max(hi, 1e-9) / 8;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (const double f : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (f * mag >= raw) {
            step = f * mag;
            break;
        }
    x.max = std::ceil(hi / step - 1e-9) * step;
    for (double v = 0; v <= x.max + step / 2; v += step)
        x.major.push_back({v, fmt::format("{:g}", v)});
    return x;
}

axis make_value_axis(std::string title, const std::vector<std::int64_t>& values) {
    if (values.empty()) TGEMM_THROW(internal, "value axis '{}' needs at least one value", title);
    axis x;
    x.title = std::move(title);
    x.scale = scale_kind::log;
    const double lo = static_cast<double>(values.front());
    const double hi = static_cast<double>(values.back());
    // A single value gets a factor of two either side; several get a quarter beyond each end.
    x.min = lo / (values.size() > 1 ? 1.25 : 2.0);
    x.max = hi * (values.size() > 1 ? 1.25 : 2.0);
    for (const auto v : values) x.major.push_back({static_cast<double>(v), fmt::format("{}", v)});
    return x;
}

}  // namespace tgemm::render
