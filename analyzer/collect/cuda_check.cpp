#include "collect/cuda_check.hpp"

#include "collect/device_errors.hpp"

namespace tgemm {

void throw_cuda(cudaError_t status, const char* call) {
    cuda_failure f;
    f.status = status;
    f.call = call;
    f.name = cudaGetErrorName(status);
    f.text = cudaGetErrorString(status);
    cudaDriverGetVersion(&f.driver_version);
    cudaRuntimeGetVersion(&f.runtime_version);
    throw_cuda_failure(f);
}

}  // namespace tgemm
