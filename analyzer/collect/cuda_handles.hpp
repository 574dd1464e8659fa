#pragma once
// RAII owners for the CUDA runtime and cuBLAS handles the measurement uses.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace tgemm {

// Device memory of `count` floats.
class device_buffer {
  public:
    device_buffer() = default;
    explicit device_buffer(std::size_t count);
    ~device_buffer();
    device_buffer(device_buffer&& o) noexcept
        : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(o.m_count) {}
    device_buffer& operator=(device_buffer&& o) noexcept;
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;

    [[nodiscard]] float* get() const { return m_ptr; }
    // The same memory for elements of another type (16-bit operands).
    [[nodiscard]] void* raw() const { return m_ptr; }
    [[nodiscard]] std::size_t size() const { return m_count; }
    [[nodiscard]] std::size_t bytes() const { return m_count * sizeof(float); }

  private:
    float* m_ptr = nullptr;
    std::size_t m_count = 0;
};

class cuda_stream {
  public:
    cuda_stream();
    ~cuda_stream();
    cuda_stream(const cuda_stream&) = delete;
    cuda_stream& operator=(const cuda_stream&) = delete;
    [[nodiscard]] cudaStream_t get() const { return m_stream; }

  private:
    cudaStream_t m_stream = nullptr;
};

class cuda_event {
  public:
    cuda_event();
    ~cuda_event();
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;
    [[nodiscard]] cudaEvent_t get() const { return m_event; }

  private:
    cudaEvent_t m_event = nullptr;
};

// A cuBLAS handle bound to `stream`, in pedantic FP32 mode: no TF32, no reduced-precision
// shortcuts, so it is a fair FP32 reference.
class cublas_handle {
  public:
    explicit cublas_handle(cudaStream_t stream);
    ~cublas_handle();
    cublas_handle(const cublas_handle&) = delete;
    cublas_handle& operator=(const cublas_handle&) = delete;
    [[nodiscard]] cublasHandle_t get() const { return m_handle; }

  private:
    cublasHandle_t m_handle = nullptr;
};

}  // namespace tgemm
