#include "core/shape.hpp"

#include <charconv>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace {

std::int64_t parse_side(std::string_view whole, std::string_view part) {
    const auto all = printable(whole);
    const auto text = trim(part);
    if (text.empty()) TGEMM_THROW(usage, "size '{}' has an empty dimension", all);
    std::int64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc::result_out_of_range)
        TGEMM_THROW(usage, "size '{}' is too large (the limit is {} per dimension)", all,
                    max_shape_side);
    if (ec != std::errc{} || ptr != end)
        TGEMM_THROW(
            usage, "size '{}' is not a number: write N or MxNxK, e.g. 4096 or 4096x2048x1024", all);
    if (value <= 0) TGEMM_THROW(usage, "size '{}' must be positive", all);
    if (value > max_shape_side)
        TGEMM_THROW(usage, "size '{}' is too large (the limit is {} per dimension)", all,
                    max_shape_side);
    return value;
}

}  // namespace

shape parse_shape(std::string_view text) {
    const auto parts = split(text, 'x');
    if (parts.size() == 1) {
        const auto n = parse_side(text, parts[0]);
        return {n, n, n};
    }
    if (parts.size() == 3)
        return {parse_side(text, parts[0]), parse_side(text, parts[1]), parse_side(text, parts[2])};
    TGEMM_THROW(usage, "size '{}' must be N or MxNxK", printable(text));
}

std::vector<shape> parse_shapes(std::string_view text, std::string_view option) {
    std::vector<shape> out;
    if (trim(text).empty()) TGEMM_THROW(usage, "{} is empty: give e.g. 1024,2048,4096", option);
    for (const auto part : split(text, ',')) out.push_back(parse_shape(trim(part)));
    return out;
}

std::string to_string(const shape& s) {
    if (s.square()) return fmt::format("{}³", s.m);
    return fmt::format("{}×{}×{}", s.m, s.n, s.k);
}

std::string to_arg(const shape& s) {
    if (s.square()) return fmt::format("{}", s.m);
    return fmt::format("{}x{}x{}", s.m, s.n, s.k);
}

}  // namespace tgemm
