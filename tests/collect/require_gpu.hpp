#pragma once
// REQUIRE_GPU(dev): the local GPU as `dev`, or the test skips and says why there is none.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "collect/device.hpp"

namespace tgemm::test {

inline std::optional<local_device> gpu_or_skip_reason(std::string& why) {
    const auto probe = probe_local_device();
    if (!probe.device) why = "no GPU: " + probe.why_none;
    return probe.device;
}

}  // namespace tgemm::test

#define REQUIRE_GPU(dev)                                      \
    std::string why_;                                         \
    const auto dev = ::tgemm::test::gpu_or_skip_reason(why_); \
    if (!dev) GTEST_SKIP() << why_;
