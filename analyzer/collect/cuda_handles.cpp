#include "collect/cuda_handles.hpp"

#include "collect/cuda_check.hpp"

namespace tgemm {

device_buffer::device_buffer(std::size_t count) : m_count(count) {
    const auto st = cudaMalloc(reinterpret_cast<void**>(&m_ptr), count * sizeof(float));
    if (st != cudaSuccess)
        TGEMM_THROW(device, "cannot allocate {:.1f} MiB on the GPU: {}",
                    count * sizeof(float) / 1048576.0, cudaGetErrorString(st));
}

device_buffer::~device_buffer() {
    if (m_ptr) cudaFree(m_ptr);
}

device_buffer& device_buffer::operator=(device_buffer&& o) noexcept {
    if (this != &o) {
        if (m_ptr) cudaFree(m_ptr);
        m_ptr = std::exchange(o.m_ptr, nullptr);
        m_count = o.m_count;
    }
    return *this;
}

cuda_stream::cuda_stream() {
    TGEMM_CUDA(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
}
cuda_stream::~cuda_stream() {
    cudaStreamDestroy(m_stream);
}

cuda_event::cuda_event() {
    TGEMM_CUDA(cudaEventCreate(&m_event));
}
cuda_event::~cuda_event() {
    cudaEventDestroy(m_event);
}

cublas_handle::cublas_handle(cudaStream_t stream) {
    TGEMM_CUBLAS(cublasCreate(&m_handle));
    TGEMM_CUBLAS(cublasSetStream(m_handle, stream));
    TGEMM_CUBLAS(cublasSetMathMode(m_handle, CUBLAS_PEDANTIC_MATH));
}
cublas_handle::~cublas_handle() {
    cublasDestroy(m_handle);
}

}  // namespace tgemm
