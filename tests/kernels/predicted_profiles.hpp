#pragma once
// PREDICTED profiles for the ladder tests that lay out the plots of a GPU this machine does not
// have: the whole registered ladder on the GPU's spec. Ladder tests only: predict_profile needs
// the registered rungs.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "gpu/spec.hpp"
#include "ladder/predict.hpp"
#include "rung.hpp"

namespace tgemm::test {

// `gpu` predicted at `sizes`, dated as the synthetic profile. `command` is what the profile
// says made it; by default "tgemm-roofline --gpu <gpu>".
inline profile predicted(std::string_view gpu, const std::vector<shape>& sizes,
                         std::string command = {}) {
    if (command.empty()) command = fmt::format("tgemm-roofline --gpu {}", gpu);
    return predict_profile(find_gpu(gpu), rung_registry::get().all(), sizes, command,
                           "2026-11-22T10:00:00Z");
}

// The RTX 5070 Ti (seed 003's GPU, with published points) at 1024³, 2048³ and 4096³.
// Predicted once per test binary.
inline const profile& rtx5070ti_predicted() {
    static const profile p = predicted(
        "rtx5070ti", {shape{1024, 1024, 1024}, shape{2048, 2048, 2048}, shape{4096, 4096, 4096}});
    return p;
}

}  // namespace tgemm::test
