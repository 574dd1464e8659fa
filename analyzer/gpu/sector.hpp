#pragma once
// The 32-byte sector: the unit in which L1 and L2 move global memory, and in which their
// counters count it. The rung models count sectors and multiply by this; the counter table
// turns L2 sector counts into bytes with it.
#include <cstdint>

namespace tgemm {

inline constexpr std::int64_t sector_bytes = 32;

}  // namespace tgemm
