#pragma once
// A stored profile keeps the models as the tool computed them when it measured. The models are
// code, not measurements: a report shows the ones this build derives, so a model corrected after
// a measurement is judged against the same counters without measuring again.
#include "profile/profile.hpp"

namespace tgemm {

// `p` with the model of every measured row re-derived for p's GPU by the registered rung of that
// id. Rows of rungs this build does not know, skipped rows, and every row of a GPU whose SM
// limits the profile lacks (an old schema) keep the stored model.
[[nodiscard]] profile with_current_models(profile p);

}  // namespace tgemm
