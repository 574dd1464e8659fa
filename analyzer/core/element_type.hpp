#pragma once
// The element types of a GEMM's operands. Every rung accumulates in FP32; A and B share one
// type, C may have another (the BF16 rungs write BF16, cuBLAS's FP16 reference writes FP32).
#include <optional>
#include <string_view>

namespace tgemm {

enum class element_type { fp32, bf16, fp16 };

[[nodiscard]] constexpr int element_bytes(element_type t) {
    return t == element_type::fp32 ? 4 : 2;
}

// "fp32", "bf16", "fp16": what profiles store as a row's dtype.
[[nodiscard]] constexpr std::string_view to_string(element_type t) {
    switch (t) {
        case element_type::bf16:
            return "bf16";
        case element_type::fp16:
            return "fp16";
        case element_type::fp32:
            break;
    }
    return "fp32";
}

[[nodiscard]] constexpr std::optional<element_type> parse_element_type(std::string_view s) {
    if (s == "fp32") return element_type::fp32;
    if (s == "bf16") return element_type::bf16;
    if (s == "fp16") return element_type::fp16;
    return std::nullopt;
}

// The operand types of one rung.
struct operand_types {
    element_type ab = element_type::fp32;  // A and B
    element_type c = element_type::fp32;   // C, read (β ≠ 0) and written

    friend constexpr bool operator==(const operand_types&, const operand_types&) = default;
};

}  // namespace tgemm
