#pragma once
// TMA tensor maps for row-major 2D matrices, encoded through the driver's
// cuTensorMapEncodeTiled. The entry point comes from cudaGetDriverEntryPointByVersion, so the
// binary never links libcuda and still starts (and renders) on a machine with no driver.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace tgemm::tensor {

// Element types of the tensors the tensor-core rungs copy.
enum class map_element { bf16, fp16 };

// A rows×cols row-major matrix of `row_stride` elements per row (a multiple of 8 for 16-bit
// elements: TMA needs 16-byte strides), copied in boxes of box_rows×box_cols elements with the
// 128-byte swizzle (box_cols·2 must be 128 or less). Returns an empty string on success, else
// what failed.
[[nodiscard]] std::string encode_2d(CUtensorMap& map, const void* base, map_element type,
                                    std::uint64_t rows, std::uint64_t cols,
                                    std::uint64_t row_stride, std::uint32_t box_rows,
                                    std::uint32_t box_cols);

}  // namespace tgemm::tensor
