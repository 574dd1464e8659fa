#include "tensor/tensor_map.hpp"

#include <cudaTypedefs.h>

#include "tensor/tma_l2_promotion.hpp"

namespace tgemm::tensor {

namespace {

constexpr CUtensorMapL2promotion l2_promotion() {
    static_assert(tma_l2_promotion_bytes == 0 || tma_l2_promotion_bytes == 64 ||
                  tma_l2_promotion_bytes == 128 || tma_l2_promotion_bytes == 256);
    switch (tma_l2_promotion_bytes) {
        case 64:
            return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
        case 128:
            return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
        case 256:
            return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
        default:
            return CU_TENSOR_MAP_L2_PROMOTION_NONE;
    }
}

std::string entry_point(PFN_cuTensorMapEncodeTiled_v12000& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                           cudaEnableDefault, &found);
    if (e != cudaSuccess)
        return std::string("cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled) failed: ") +
               cudaGetErrorString(e);
    if (found != cudaDriverEntryPointSuccess || !p)
        return "the CUDA driver has no cuTensorMapEncodeTiled (a driver for CUDA 12.0 or newer "
               "is needed for TMA)";
    fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    return {};
}

}  // namespace

std::string encode_2d(CUtensorMap& map, const void* base, map_element type, std::uint64_t rows,
                      std::uint64_t cols, std::uint64_t row_stride, std::uint32_t box_rows,
                      std::uint32_t box_cols) {
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (auto why = entry_point(encode); !why.empty()) return why;
    const cuuint64_t dims[2] = {cols, rows};
    const cuuint64_t strides[1] = {row_stride * 2};  // bytes between rows
    const cuuint32_t box[2] = {box_cols, box_rows};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encode(&map,
                              type == map_element::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                        : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                              2, const_cast<void*>(base), dims, strides, box, element_strides,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              l2_promotion(), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return "cuTensorMapEncodeTiled failed with CUresult " +
               std::to_string(static_cast<int>(r)) + " (rows " + std::to_string(rows) + ", cols " +
               std::to_string(cols) + ", box " + std::to_string(box_rows) + "x" +
               std::to_string(box_cols) + ")";
    return {};
}

}  // namespace tgemm::tensor
