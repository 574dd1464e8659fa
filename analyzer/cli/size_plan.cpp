#include "cli/size_plan.hpp"

#include <algorithm>

namespace tgemm::cli {

size_plan plan_sizes(const main_options& o) {
    size_plan p;
    p.shapes = parse_shapes(o.sizes);
    if (o.sizes_given && !o.tensor_sizes_given) return p;
    for (const auto& s : parse_shapes(o.tensor_sizes, "--tensor-sizes"))
        if (std::find(p.shapes.begin(), p.shapes.end(), s) == p.shapes.end()) {
            p.shapes.push_back(s);
            p.tensor_only.push_back(s);
        }
    return p;
}

}  // namespace tgemm::cli
