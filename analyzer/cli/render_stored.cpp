#include "cli/render_stored.hpp"

#include "cli/profile_source.hpp"
#include "ladder/current_models.hpp"
#include "render/render_all.hpp"
#include "rung.hpp"

namespace tgemm::cli {

std::vector<render::ladder_rung> registered_ladder() {
    std::vector<render::ladder_rung> out;
    for (const auto* r : rung_registry::get().all()) out.push_back({r->id, r->display_name});
    return out;
}

void render_stored(const profile& p, const std::filesystem::path& out_dir,
                   const std::string& label) {
    auto partner = partner_profile(p.gpu.key);
    if (partner) partner->data = with_current_models(std::move(partner->data));
    auto calibration = calibration_profile();
    if (calibration) calibration->data = with_current_models(std::move(calibration->data));
    render::comparison with;
    if (partner) with.other = &partner->data, with.label = partner->origin;
    if (calibration)
        with.calibration = &calibration->data, with.calibration_label = calibration->origin;
    render::render_report(with_current_models(p), out_dir, label, with, registered_ladder());
}

}  // namespace tgemm::cli
