#include "cli/profile_source.hpp"

#include "cli/embedded_profiles.hpp"
#include "gpu/spec.hpp"
#include "profile/profile_file.hpp"

namespace tgemm::cli {

std::optional<loaded_profile> load_stored_profile(const std::filesystem::path& path,
                                                  const std::string& gpu_key) {
    if (std::filesystem::exists(path)) return loaded_profile{read_profile(path), path.string()};
    if (const auto text = embedded_profile(gpu_key)) {
        const std::string origin = "the profiles/" + gpu_key + ".json built into this binary";
        return loaded_profile{parse_profile(*text, origin), origin};
    }
    return std::nullopt;
}

std::optional<loaded_profile> partner_profile(const std::string& gpu_key) {
    const auto* self = [&]() -> const gpu_spec* {
        for (const auto& s : gpu_specs())
            if (s.key == gpu_key) return &s;
        return nullptr;
    }();
    if (!self) return std::nullopt;
    for (const auto& s : gpu_specs()) {
        if (s.key == gpu_key || s.arch != self->arch) continue;
        auto other =
            load_stored_profile(std::filesystem::path("profiles") / (s.key + ".json"), s.key);
        if (other && other->data.source == profile_source::measured) return other;
    }
    return std::nullopt;
}

std::optional<loaded_profile> calibration_profile() {
    auto p = load_stored_profile(
        std::filesystem::path("profiles") / (std::string(calibration_gpu) + ".json"),
        calibration_gpu);
    if (p && p->data.source == profile_source::measured) return p;
    return std::nullopt;
}

}  // namespace tgemm::cli
