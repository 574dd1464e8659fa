#pragma once
// What the plot and the report call a roof or a counter level.
#include <string>
#include <string_view>

namespace tgemm::render {

// "fp32" → "FP32", "dram" → "DRAM", "tensor_tf32" → "TF32 tensor".
[[nodiscard]] std::string roof_display_name(std::string_view peaks_key);

// What the plots call a roof: "fp32" → "FP32", "dram" → "DRAM", "l2" → "L2", "smem" →
// "shared", "tensor_tf32" → "TF32 tensor", "tensor_fp16" → "FP16 tensor", "tensor_bf16" →
// "BF16 tensor".
[[nodiscard]] std::string roof_name(std::string_view peaks_key);

// What a sentence calls the roof of a peaks key: "FP32", "DRAM", "L2", "shared-memory".
[[nodiscard]] std::string roof_word(std::string_view peaks_key);

// What a table calls it: roof_word without the hyphen ("shared memory").
[[nodiscard]] std::string roof_table_name(std::string_view peaks_key);
// "l1_global_load_bytes" → "L1 global load bytes"; unknown keys come back unchanged.
[[nodiscard]] std::string level_display_name(std::string_view level_key);

}  // namespace tgemm::render
