#include "analysis/fleet.hpp"

#include <algorithm>
#include <map>

#include "core/shape.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace {

std::string card_name(const fleet_input& in) {
    const auto& e = in.data->env;
    if (e.host.empty() && !e.gpu_index && e.gpu_uuid.empty()) return in.origin;
    std::string name = e.host.empty() ? in.origin : e.host;
    if (e.gpu_index) name += " GPU " + std::to_string(*e.gpu_index);
    if (!e.gpu_uuid.empty()) name += " (" + e.gpu_uuid.substr(0, 12) + "…)";
    return name;
}

// The median of the values present; 0 when none is.
double median_present(const std::vector<std::optional<double>>& values) {
    std::vector<double> present;
    for (const auto& x : values)
        if (x) present.push_back(*x);
    return present.empty() ? 0 : median_of(present);
}

void finish(fleet_value& v, fleet_analysis& a) {
    v.median = median_present(v.per_card);
    v.best_median = median_present(v.best_per_card);
    if (v.median <= 0) return;
    std::vector<double> present;
    for (const auto& x : v.per_card)
        if (x) present.push_back(*x);
    if (present.size() >= 2) {
        const auto [lo, hi] = std::minmax_element(present.begin(), present.end());
        v.spread = (*hi - *lo) / v.median;
    }
    for (std::size_t c = 0; c < v.per_card.size(); ++c)
        if (v.per_card[c] && *v.per_card[c] < (1 - a.margin) * v.median) {
            fleet_flag f{c, v.what, v.unit, v.rung, *v.per_card[c], v.median, {}, {}};
            if (c < v.best_per_card.size() && v.best_per_card[c] && v.best_median > 0) {
                f.best = v.best_per_card[c];
                f.best_median = v.best_median;
            }
            a.flags.push_back(std::move(f));
        }
}

}  // namespace

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

fleet_analysis analyze_fleet(std::span<const fleet_input> inputs, double margin) {
    if (inputs.size() < 2)
        TGEMM_THROW(input, "a fleet report compares two or more profiles of one GPU model; got {}",
                    inputs.size());
    fleet_analysis a;
    a.margin = margin;
    a.gpu_name = inputs.front().data->gpu.name;
    for (const auto& in : inputs) {
        if (in.data->source != profile_source::measured)
            TGEMM_THROW(input, "{} is {}: a fleet report compares measured cards", in.origin,
                        to_string(in.data->source));
        if (in.data->gpu.key != inputs.front().data->gpu.key)
            TGEMM_THROW(input,
                        "{} is a {} and {} a {}: a fleet report compares cards of one model "
                        "(report each model's profiles apart)",
                        inputs.front().origin, inputs.front().data->gpu.key, in.origin,
                        in.data->gpu.key);
        a.cards.push_back(card_name(in));
    }
    const auto n = inputs.size();
    // Roofs, in the first profile's order, then any only a later one has.
    std::map<std::string, fleet_value> roofs;
    std::vector<std::string> roof_order;
    for (std::size_t c = 0; c < n; ++c)
        for (const auto& [key, r] : inputs[c].data->peaks) {
            if (!r.measured) continue;
            auto [it, added] = roofs.try_emplace(key);
            if (added) {
                it->second.what = key;
                it->second.unit = r.unit;
                it->second.per_card.resize(n);
                roof_order.push_back(key);
            }
            it->second.per_card[c] = *r.measured;
        }
    for (const auto& key : roof_order) {
        finish(roofs[key], a);
        a.roofs.push_back(roofs[key]);
    }
    // Rungs: every timed (kernel, size), in the first profile's row order.
    std::map<std::string, fleet_value> rungs;
    std::vector<std::string> rung_order;
    for (std::size_t c = 0; c < n; ++c)
        for (const auto& m : inputs[c].data->measurements) {
            if (m.skipped || !m.time || m.time->median_ms <= 0) continue;
            const auto what = m.kernel + " " + to_string(m.size);
            auto [it, added] = rungs.try_emplace(what);
            if (added) {
                it->second.what = what;
                it->second.unit = "FLOP/s";
                it->second.rung = true;
                it->second.per_card.resize(n);
                it->second.best_per_card.resize(n);
                rung_order.push_back(what);
            }
            const double flop = 2.0 * double(m.size.m) * double(m.size.n) * double(m.size.k);
            it->second.per_card[c] = flop / (m.time->median_ms * 1e-3);
            if (m.time->min_ms > 0) it->second.best_per_card[c] = flop / (m.time->min_ms * 1e-3);
        }
    for (const auto& what : rung_order) {
        finish(rungs[what], a);
        a.rungs.push_back(rungs[what]);
    }
    return a;
}

}  // namespace tgemm
