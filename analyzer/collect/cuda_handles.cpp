#include "collect/cuda_handles.hpp"

#include "collect/cuda_check.hpp"
#include "collect/device_errors.hpp"

namespace tgemm {

device_buffer::device_buffer(std::size_t count) : m_count(count) {
    const auto st = cudaMalloc(reinterpret_cast<void**>(&m_ptr), count * sizeof(float));
    // Out of memory is its own type, so that the measuring loop can name the shape it was for.
    if (st == cudaErrorMemoryAllocation)
        throw gpu_out_of_memory(
            error_kind::device,
            fmt::format("cannot allocate {} on the GPU: it is out of memory",
                        bytes_text(static_cast<double>(count * sizeof(float)))));
    if (st != cudaSuccess) throw_cuda(st, "cudaMalloc");
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
