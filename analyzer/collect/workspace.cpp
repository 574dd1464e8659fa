#include "collect/workspace.hpp"

#include <cmath>
#include <random>

#include "collect/cuda_check.hpp"
#include "collect/l2_flush.hpp"

namespace tgemm {

namespace {

std::vector<float> uniform(std::size_t n, std::mt19937_64& rng) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

void upload(const device_buffer& dst, const std::vector<float>& src) {
    TGEMM_CUDA(
        cudaMemcpy(dst.get(), src.data(), src.size() * sizeof(float), cudaMemcpyHostToDevice));
}

std::vector<float> download(const device_buffer& src, std::size_t n) {
    std::vector<float> v(n);
    TGEMM_CUDA(cudaMemcpy(v.data(), src.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
    return v;
}

// Row-major C = alpha·A·B + beta·C through column-major cuBLAS (Cᵀ = Bᵀ·Aᵀ).
void cublas_gemm(cublasHandle_t h, const shape& s, float alpha, const float* a, const float* b,
                 float beta, float* c) {
    TGEMM_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(s.n),
                             static_cast<int>(s.m), static_cast<int>(s.k), &alpha, b,
                             static_cast<int>(s.n), a, static_cast<int>(s.k), &beta, c,
                             static_cast<int>(s.n)));
}

}  // namespace

workspace::workspace(const shape& s, float alpha_, float beta_, std::int64_t l2_bytes,
                     cudaStream_t stream_, cublasHandle_t cublas, std::uint64_t seed)
    : size(s), alpha(alpha_), beta(beta_), stream(stream_) {
    const auto mk = static_cast<std::size_t>(s.m * s.k);
    const auto kn = static_cast<std::size_t>(s.k * s.n);
    const auto mn = static_cast<std::size_t>(s.m * s.n);
    std::mt19937_64 rng(seed);
    const auto ha = uniform(mk, rng);
    const auto hb = uniform(kn, rng);
    const auto hc = uniform(mn, rng);
    a = device_buffer(mk);
    b = device_buffer(kn);
    c0 = device_buffer(mn);
    c = device_buffer(mn);
    upload(a, ha);
    upload(b, hb);
    upload(c0, hc);
    if (l2_bytes > 0) {
        // cudaMalloc returns 256-byte aligned memory; a multiple of 32 floats keeps whole lines.
        const auto floats = static_cast<std::size_t>(3 * l2_bytes / sizeof(float));
        flush = device_buffer((floats + 31) / 32 * 32);
    }
    if (!cublas) return;

    // Reference.
    TGEMM_CUDA(cudaMemcpy(c.get(), c0.get(), c0.bytes(), cudaMemcpyDeviceToDevice));
    cublas_gemm(cublas, s, alpha, a.get(), b.get(), beta, c.get());
    TGEMM_CUDA(cudaStreamSynchronize(stream));
    reference = download(c, mn);

    // Tolerance. Any FP32 summation order of K products has error bounded by a multiple of
    // u·Σ|a||b|; rounding errors of random sign grow like √K, not K, so the bound used is
    // 8·√(K+2)·u·(|α|·Σ|a_ik||b_kj| + |β|·|c_ij|), far above honest rounding (a kernel and
    // cuBLAS may differ by twice one kernel's error) and far below a dropped or doubled
    // product (≈ |a||b| ≈ 0.25 on average). See docs/measurement.md.
    std::vector<float> abs_a(ha.size()), abs_b(hb.size());
    for (std::size_t i = 0; i < ha.size(); ++i) abs_a[i] = std::fabs(ha[i]);
    for (std::size_t i = 0; i < hb.size(); ++i) abs_b[i] = std::fabs(hb[i]);
    upload(a, abs_a);
    upload(b, abs_b);
    TGEMM_CUDA(cudaMemset(c.get(), 0, c.bytes()));
    cublas_gemm(cublas, s, 1.0f, a.get(), b.get(), 0.0f, c.get());
    TGEMM_CUDA(cudaStreamSynchronize(stream));
    const auto sums = download(c, mn);
    const double u = std::ldexp(1.0, -24);
    const double factor = 8.0 * std::sqrt(static_cast<double>(s.k) + 2.0) * u;
    tolerance.resize(mn);
    for (std::size_t i = 0; i < mn; ++i)
        tolerance[i] = static_cast<float>(
            factor * (std::fabs(alpha) * sums[i] + std::fabs(beta) * std::fabs(hc[i])) + 1e-30);
    upload(a, ha);
    upload(b, hb);
}

void workspace::restore_c() const {
    TGEMM_CUDA(cudaMemcpyAsync(c.get(), c0.get(), c0.bytes(), cudaMemcpyDeviceToDevice, stream));
}

void workspace::flush_l2() const {
    if (flush.size() == 0) TGEMM_THROW(internal, "this workspace has no L2 flush buffer");
    tgemm::flush_l2(flush.get(), flush.size(), stream);
    TGEMM_CUDA(cudaGetLastError());
}

}  // namespace tgemm
