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

}  // namespace tgemm::render
