#pragma once
// Whether a refined model's notes (the report's derivation lines) hold one starting with a
// prefix: how the model tests check that a step was taken and said.
#include <algorithm>
#include <string>
#include <string_view>

#include "model/refined_model.hpp"

namespace tgemm::test {

inline bool has_note(const refined_model& r, std::string_view prefix) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string& n) { return n.starts_with(prefix); });
}

}  // namespace tgemm::test
