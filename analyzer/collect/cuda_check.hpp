#pragma once
// Check macros for the runtime, cuBLAS and CUPTI: a failing call becomes a tgemm::error that
// quotes the call and the library's own words.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "core/throw.hpp"

#define TGEMM_CUDA(call)                                                                          \
    do {                                                                                          \
        const cudaError_t tgemm_status_ = (call);                                                 \
        if (tgemm_status_ != cudaSuccess)                                                         \
            TGEMM_THROW(internal, "{} failed: {} ({})", #call, cudaGetErrorString(tgemm_status_), \
                        cudaGetErrorName(tgemm_status_));                                         \
    } while (0)

#define TGEMM_CUBLAS(call)                                                                       \
    do {                                                                                         \
        const cublasStatus_t tgemm_status_ = (call);                                             \
        if (tgemm_status_ != CUBLAS_STATUS_SUCCESS)                                              \
            TGEMM_THROW(internal, "{} failed: {}", #call, cublasGetStatusString(tgemm_status_)); \
    } while (0)
