#include "ladder/predict.hpp"

#include "core/work_list.hpp"
#include "gpu/peaks.hpp"

namespace tgemm {

profile predict_profile(const gpu_spec& spec, const std::vector<const rung*>& rungs,
                        const std::vector<shape>& shapes, const std::string& command,
                        const std::string& date, const std::vector<shape>& tensor_only,
                        const shard& part) {
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
    std::vector<work_kernel> kernels;
    for (const auto* r : rungs) kernels.push_back({r->id, r->types.ab != element_type::fp32});
    const auto list = make_work_list(kernels, shapes, tensor_only);
    p.env.work_list = work_list_record{static_cast<std::int64_t>(list.size()), part};
    for (const auto& item : shard_of(list, part)) {
        const auto* r = rungs[item.kernel];
        const auto& s = item.size;
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
    return p;
}

}  // namespace tgemm
