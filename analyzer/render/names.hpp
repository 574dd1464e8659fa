#pragma once
// What the plot and the report call a roof or a counter level.
#include <string>
#include <string_view>

namespace tgemm::render {

// "fp32" → "FP32", "dram" → "DRAM", "tensor_tf32" → "TF32 tensor".
[[nodiscard]] std::string roof_display_name(std::string_view peaks_key);
// "l1_global_load_bytes" → "L1 global load bytes"; unknown keys come back unchanged.
[[nodiscard]] std::string level_display_name(std::string_view level_key);

}  // namespace tgemm::render
