#pragma once
// The profiles the project ships (profiles/<gpu>.json) and what they hold of each registered
// rung. A rung added after a profile was measured has no row there: its checks skip with the
// reason, and the report lists it as not measured, until the profile is measured again.
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "profile/profile_file.hpp"
#include "rung.hpp"

namespace tgemm::test {

// The H100 profile (the embedded default) and the H200 one.
inline const std::vector<std::string>& shipped_gpus() {
    static const std::vector<std::string> gpus = {"h100", "h200"};
    return gpus;
}

inline std::string shipped_path(const std::string& gpu) {
    return "profiles/" + gpu + ".json";
}

// Read once per test binary.
inline const profile& shipped(const std::string& gpu) {
    static const std::map<std::string, profile> profiles = [] {
        std::map<std::string, profile> out;
        for (const auto& g : shipped_gpus())
            out.emplace(g, read_profile(std::string(TGEMM_SOURCE_DIR) + "/" + shipped_path(g)));
        return out;
    }();
    return profiles.at(gpu);
}

// Why the shipped profile of `gpu` has nothing to check for `rung_id`, or nothing when it has
// rows of that rung.
inline std::optional<std::string> not_measured_reason(const std::string& gpu,
                                                      const std::string& rung_id) {
    for (const auto& m : shipped(gpu).measurements)
        if (m.kernel == rung_id) return std::nullopt;
    return "not measured: " + shipped_path(gpu) + " has no row of rung '" + rung_id +
           "', registered in this build (the profile predates it); measure the ladder on the "
           "GPU again to check it (docs/adding-a-kernel.md)";
}

// Every (GPU, registered rung) pair, for the per-rung checks.
struct gpu_rung {
    std::string gpu;
    std::string rung;
};
// How GoogleTest names the pair in its output.
inline void PrintTo(const gpu_rung& g, std::ostream* os) {
    *os << g.gpu << " " << g.rung;
}
inline std::vector<gpu_rung> shipped_gpu_rungs() {
    std::vector<gpu_rung> out;
    for (const auto& g : shipped_gpus())
        for (const auto& id : rung_registry::get().ids()) out.push_back({g, id});
    return out;
}

}  // namespace tgemm::test
