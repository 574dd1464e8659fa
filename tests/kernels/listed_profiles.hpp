#pragma once
// The rows of the profiles an environment variable lists (paths from the source tree,
// comma-separated), each with the model of its rung at its shape: the loop of the tables that
// set a model beside any profile (DramRows.Table, L2Rows.Table).
#include <cstdlib>
#include <sstream>
#include <string>

#include "model/levels.hpp"
#include "profile/profile_file.hpp"
#include "rung.hpp"

namespace tgemm::test {

// Calls visit(profile, measurement, refined model) for every row not skipped; false when the
// variable lists no profile.
template <class Visit>
bool for_each_listed_row(const char* variable, const Visit& visit) {
    const char* list = std::getenv(variable);
    if (!list || !*list) return false;
    std::stringstream paths(list);
    for (std::string path; std::getline(paths, path, ',');) {
        const auto p = read_profile(std::string(TGEMM_SOURCE_DIR) + "/" + path);
        const auto mc = model_context_for(p.gpu);
        for (const auto& m : p.measurements)
            if (!m.skipped)
                visit(p, m, rung_registry::get().find(m.kernel).model(m.size, mc).refined);
    }
    return true;
}

}  // namespace tgemm::test
