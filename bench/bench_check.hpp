#pragma once
// The tuning sweeps' error check: a failed CUDA or cuBLAS call throws, naming the call.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace tgemm::bench {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(s));
}

}  // namespace tgemm::bench

#define BENCH_CHECK(call) ::tgemm::bench::check((call), #call)
