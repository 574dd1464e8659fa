#include "render/ticks.hpp"

#include <fmt/format.h>

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

}  // namespace tgemm::render
