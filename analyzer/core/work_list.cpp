#include "core/work_list.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

std::vector<work_item> make_work_list(std::span<const work_kernel> kernels,
                                      std::span<const shape> shapes,
                                      std::span<const shape> tensor_only) {
    std::vector<work_item> list;
    for (const auto& s : shapes) {
        const bool restricted =
            std::find(tensor_only.begin(), tensor_only.end(), s) != tensor_only.end();
        for (std::size_t k = 0; k < kernels.size(); ++k)
            if (!restricted || kernels[k].tensor) list.push_back({k, s});
    }
    return list;
}

std::size_t shard::size_of(std::size_t list_size) const {
    const auto i = static_cast<std::size_t>(index);
    const auto n = static_cast<std::size_t>(count);
    return list_size > i ? (list_size - i + n - 1) / n : 0;
}

std::vector<work_item> shard_of(std::span<const work_item> list, shard s) {
    std::vector<work_item> out;
    for (std::size_t j = 0; s.position(j) < list.size(); ++j) out.push_back(list[s.position(j)]);
    return out;
}

namespace {

// A non-negative int, or nothing.
std::optional<int> whole_number(std::string_view text) {
    int v = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc{} || ptr != end || v < 0) return std::nullopt;
    return v;
}

}  // namespace

shard parse_shard(std::string_view text) {
    const auto shown = printable(text);
    const auto slash = text.find('/');
    if (slash == std::string_view::npos)
        TGEMM_THROW(usage, "--shard '{}' is not i/n: write e.g. --shard 0/4 (shard 0 of 4)", shown);
    const auto i = whole_number(trim(text.substr(0, slash)));
    const auto n = whole_number(trim(text.substr(slash + 1)));
    if (!i || !n)
        TGEMM_THROW(usage, "--shard '{}' is not i/n: write e.g. --shard 0/4 (shard 0 of 4)", shown);
    if (*n == 0) TGEMM_THROW(usage, "--shard '{}': the number of shards must be at least 1", shown);
    if (*i >= *n)
        TGEMM_THROW(usage,
                    "--shard '{}': the shard must be below the number of shards (0 <= i < n)",
                    shown);
    return {*i, *n};
}

std::string to_string(const shard& s) {
    return fmt::format("{}/{}", s.index, s.count);
}

}  // namespace tgemm
