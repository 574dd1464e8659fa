#include "ladder/predict.hpp"

#include <algorithm>

#include "gpu/peaks.hpp"

namespace tgemm {

profile predict_profile(const gpu_spec& spec, const std::vector<const rung*>& rungs,
                        const std::vector<shape>& shapes, const std::string& command,
                        const std::string& date, const std::vector<shape>& tensor_only) {
    profile p;
    p.source = profile_source::predicted;
    p.gpu = gpu_info_from_spec(spec);
    p.env.tool_version = TGEMM_VERSION;
    p.env.command = command;
    p.env.date = date;
    p.env.driver = "none (predicted)";
    p.env.cuda = "none (predicted)";
    p.peaks = theoretical_roofs(p.gpu);
    const auto mc = model_context_for(p.gpu);
    for (const auto& s : shapes) {
        const bool restricted =
            std::find(tensor_only.begin(), tensor_only.end(), s) != tensor_only.end();
        for (const auto* r : rungs) {
            if (restricted && r->types.ab == element_type::fp32) continue;
            measurement row;
            row.kernel = r->id;
            row.dtype = r->dtype();
            row.size = s;
            // A row the GPU cannot run has no model either: it may not place its CTAs there.
            if (auto why = r->can_run(p.gpu, s))
                row.skipped = *why;
            else
                row.model = r->model(s, mc);
            p.measurements.push_back(std::move(row));
        }
    }
    return p;
}

}  // namespace tgemm
