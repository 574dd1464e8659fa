#include "profile/profile.hpp"

#include <algorithm>
#include <limits>

namespace tgemm {

double value_spread::relative() const {
    if (max == min) return 0;
    if (median == 0) return std::numeric_limits<double>::infinity();
    return (max - min) / median;
}

std::optional<double> measurement::counter(std::string_view key) const {
    const auto it = counters.find(key);
    if (it == counters.end()) return std::nullopt;
    return it->second;
}

const measurement* profile::find(std::string_view kernel, const shape& s) const {
    for (const auto& m : measurements)
        if (m.kernel == kernel && m.size == s) return &m;
    return nullptr;
}

std::vector<shape> profile::shapes() const {
    std::vector<shape> out;
    for (const auto& m : measurements)
        if (std::find(out.begin(), out.end(), m.size) == out.end()) out.push_back(m.size);
    return out;
}

std::vector<std::string> profile::kernels() const {
    std::vector<std::string> out;
    for (const auto& m : measurements)
        if (std::find(out.begin(), out.end(), m.kernel) == out.end()) out.push_back(m.kernel);
    return out;
}

std::string to_string(profile_source s) {
    return s == profile_source::measured ? "measured" : "predicted";
}

}  // namespace tgemm
