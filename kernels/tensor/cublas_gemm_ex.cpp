#include "tensor/cublas_gemm_ex.hpp"

#include <memory>
#include <string>

#include "core/error.hpp"

namespace tgemm::kernels {

namespace {

void check(cublasStatus_t st, const char* what) {
    if (st != CUBLAS_STATUS_SUCCESS)
        throw error(error_kind::internal,
                    std::string(what) + " failed: " + cublasGetStatusString(st));
}

// A cuBLAS handle in default math mode on one stream.
class tensor_handle {
  public:
    explicit tensor_handle(cudaStream_t stream) {
        check(cublasCreate(&m_handle), "cublasCreate");
        check(cublasSetStream(m_handle, stream), "cublasSetStream");
        check(cublasSetMathMode(m_handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }
    ~tensor_handle() { cublasDestroy(m_handle); }
    tensor_handle(const tensor_handle&) = delete;
    tensor_handle& operator=(const tensor_handle&) = delete;
    [[nodiscard]] cublasHandle_t get() const { return m_handle; }

  private:
    cublasHandle_t m_handle = nullptr;
};

}  // namespace

bound_launch prepare_gemm_ex(const gemm_args& g, const launch_context& ctx, cudaDataType ab,
                             cudaDataType c) {
    auto handle = std::make_shared<tensor_handle>(ctx.stream);
    return [g, handle, ab, c] {
        // Row-major C = A·B is the column-major Cᵀ = Bᵀ·Aᵀ: pass B first and swap m and n.
        check(cublasGemmEx(handle->get(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(g.size.n),
                           static_cast<int>(g.size.m), static_cast<int>(g.size.k), &g.alpha, g.b,
                           ab, static_cast<int>(g.size.n), g.a, ab, static_cast<int>(g.size.k),
                           &g.beta, g.c, c, static_cast<int>(g.size.n), CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx");
    };
}

}  // namespace tgemm::kernels
