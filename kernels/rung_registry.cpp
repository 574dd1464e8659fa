#include <algorithm>

#include "core/strings.hpp"
#include "core/throw.hpp"
#include "l2_totals.hpp"
#include "l2_traffic.hpp"
#include "rung.hpp"

namespace tgemm {

bound_launch rung::bind(const gemm_args& args, const launch_context& ctx) const {
    if (prepare) return prepare(args, ctx);
    if (!launch) TGEMM_THROW(internal, "rung '{}' has neither launch nor prepare", id);
    return [this, args, ctx] { launch(args, ctx); };
}

rung_registry& rung_registry::get() {
    static rung_registry registry;
    return registry;
}

bool rung_registry::add(rung r) {
    if (try_find(r.id)) TGEMM_THROW(internal, "rung '{}' registered twice", r.id);
    // Every rung gets its L2 traffic, the L2's totals and its DRAM write band from the one model,
    // and every rung with a known launch its theoretical occupancy from the one calculator, at the
    // limits of the GPU the model is asked for.
    if (r.model)
        r.model = [model = std::move(r.model), config = r.config,
                   operands = kernels::l2_operands{
                       element_bytes(r.types.ab), element_bytes(r.types.c),
                       r.config ? r.config->tile_n : 0, r.config ? r.config->tile_m : 0,
                       r.config && r.config->grid_x_down_m,
                       r.config && r.config->cluster_size == 1 &&
                           !r.config->persistent}](const shape& s, const model_context& mc) {
            auto m = model(s, mc);
            if (config) m.occupancy = estimate_occupancy(mc.limits, config->cta());
            const kernels::l2_placement where{
                mc.sm_count, m.occupancy ? m.occupancy->ctas_per_sm : 0, mc.first_wave,
                mc.collector_window_fabric_bytes, mc.small_launches};
            kernels::add_l2_traffic(m.refined, s, operands, mc.l2_partitions, where);
            kernels::add_l2_totals(m.refined, s, operands, mc.l2_partitions,
                                   mc.l2_coalescer_fanout);
            return m;
        };
    m_rungs.push_back(std::move(r));
    return true;
}

const rung* rung_registry::try_find(std::string_view id) const {
    for (const auto& r : m_rungs)
        if (r.id == id) return &r;
    return nullptr;
}

const rung& rung_registry::find(std::string_view id) const {
    if (const auto* r = try_find(id)) return *r;
    const auto known = ids();
    throw error(error_kind::usage, unknown_name_message("kernel", id, known));
}

std::vector<const rung*> rung_registry::all() const {
    std::vector<const rung*> out;
    for (const auto& r : m_rungs) out.push_back(&r);
    std::stable_sort(out.begin(), out.end(),
                     [](const rung* a, const rung* b) { return a->order < b->order; });
    return out;
}

std::vector<std::string> rung_registry::ids() const {
    std::vector<std::string> out;
    for (const auto* r : all()) out.push_back(r->id);
    return out;
}

std::vector<const rung*> rung_registry::select(std::string_view list) const {
    if (trim(list) == "all") return all();
    std::vector<const rung*> out;
    for (const auto part : split(list, ',')) {
        const auto name = trim(part);
        if (name.empty())
            TGEMM_THROW(usage, "--kernels has an empty name in '{}'", printable(list));
        const auto* r = &find(name);
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
    // Always in ladder order, so tables read bottom-up the same way every time.
    std::stable_sort(out.begin(), out.end(),
                     [](const rung* a, const rung* b) { return a->order < b->order; });
    return out;
}

}  // namespace tgemm
