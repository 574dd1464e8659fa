#pragma once
// The (kernel, shape) pairs a run measures, in the order it measures them, and the shards a
// fleet splits them into (docs/fleet.md). The measuring run, the prediction and `merge` all
// use this one list, so that a complete set of shards merges into the rows of one run.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape.hpp"

namespace tgemm {

// A kernel as the work list sees it: its place in the caller's list, and whether it runs the
// tensor-only shapes (the tensor-core rungs do; the FP32 ladder at 8192³ would take minutes
// under its instrumented counters).
struct work_kernel {
    std::string id;
    bool tensor = false;
};

struct work_item {
    std::size_t kernel = 0;  // index into the kernels the list was made from
    shape size;

    friend bool operator==(const work_item&, const work_item&) = default;
};

// Shape-major: every kernel at the first shape, then at the second, ...; a shape in
// `tensor_only` only for the tensor kernels. Shape-major so that a run makes each shape's
// operands once.
[[nodiscard]] std::vector<work_item> make_work_list(std::span<const work_kernel> kernels,
                                                    std::span<const shape> shapes,
                                                    std::span<const shape> tensor_only);

// Shard `index` of `count` (0 <= index < count): the items at index, index + count, ...
struct shard {
    int index = 0;
    int count = 1;

    friend bool operator==(const shard&, const shard&) = default;
    [[nodiscard]] bool whole() const { return count == 1; }
    // The position in the whole list of this shard's j-th item.
    [[nodiscard]] std::size_t position(std::size_t j) const {
        return static_cast<std::size_t>(index) + j * static_cast<std::size_t>(count);
    }
    // How many of `list_size` items this shard holds.
    [[nodiscard]] std::size_t size_of(std::size_t list_size) const;
};

[[nodiscard]] std::vector<work_item> shard_of(std::span<const work_item> list, shard s);

// "i/n" as --shard takes it. Throws error_kind::usage naming the text.
[[nodiscard]] shard parse_shard(std::string_view text);
// "i/n"
[[nodiscard]] std::string to_string(const shard& s);

}  // namespace tgemm
