#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tgemm {

[[nodiscard]] std::string_view trim(std::string_view s);
[[nodiscard]] std::vector<std::string_view> split(std::string_view s, char sep);
[[nodiscard]] std::string lower(std::string_view s);
// Edit distance, for "did you mean" suggestions.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate nearest to `name`, or empty when none is plausibly meant.
[[nodiscard]] std::string closest(std::string_view name, std::span<const std::string> candidates);
// "unknown GPU 'h10'; did you mean 'h100'? known: a100, h100"
[[nodiscard]] std::string unknown_name_message(std::string_view what, std::string_view name,
                                               std::span<const std::string> candidates);
// Text from outside (an argument, a file's key or value) as it goes into a one-line message:
// control characters escaped (\n, \t, \xNN), cut after `limit` bytes (at a UTF-8 boundary)
// with "...".
[[nodiscard]] std::string printable(std::string_view s, std::size_t limit = 120);
[[nodiscard]] std::string join(std::span<const std::string> items, std::string_view sep);

}  // namespace tgemm
