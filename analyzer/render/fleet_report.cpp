#include "render/fleet_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
    header.insert(header.end(), {"median", "spread"});
    aligns.insert(aligns.end(), {align::right, align::right});
    md_table t(header, aligns);
    for (const auto& v : values) {
        std::vector<std::string> row = {v.what};
        for (std::size_t c = 0; c < a.cards.size(); ++c) row.push_back(value_cell(v, c));
        row.push_back(amount(v.median, v.unit, v.rung));
        row.push_back(v.spread ? fmt::format("{:.1f} %", 100 * *v.spread) : std::string("—"));
        t.add_row(std::move(row));
    }
    return t.str();
}

}  // namespace

std::string fleet_markdown(const fleet_analysis& a, const std::string& command, int level) {
    const std::string h(static_cast<std::size_t>(level), '#');
    std::string s =
        fmt::format("{} Fleet report: {} cards of {}\n\n", h, a.cards.size(), a.gpu_name);
    s += fmt::format(
        "Made by {}. Each card's measured roofs and each rung's TFLOP/s (2MNK / median time) "
        "beside the median of the cards that measured it; in brackets, the card against that "
        "median; the spread is (largest − smallest) / median over those cards. A value more "
        "than {:.0f} % below its median is flagged.\n\n",
        md_code(command), 100 * a.margin);
    s += h + "# Flagged\n\n";
    if (a.flags.empty()) {
        s += fmt::format("No card falls more than {:.0f} % below the median anywhere.\n\n",
                         100 * a.margin);
    } else {
        md_table t(
            {"card", "what", "value", "median", "below the median",
             "fastest launch below the cards' fastest"},
            {align::left, align::left, align::right, align::right, align::right, align::right});
        for (const auto& f : a.flags) {
            const auto unit = f.rung ? std::string(" TFLOP/s") : std::string();
            const auto best = f.best_below();
            t.add_row({a.cards[f.card], f.rung ? f.what : f.what + " roof",
                       amount(f.value, f.unit, f.rung) + unit,
                       amount(f.median, f.unit, f.rung) + unit,
                       fmt::format("{:.1f} %", 100 * f.below()),
                       best ? fmt::format("{:.1f} %", 100 * *best) : std::string("—")});
        }
        s += t.str() + "\n";
        s += fmt::format(
            "A rung's last column sets the card's fastest timed launch beside the median of the "
            "cards' fastest: within the margin ({:.0f} %), the card ran as fast at its best and "
            "slower part of the time (a clock or power state during its timing), rather than "
            "being a slower card.\n\n",
            100 * a.margin);
    }
    s += h + "# Measured roofs\n\n";
    s += a.roofs.empty() ? std::string("No card measured its roofs (run without --no-peaks).\n\n")
                         : values_table(a, a.roofs, "roof") + "\n";
    s += h + "# Rungs (TFLOP/s)\n\n" + values_table(a, a.rungs, "rung and size");
    return s;
}

std::string models_markdown(const models_analysis& m, int level) {
    const std::string h(static_cast<std::size_t>(level), '#');
    const auto& base = m.models.front();
    std::string s = fmt::format("{} Across models, against the {}\n\n", h, base.name);
    s += fmt::format(
        "Each model is the median of its cards. A rung's speed-up over the {} is set beside the "
        "ratio of the roof that bounds it on the {} (measured where both measured it): a rung "
        "follows its roof when the two agree within {:.0f} %.\n\n",
        base.key, base.key, 100 * follows_roof_within);
    std::vector<std::string> header = {"roof"};
    std::vector<align> aligns = {align::left};
    for (const auto& model : m.models) {
        header.push_back(
            fmt::format("{} ({} card{})", model.key, model.cards, model.cards == 1 ? "" : "s"));
        aligns.push_back(align::right);
    }
    md_table roofs(header, aligns);
    for (const auto& r : m.roofs) {
        std::vector<std::string> row = {r.what};
        for (std::size_t i = 0; i < m.models.size(); ++i) {
            const auto& v = r.per_model[i];
            std::string cell = v ? format_si(*v, r.unit) : std::string("—");
            if (i > 0 && v && r.per_model[0])
                cell += fmt::format(" (×{:.2f})", *v / *r.per_model[0]);
            row.push_back(std::move(cell));
        }
        roofs.add_row(std::move(row));
    }
    s += roofs.str() + "\n";
    header[0] = "rung and size";
    header.push_back("bounding roof on the " + base.key);
    aligns.push_back(align::left);
    md_table rungs(header, aligns);
    int follow = 0, judged = 0;
    for (const auto& r : m.rungs) {
        std::vector<std::string> row = {r.what};
        std::vector<std::string> verdicts;
        for (std::size_t i = 0; i < m.models.size(); ++i) {
            const auto& v = r.per_model[i];
            std::string cell = v ? format_tflops_value(*v) : std::string("—");
            if (i > 0 && v && r.per_model[0]) {
                const double speedup = *v / *r.per_model[0];
                cell += fmt::format(" (×{:.2f})", speedup);
                if (i < r.roof_ratio.size() && r.roof_ratio[i]) {
                    const bool follows =
                        std::fabs(std::log(speedup / *r.roof_ratio[i])) <= follows_roof_within;
                    ++judged;
                    follow += follows ? 1 : 0;
                    verdicts.push_back(fmt::format("{}: roof ×{:.2f}, {}", m.models[i].key,
                                                   *r.roof_ratio[i],
                                                   follows ? "follows it" : "does not follow it"));
                }
            }
            row.push_back(std::move(cell));
        }
        std::string last = r.bound_roof.empty() ? std::string("—") : r.bound_roof;
        for (const auto& v : verdicts) last += "; " + v;
        row.push_back(std::move(last));
        rungs.add_row(std::move(row));
    }
    s += fmt::format("{} of {} rung rows follow the ratio of their bounding roof.\n\n", follow,
                     judged);
    s += rungs.str();
    return s;
}

}  // namespace tgemm::render
