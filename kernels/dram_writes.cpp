#include "dram_writes.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tgemm::kernels {

void add_dram_write_band(refined_model& r, const shape& s, int c_element_bytes,
                         std::int64_t l2_bytes) {
    if (!r.dram_write_bytes || *r.dram_write_bytes <= 0) return;
    if (!r.l1_global_store_bytes && !r.tma_store_bytes) return;
    const double c = double(c_element_bytes) * double(s.m) * double(s.n);
    const double stored = r.l1_global_store_bytes.value_or(0) + r.tma_store_bytes.value_or(0);
    const double low = std::max(0.0, c - double(l2_bytes));
    const double high = std::max(c, stored);
    r.set_band(keys::dram_write_bytes,
               {low, high,
                "what is still dirty in L2 when the kernel ends (at most the L2) is written "
                "after the counted window; how much that is depends on the L2's replacement"});
    r.notes.push_back(fmt::format(
        "DRAM write band: between {:.1f} MB (C less the L2, which may hold that much of it dirty "
        "at the end) and {:.1f} MB (every stored sector written once)",
        low / 1e6, high / 1e6));
}

}  // namespace tgemm::kernels
