#pragma once
// One BF16 GEMM as the tensor kernels take it: row-major A (m×k), B (k×n), C (m×n), all bf16,
// C = α·A·B + β·C with FP32 accumulators.
#include <cuda_bf16.h>

namespace tgemm::tensor {

struct problem {
    int m = 0;
    int n = 0;
    int k = 0;
    float alpha = 1;
    float beta = 0;
    const __nv_bfloat16* a = nullptr;
    const __nv_bfloat16* b = nullptr;
    __nv_bfloat16* c = nullptr;
};

}  // namespace tgemm::tensor
