#include "gpu/roof.hpp"

namespace tgemm {

std::optional<double> roof::ratio() const {
    if (!measured || reference() <= 0) return std::nullopt;
    return *measured / reference();
}

}  // namespace tgemm
