#pragma once
// What the host side of the BF16 tensor-core kernels shares. Each kernel family has a
// prepare_* function (tensor/*_launch.cuh) that sets a problem up once (TMA descriptors, the
// dynamic shared-memory opt-in, the persistent grid, the stream-K workspace) and returns its
// launch; the rungs (kernels/13-17_*.cu) and the tuning sweep (bench/tune_bf16.cu) both launch
// through them, so what is tuned is what is measured.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "tensor/problem.hpp"
#include "tensor/tensor_map.hpp"

namespace tgemm::tensor {

// Launches the prepared problem once on the stream it was prepared for; never synchronises.
using prepared = std::function<void()>;

inline void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw error(error_kind::internal, std::string(what) + " failed: " + cudaGetErrorString(e));
}

inline void check_map(const std::string& why) {
    if (!why.empty()) throw error(error_kind::device, "TMA descriptor: " + why);
}

// Device memory the prepared launch owns (the stream-K workspace).
class device_scratch {
  public:
    explicit device_scratch(std::size_t bytes) {
        check_cuda(cudaMalloc(&m_ptr, bytes), "cudaMalloc of the stream-K workspace");
    }
    ~device_scratch() { cudaFree(m_ptr); }
    device_scratch(const device_scratch&) = delete;
    device_scratch& operator=(const device_scratch&) = delete;
    [[nodiscard]] void* get() const { return m_ptr; }

  private:
    void* m_ptr = nullptr;
};

}  // namespace tgemm::tensor
