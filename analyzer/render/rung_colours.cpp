#include "render/rung_colours.hpp"

#include <algorithm>

#include "core/throw.hpp"

namespace tgemm::render {

std::vector<std::string> coloured_rungs(const analysis& a) {
    if (!a.source) TGEMM_THROW(internal, "coloured_rungs: the analysis has no profile");
    std::vector<std::string> out;
    for (const auto& k : a.source->kernels())
        if (std::any_of(a.rows.begin(), a.rows.end(),
                        [&](const row_analysis& r) { return r.row->kernel == k; }))
            out.push_back(k);
    return out;
}

int rung_colour(const std::vector<std::string>& rungs, std::string_view rung) {
    const auto it = std::find(rungs.begin(), rungs.end(), rung);
    return it == rungs.end() ? 0 : static_cast<int>(it - rungs.begin());
}

std::vector<const row_analysis*> rows_at(const analysis& a, const shape& s) {
    const auto kernels = a.source->kernels();
    std::vector<const row_analysis*> rows;
    for (const auto& r : a.rows)
        if (r.row->size == s) rows.push_back(&r);
    const auto rank = [&](const row_analysis* r) {
        return std::find(kernels.begin(), kernels.end(), r->row->kernel) - kernels.begin();
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const auto* l, const auto* r) { return rank(l) < rank(r); });
    return rows;
}

}  // namespace tgemm::render
