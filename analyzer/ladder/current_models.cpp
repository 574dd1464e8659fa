#include "ladder/current_models.hpp"

#include "rung.hpp"

namespace tgemm {

profile with_current_models(profile p) {
    if (!p.gpu.limits.known() || p.gpu.l2_bytes <= 0 || p.gpu.sm_count <= 0) return p;
    const auto mc = model_context_for(p.gpu);
    for (auto& row : p.measurements) {
        if (row.skipped) continue;
        if (const auto* r = rung_registry::get().try_find(row.kernel))
            row.model = r->model(row.size, mc);
    }
    return p;
}

}  // namespace tgemm
