#include "collect/workspace.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

// Rounds every value to `t` (nearest, ties to even) and back, so the host keeps exactly what
// the device will hold.
void round_to(std::vector<float>& v, element_type t) {
    if (t == element_type::bf16)
        for (auto& x : v) x = __bfloat162float(__float2bfloat16_rn(x));
    else if (t == element_type::fp16)
        for (auto& x : v) x = __half2float(__float2half_rn(x));
}

std::size_t floats_for(std::size_t elements, element_type t) {
    return (elements * static_cast<std::size_t>(element_bytes(t)) + 3) / 4;
}

// Stores `v` (already representable in `t`) as elements of type `t`.
void upload(const device_buffer& dst, const std::vector<float>& v, element_type t) {
    std::vector<std::uint16_t> half(t == element_type::fp32 ? 0 : v.size());
    const void* src = v.data();
    if (t == element_type::bf16) {
        for (std::size_t i = 0; i < v.size(); ++i)
            half[i] = static_cast<__nv_bfloat16_raw>(__float2bfloat16_rn(v[i])).x;
        src = half.data();
    } else if (t == element_type::fp16) {
        for (std::size_t i = 0; i < v.size(); ++i)
            half[i] = static_cast<__half_raw>(__float2half_rn(v[i])).x;
        src = half.data();
    }
    TGEMM_CUDA(cudaMemcpy(dst.raw(), src, v.size() * static_cast<std::size_t>(element_bytes(t)),
                          cudaMemcpyHostToDevice));
}

std::vector<float> download(const device_buffer& src, std::size_t n, element_type t) {
    std::vector<float> v(n);
    if (t == element_type::fp32) {
        TGEMM_CUDA(cudaMemcpy(v.data(), src.raw(), n * sizeof(float), cudaMemcpyDeviceToHost));
        return v;
    }
    std::vector<std::uint16_t> half(n);
    TGEMM_CUDA(cudaMemcpy(half.data(), src.raw(), n * 2, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i) {
        if (t == element_type::bf16) {
            __nv_bfloat16_raw r;
            r.x = half[i];
            v[i] = __bfloat162float(__nv_bfloat16(r));
        } else {
            __half_raw r;
            r.x = half[i];
            v[i] = __half2float(__half(r));
        }
    }
    return v;
}

// Row-major C = alpha·A·B + beta·C in pedantic FP32 through column-major cuBLAS
// (Cᵀ = Bᵀ·Aᵀ), on float copies of the operands. Returns C.
std::vector<float> reference_gemm(cublasHandle_t h, cudaStream_t stream, const shape& s,
                                  float alpha, const std::vector<float>& a,
                                  const std::vector<float>& b, float beta,
                                  const std::vector<float>& c) {
    device_buffer da(a.size()), db(b.size()), dc(c.size());
    upload(da, a, element_type::fp32);
    upload(db, b, element_type::fp32);
    upload(dc, c, element_type::fp32);
    TGEMM_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(s.n),
                             static_cast<int>(s.m), static_cast<int>(s.k), &alpha, db.get(),
                             static_cast<int>(s.n), da.get(), static_cast<int>(s.k), &beta,
                             dc.get(), static_cast<int>(s.n)));
    TGEMM_CUDA(cudaStreamSynchronize(stream));
    return download(dc, c.size(), element_type::fp32);
}

std::vector<float> absolute(std::vector<float> v) {
    for (auto& x : v) x = std::fabs(x);
    return v;
}

// The accumulation error's unit per product: FP32 rounding (2^-24) for the FFMA rungs; the
// tensor cores' adders are allowed to truncate, a full FP32 ulp (2^-23).
double accumulation_unit(element_type ab) {
    return std::ldexp(1.0, ab == element_type::fp32 ? -24 : -23);
}

// Half an ulp of C's type, relative: what rounding the FP32 result to C's type may add.
double output_rounding(element_type c) {
    if (c == element_type::bf16) return std::ldexp(1.0, -8);
    if (c == element_type::fp16) return std::ldexp(1.0, -11);
    return 0.0;
}

}  // namespace

std::size_t workspace_plan::bytes() const {
    return (a + b + 2 * c + flush + reference) * sizeof(float);
}

