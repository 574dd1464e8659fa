#pragma once
// The comma-separated items of an environment variable: the sweeps of the GPU experiments that
// run only when asked.
#include <cstdlib>
#include <string>
#include <vector>

#include "core/strings.hpp"

namespace tgemm::test {

// The items of `name` (none where it is unset or empty).
inline std::vector<std::string> env_list(const char* name) {
    const char* env = std::getenv(name);
    std::vector<std::string> items;
    if (env && *env)
        for (const auto item : split(env, ',')) items.emplace_back(item);
    return items;
}

}  // namespace tgemm::test
