#include "analysis/fleet_models.hpp"

#include <algorithm>
#include <map>

#include "analysis/analysis.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace {

// The roof `key` of a profile as the report uses it (roof::effective), when the profile has it.
std::optional<double> roof_of(const profile& p, const std::string& key) {
    const auto it = p.peaks.find(key);
    if (it == p.peaks.end() || !(it->second.effective() > 0)) return std::nullopt;
    return it->second.effective();
}

// Per model, per compared quantity, the values of its cards.
using samples = std::map<std::string, std::vector<std::vector<double>>>;

void add(samples& s, std::vector<std::string>& order, const std::string& what, std::size_t model,
         std::size_t models, double v) {
    auto [it, added] = s.try_emplace(what, std::vector<std::vector<double>>(models));
    if (added) order.push_back(what);
    it->second[model].push_back(v);
}

}  // namespace

models_analysis analyze_models(std::span<const fleet_input> inputs) {
    models_analysis out;
    std::vector<std::size_t> model_of;
    for (const auto& in : inputs) {
        if (in.data->source != profile_source::measured)
            TGEMM_THROW(input, "{} is {}: a fleet report compares measured cards", in.origin,
                        to_string(in.data->source));
        const auto it =
            std::find_if(out.models.begin(), out.models.end(),
                         [&](const fleet_model& m) { return m.key == in.data->gpu.key; });
        if (it == out.models.end()) {
            out.models.push_back({in.data->gpu.key, in.data->gpu.name, 0});
            model_of.push_back(out.models.size() - 1);
        } else {
            model_of.push_back(static_cast<std::size_t>(it - out.models.begin()));
        }
        ++out.models[model_of.back()].cards;
    }
    const auto n = out.models.size();
    if (n < 2) TGEMM_THROW(input, "a comparison across models needs two GPU models; got {}", n);

    samples roofs, rungs;
    std::vector<std::string> roof_order, rung_order;
    std::map<std::string, std::string, std::less<>> bound_of;  // rung row -> its bounding roof
    const profile* first = nullptr;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto& p = *inputs[i].data;
        const auto mi = model_of[i];
        for (const auto& [key, r] : p.peaks)
            if (r.measured) add(roofs, roof_order, key, mi, n, *r.measured);
        const bool reference = mi == 0 && !first;
        if (reference) first = &p;
        const auto a = reference ? std::optional<analysis>(analyze(p)) : std::nullopt;
        for (const auto& m : p.measurements) {
            if (m.skipped || !m.time || m.time->median_ms <= 0) continue;
            const auto what = m.kernel + " " + to_string(m.size);
            add(rungs, rung_order, what, mi, n,
                2.0 * double(m.size.m) * double(m.size.n) * double(m.size.k) /
                    (m.time->median_ms * 1e-3));
            if (a)
                if (const auto* r = a->find(m.kernel, m.size)) bound_of[what] = r->bound_roof;
        }
    }
    const auto finish = [&](samples& s, const std::vector<std::string>& order, bool rung,
                            std::vector<model_row>& rows) {
        for (const auto& what : order) {
            model_row row;
            row.what = what;
            row.rung = rung;
            row.unit = rung                          ? "FLOP/s"
                       : first->peaks.contains(what) ? first->peaks.at(what).unit
                                                     : "";
            for (const auto& v : s[what])
                row.per_model.push_back(v.empty() ? std::nullopt
                                                  : std::optional<double>(median_of(v)));
            if (rung && bound_of.contains(what)) {
                row.bound_roof = bound_of[what];
                // The roof of each model's first card: roofs of one model agree to a few %
                // (the fleet section flags those that do not).
                std::vector<std::optional<double>> value(n);
                for (std::size_t i = inputs.size(); i-- > 0;)
                    value[model_of[i]] = roof_of(*inputs[i].data, row.bound_roof);
                for (std::size_t m = 0; m < n; ++m)
                    row.roof_ratio.push_back(value[m] && value[0] && *value[0] > 0
                                                 ? std::optional<double>(*value[m] / *value[0])
                                                 : std::nullopt);
            }
            rows.push_back(std::move(row));
        }
    };
    finish(roofs, roof_order, false, out.roofs);
    finish(rungs, rung_order, true, out.rungs);
    return out;
}

}  // namespace tgemm