workspace_plan plan_workspace(const shape& s, operand_types types, std::int64_t l2_bytes,
                              bool reference) {
    const auto mk = static_cast<std::size_t>(s.m * s.k);
    const auto kn = static_cast<std::size_t>(s.k * s.n);
    const auto mn = static_cast<std::size_t>(s.m * s.n);
    workspace_plan p;
    p.a = floats_for(mk, types.ab);
    p.b = floats_for(kn, types.ab);
    p.c = floats_for(mn, types.c);
    // 4× the L2 (collect/l2_flush.hpp). A multiple of 32 floats keeps whole lines.
    if (l2_bytes > 0)
        p.flush = (static_cast<std::size_t>(4 * l2_bytes) / sizeof(float) + 31) / 32 * 32;
    // reference_gemm's three FP32 buffers; the second product (the tolerance's sums) allocates
    // them again after the first has freed them.
    if (reference) p.reference = mk + kn + mn;
    return p;
}

workspace::workspace(const shape& s, operand_types types_, float alpha_, float beta_,
                     std::int64_t l2_bytes, cudaStream_t stream_, cublasHandle_t cublas,
                     std::uint64_t seed)
    : size(s), types(types_), alpha(alpha_), beta(beta_), stream(stream_) {
    const auto mk = static_cast<std::size_t>(s.m * s.k);
    const auto kn = static_cast<std::size_t>(s.k * s.n);
    const auto mn = static_cast<std::size_t>(s.m * s.n);
    std::mt19937_64 rng(seed);
    auto ha = uniform(mk, rng);
    auto hb = uniform(kn, rng);
    auto hc = uniform(mn, rng);
    round_to(ha, types.ab);
    round_to(hb, types.ab);
    round_to(hc, types.c);
    const auto plan = plan_workspace(s, types, l2_bytes, cublas != nullptr);
    a = device_buffer(plan.a);
    b = device_buffer(plan.b);
    c0 = device_buffer(plan.c);
    c = device_buffer(plan.c);
    upload(a, ha, types.ab);
    upload(b, hb, types.ab);
    upload(c0, hc, types.c);
    if (plan.flush > 0) {
        // cudaMalloc returns 256-byte aligned memory. Zeroed once, long before any counted
        // launch.
        flush = device_buffer(plan.flush);
        TGEMM_CUDA(cudaMemset(flush.raw(), 0, flush.bytes()));
    }
    if (!cublas) return;

    // The reference is FP32 arithmetic on exactly the values the rung reads (16-bit inputs are
    // rounded on the host first, so the reference sees the same numbers).
    reference = reference_gemm(cublas, stream, s, alpha, ha, hb, beta, hc);

    // Tolerance. Any summation order of K products has error bounded by a multiple of
    // u·Σ|a||b|; rounding errors of random sign grow like √K, not K, so the bound used is
    // 8·√(K+2)·u·(|α|·Σ|a_ik||b_kj| + |β|·|c_ij|), far above honest rounding (a kernel and
    // the reference may differ by twice one kernel's error) and far below a dropped or doubled
    // product (≈ |a||b| ≈ 0.25 on average). A 16-bit C adds the rounding of the result to its
    // type. See docs/measurement.md.
    const auto sums = reference_gemm(cublas, stream, s, 1.0f, absolute(ha), absolute(hb), 0.0f,
                                     std::vector<float>(mn, 0.0f));
    const double factor =
        8.0 * std::sqrt(static_cast<double>(s.k) + 2.0) * accumulation_unit(types.ab);
    const double out_unit = output_rounding(types.c);
    tolerance.resize(mn);
    for (std::size_t i = 0; i < mn; ++i)
        tolerance[i] = static_cast<float>(
            factor * (std::fabs(alpha) * sums[i] + std::fabs(beta) * std::fabs(hc[i])) +
            out_unit * std::fabs(reference[i]) + 1e-30);
}

gemm_args workspace::args() const {
    return gemm_args{size, alpha, beta, a.raw(), b.raw(), c.raw()};
}

void workspace::restore_c() const {
    TGEMM_CUDA(cudaMemcpyAsync(c.raw(), c0.raw(), c0.bytes(), cudaMemcpyDeviceToDevice, stream));
}

void workspace::flush_l2() const {
    if (flush.size() == 0) TGEMM_THROW(internal, "this workspace has no L2 flush buffer");
    tgemm::flush_l2(flush.get(), flush.size(), stream);
    TGEMM_CUDA(cudaGetLastError());
}

std::vector<float> workspace::download_c() const {
    return download(c, static_cast<std::size_t>(size.m * size.n), types.c);
}

}  // namespace tgemm
