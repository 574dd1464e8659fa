#pragma once
// Check macros for the runtime, cuBLAS and CUPTI: a failing call becomes a tgemm::error that
// quotes the call and the library's own words; the failures a user can act on (a lost GPU, a
// driver too old, memory) get their own line (collect/device_errors.hpp).
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "core/throw.hpp"

namespace tgemm {

// Asks the runtime for the status's name and text and the driver and runtime versions, then
// throws collect/device_errors.hpp's error for it.
[[noreturn]] void throw_cuda(cudaError_t status, const char* call);

}  // namespace tgemm

#define TGEMM_CUDA(call)                                                             \
    do {                                                                             \
        const cudaError_t tgemm_status_ = (call);                                    \
        if (tgemm_status_ != cudaSuccess) ::tgemm::throw_cuda(tgemm_status_, #call); \
    } while (0)

#define TGEMM_CUBLAS(call)                                                                       \
    do {                                                                                         \
        const cublasStatus_t tgemm_status_ = (call);                                             \
        if (tgemm_status_ != CUBLAS_STATUS_SUCCESS)                                              \
            TGEMM_THROW(internal, "{} failed: {}", #call, cublasGetStatusString(tgemm_status_)); \
    } while (0)
