#pragma once
// cuBLAS's tensor-core GEMM (GemmEx, FP32 accumulation) as a prepared launch, for the BF16 and
// FP16 reference rows. The launch owns a handle of its own in default math mode: the shared
// handle of launch_context is pedantic (no tensor cores) for the FP32 reference.
#include <library_types.h>

#include "rung.hpp"

namespace tgemm::kernels {

// A and B of type `ab`, C of type `c`, row-major, on ctx.stream.
[[nodiscard]] bound_launch prepare_gemm_ex(const gemm_args& g, const launch_context& ctx,
                                           cudaDataType ab, cudaDataType c);

}  // namespace tgemm::kernels
