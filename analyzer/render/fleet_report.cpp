#include "render/fleet_report.hpp"

#include <fmt/format.h>

#include "render/format.hpp"
#include "render/md_table.hpp"

namespace tgemm::render {

namespace {

// A rung's rate in TFLOP/s like every other table of the tool; a roof in its own unit.
std::string amount(double x, const std::string& unit, bool rung) {
    return rung ? format_tflops_value(x) : format_si(x, unit);
}

std::string value_cell(const fleet_value& v, std::size_t card) {
    const auto& x = v.per_card[card];
    if (!x) return "—";
    const auto text = amount(*x, v.unit, v.rung);
    return text + fmt::format(" ({:+.1f} %)", 100 * (*x / v.median - 1));
}

std::string values_table(const fleet_analysis& a, const std::vector<fleet_value>& values,
                         const std::string& first) {
    std::vector<std::string> header = {first};
    std::vector<align> aligns = {align::left};
    for (const auto& c : a.cards) {
        header.push_back(c);
        aligns.push_back(align::right);
    }
    header.push_back("median");
    aligns.push_back(align::right);
    md_table t(header, aligns);
    for (const auto& v : values) {
        std::vector<std::string> row = {v.what};
        for (std::size_t c = 0; c < a.cards.size(); ++c) row.push_back(value_cell(v, c));
        row.push_back(amount(v.median, v.unit, v.rung));
        t.add_row(std::move(row));
    }
    return t.str();
}

}  // namespace

std::string fleet_markdown(const fleet_analysis& a, const std::string& command) {
    std::string s = fmt::format("# Fleet report: {} cards of {}\n\n", a.cards.size(), a.gpu_name);
    s += fmt::format(
        "Made by {}. Each card's measured roofs and each rung's TFLOP/s (2MNK / median time) "
        "beside the median of the cards that measured it; in brackets, the card against that "
        "median. A value more than {:.0f} % below its median is flagged.\n\n",
        md_code(command), 100 * a.margin);
    s += "## Flagged\n\n";
    if (a.flags.empty()) {
        s += fmt::format("No card falls more than {:.0f} % below the median anywhere.\n\n",
                         100 * a.margin);
    } else {
        md_table t({"card", "what", "value", "median", "below the median"},
                   {align::left, align::left, align::right, align::right, align::right});
        for (const auto& f : a.flags) {
            const auto unit = f.rung ? std::string(" TFLOP/s") : std::string();
            t.add_row({a.cards[f.card], f.rung ? f.what : f.what + " roof",
                       amount(f.value, f.unit, f.rung) + unit,
                       amount(f.median, f.unit, f.rung) + unit,
                       fmt::format("{:.1f} %", 100 * f.below())});
        }
        s += t.str() + "\n";
    }
    s += "## Measured roofs\n\n";
    s += a.roofs.empty() ? std::string("No card measured its roofs (run without --no-peaks).\n\n")
                         : values_table(a, a.roofs, "roof") + "\n";
    s += "## Rungs (TFLOP/s)\n\n" + values_table(a, a.rungs, "rung and size");
    return s;
}

}  // namespace tgemm::render
