#pragma once
// Profiles of one GPU model combined into one (docs/fleet.md): the shards of a run, or runs of
// the same work list on several cards. Rows are ordered by their position in the run's work
// list (core/work_list.hpp), so a complete set of shards gives the rows of one run, in its
// order; each row keeps where it was measured (row_provenance).
#include <span>
#include <string>
#include <vector>

#include "profile/profile.hpp"

namespace tgemm {

struct merge_input {
    std::string origin;  // the file, as messages name it
    profile data;
};

struct merge_result {
    profile merged;
    std::vector<std::string> notes;  // one line each: kept duplicates, differing peaks, gaps
};

// Throws error_kind::input, one line naming the files, when the inputs are of different GPU
// models, schemas, tool versions or sources, come from different work lists, or hold different
// rows for one (kernel, size) and `prefer_latest` is false (with it, the row measured later is
// kept, and a note says so).
[[nodiscard]] merge_result merge_profiles(std::span<const merge_input> inputs, bool prefer_latest);

}  // namespace tgemm
