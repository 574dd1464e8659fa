#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tgemm {

// C (m×n) = alpha · A (m×k) · B (k×n) + beta · C, all row-major.
struct shape {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;

    friend bool operator==(const shape&, const shape&) = default;
    [[nodiscard]] bool square() const { return m == n && n == k; }
};

// "4096" is a cube; "4096x2048x1024" is M×N×K. Throws error_kind::usage with the offending text.
[[nodiscard]] shape parse_shape(std::string_view text);
// The largest side a size may have: three 65536² FP32 matrices are already 48 GiB.
inline constexpr std::int64_t max_shape_side = 65536;

// A comma-separated list of shapes, e.g. "1024,2048,4096x2048x1024"; `option` names the list
// in the message when it is empty.
[[nodiscard]] std::vector<shape> parse_shapes(std::string_view text,
                                              std::string_view option = "--sizes");
// "4096³" for cubes, "4096×2048×1024" otherwise.
[[nodiscard]] std::string to_string(const shape& s);
// "4096" or "4096x2048x1024": the form parse_shape reads back.
[[nodiscard]] std::string to_arg(const shape& s);

}  // namespace tgemm
