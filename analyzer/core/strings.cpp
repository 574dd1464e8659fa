#include "core/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>

namespace tgemm {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (;;) {
        const auto pos = s.find(sep, start);
        if (pos == std::string_view::npos) {
            out.push_back(s.substr(start));
            return out;
        }
        out.push_back(s.substr(start, pos - start));
        start = pos + 1;
    }
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string closest(std::string_view name, std::span<const std::string> candidates) {
    const auto key = lower(name);
    // Beyond half the name's length the "suggestion" is noise.
    const auto noise = std::max<std::size_t>(2, key.size() / 2);
    std::string best;
    std::pair<std::size_t, std::size_t> best_score{std::string::npos, std::string::npos};
    for (const auto& c : candidates) {
        const auto cand = lower(c);
        // A prefix ("naive" for "naive_uncoalesced") is a strong hint even when far in
        // edits; among equal hints the nearer spelling wins.
        const bool prefix = cand.starts_with(key) || key.starts_with(cand);
        // The distance is at least the difference in length, and exactly that for a prefix:
        // a name far longer than every candidate (an argument of a megabyte) costs no
        // quadratic table.
        const auto gap =
            key.size() > cand.size() ? key.size() - cand.size() : cand.size() - key.size();
        const auto raw = (prefix || gap > noise) ? gap : edit_distance(key, cand);
        const std::pair<std::size_t, std::size_t> score{
            prefix ? std::min<std::size_t>(raw, 1) : raw, raw};
        if (score < best_score) {
            best_score = score;
            best = c;
        }
    }
    if (best_score.first > noise) return {};
    return best;
}

std::string printable(std::string_view s, std::size_t limit) {
    std::size_t cut = std::min(s.size(), limit);
    while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    std::string out;
    out.reserve(cut + 8);
    for (const char ch : s.substr(0, cut)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += ch;
    }
    if (cut < s.size()) out += fmt::format("... ({} bytes)", s.size());
    return out;
}

std::string join(std::span<const std::string> items, std::string_view sep) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += sep;
        out += items[i];
    }
    return out;
}

std::string unknown_name_message(std::string_view what, std::string_view name,
                                 std::span<const std::string> candidates) {
    const auto guess = closest(name, candidates);
    if (guess.empty())
        return fmt::format("unknown {} '{}' (known: {})", what, printable(name),
                           join(candidates, ", "));
    return fmt::format("unknown {} '{}'; did you mean '{}'? (known: {})", what, printable(name),
                       guess, join(candidates, ", "));
}

}  // namespace tgemm
