// tgemm-tune-bf16: the tuning sweep of the tensor-core rungs. Instantiates the kernel templates
// of kernels/tensor/ for every named configuration below, verifies each against an FP32
// reference (cuBLAS SGEMM in pedantic mode on the exact bf16 inputs), times each beside cuBLAS
// BF16 (GemmEx, measured first and last), and prints configuration → TFLOP/s → % of cuBLAS.
// See docs/tuning.md.
//
//   tgemm-tune-bf16 [MxNxK ...]        default: 4096x4096x4096 8192x8192x8192
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_check.hpp"
#include "tensor/tensor_rungs.hpp"
#include "tensor/ws_launch.cuh"

namespace {

struct problem {
    int m = 0, n = 0, k = 0;
    float alpha = 0.5f, beta = 3.0f;  // the tool's values: β ≠ 0, so C is read
    __nv_bfloat16 *a = nullptr, *b = nullptr, *c0 = nullptr, *c = nullptr;
    float* flush = nullptr;
    std::size_t flush_floats = 0;
    std::vector<float> ref, tol;
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;

    [[nodiscard]] double flop() const { return 2.0 * m * double(n) * k; }
    void restore() const {
        BENCH_CHECK(cudaMemcpyAsync(c, c0, sizeof(__nv_bfloat16) * std::size_t(m) * n,
                                    cudaMemcpyDeviceToDevice, stream));
    }
};

__global__ void fill_kernel(float4* p, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        p[i] = make_float4(0, 0, 0, 0);
}

void flush_l2(const problem& p) {
    fill_kernel<<<1024, 256, 0, p.stream>>>(reinterpret_cast<float4*>(p.flush), p.flush_floats / 4);
}

std::vector<__nv_bfloat16> random_bf16(std::size_t n, std::mt19937_64& rng) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<__nv_bfloat16> v(n);
    for (auto& x : v) x = __float2bfloat16_rn(d(rng));
    return v;
}

template <class T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    BENCH_CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    BENCH_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

std::vector<float> to_float(const std::vector<__nv_bfloat16>& v, bool absolute) {
    std::vector<float> f(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        f[i] = __bfloat162float(v[i]);
        if (absolute) f[i] = std::fabs(f[i]);
    }
    return f;
}

// Row-major C = alpha·A·B + beta·C in FP32 through column-major cuBLAS (Cᵀ = Bᵀ·Aᵀ).
std::vector<float> sgemm(cublasHandle_t h, int m, int n, int k, float alpha,
                         const std::vector<float>& a, const std::vector<float>& b, float beta,
                         const std::vector<float>& c) {
    float* da = upload(a);
    float* db = upload(b);
    float* dc = upload(c);
    BENCH_CHECK(
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, db, n, da, k, &beta, dc, n));
    std::vector<float> out(c.size());
    BENCH_CHECK(cudaMemcpy(out.data(), dc, out.size() * 4, cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaFree(da));
    BENCH_CHECK(cudaFree(db));
    BENCH_CHECK(cudaFree(dc));
    return out;
}

problem make_problem(int m, int n, int k, cudaStream_t stream, cublasHandle_t blas) {
    problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.stream = stream;
    p.blas = blas;
    std::mt19937_64 rng(20261124u ^ (std::uint64_t(m) * 73856093u) ^ (std::uint64_t(n) << 20) ^ k);
    const auto ha = random_bf16(std::size_t(m) * k, rng);
    const auto hb = random_bf16(std::size_t(k) * n, rng);
    const auto hc = random_bf16(std::size_t(m) * n, rng);
    p.a = upload(ha);
    p.b = upload(hb);
    p.c0 = upload(hc);
    BENCH_CHECK(cudaMalloc(&p.c, hc.size() * sizeof(__nv_bfloat16)));
    int dev = 0;
    BENCH_CHECK(cudaGetDevice(&dev));
    int l2 = 0;
    BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    p.flush_floats = std::size_t(3) * l2 / 4 / 32 * 32;
    BENCH_CHECK(cudaMalloc(&p.flush, p.flush_floats * 4));

    BENCH_CHECK(cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH));
    const auto c32 = to_float(hc, false);
    p.ref = sgemm(blas, m, n, k, p.alpha, to_float(ha, false), to_float(hb, false), p.beta, c32);
    const auto sums = sgemm(blas, m, n, k, 1.0f, to_float(ha, true), to_float(hb, true), 0.0f, c32);
    BENCH_CHECK(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
    // The inputs are exactly representable, so the kernel's result differs from the FP32
    // reference by its accumulation error (bounded like the FP32 rungs' by a √K random walk of
    // FP32 roundings, with the tensor cores' truncation counted as a full ulp: 2^-23) plus the
    // final rounding to bf16 (half an ulp: 2^-8 relative).
    const double acc_u = std::ldexp(1.0, -23);
    const double factor = 8.0 * std::sqrt(double(k) + 2.0) * acc_u;
    p.tol.resize(p.ref.size());
    for (std::size_t i = 0; i < p.ref.size(); ++i)
        p.tol[i] =
            float(std::ldexp(std::fabs(double(p.ref[i])), -8) +
                  factor * (std::fabs(p.alpha) * sums[i] + std::fabs(p.beta) * std::fabs(c32[i])) +
                  1e-30);
    return p;
}

struct verdict {
    bool ok = true;
    double worst = 0;
    long bad = 0;
};

verdict verify(const problem& p) {
    std::vector<__nv_bfloat16> got(std::size_t(p.m) * p.n);
    BENCH_CHECK(cudaMemcpy(got.data(), p.c, got.size() * 2, cudaMemcpyDeviceToHost));
    verdict v;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = __bfloat162float(got[i]);
        double r = std::fabs(g - p.ref[i]) / p.tol[i];
        if (std::isnan(g)) r = INFINITY;
        if (r > 1) {
            v.ok = false;
            ++v.bad;
        }
        v.worst = std::max(v.worst, r);
    }
    return v;
}

struct candidate {
    std::string name;
    const void* kernel = nullptr;  // for registers and spills
    int smem = 0;
    // Prepares (tensor maps, attributes) for a problem; returns the launch.
    std::function<std::function<void()>(const problem&)> prepare;
};

// ---------------------------------------------------------------------------------------------
// Each candidate launches through the same prepare_* function as its rung (tensor/*_launch.cuh).
tgemm::tensor::problem view(const problem& p) {
    return {p.m, p.n, p.k, p.alpha, p.beta, p.a, p.b, p.c};
}

template <class Cfg>
candidate ws_candidate(const char* name, bool balance = true) {
    return {name, reinterpret_cast<const void*>(&tgemm::bf16_ws::bf16_ws_kernel<Cfg>),
            Cfg::smem_bytes, [balance](const problem& p) {
                return tgemm::tensor::prepare_ws<Cfg>(view(p), p.stream, balance);
            }};
}

candidate cublas_candidate() {
    candidate c{"cublas_bf16", nullptr, 0, nullptr};
    c.prepare = [](const problem& p) -> std::function<void()> {
        return [&p]() {
            BENCH_CHECK(cublasGemmEx(p.blas, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &p.alpha, p.b,
                                     CUDA_R_16BF, p.n, p.a, CUDA_R_16BF, p.k, &p.beta, p.c,
                                     CUDA_R_16BF, p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        };
    };
    return c;
}

namespace ws = tgemm::bf16_ws;
using ws::epilogue;
using ws::raster;

std::vector<candidate> sweep() {
    using namespace tgemm;
    std::vector<candidate> v;
    v.push_back(ws_candidate<tensor_rungs::cluster>("rung17_every_resident_cluster", false));
    v.push_back(ws_candidate<tensor_rungs::cluster>("rung17_balanced_grid"));
    v.push_back(ws_candidate<tensor_rungs::ws>("rung16_every_resident_cluster", false));
    v.push_back(ws_candidate<tensor_rungs::ws>("rung16_balanced_grid"));
    return v;
}

double median_ms(const problem& p, const std::function<void()>& launch, int runs) {
    cudaEvent_t a, b;
    BENCH_CHECK(cudaEventCreate(&a));
    BENCH_CHECK(cudaEventCreate(&b));
    std::vector<float> ms;
    // TUNE_NOFLUSH=1 keeps L2 warm between launches; TUNE_SYNC=1 waits for the preparation
    // before starting the clock (experiments; the tool flushes and does not wait).
    const bool flush = !std::getenv("TUNE_NOFLUSH");
    const bool sync = std::getenv("TUNE_SYNC") != nullptr;
    for (int i = 0; i < runs; ++i) {
        p.restore();
        if (flush) flush_l2(p);
        if (sync) BENCH_CHECK(cudaStreamSynchronize(p.stream));
        BENCH_CHECK(cudaEventRecord(a, p.stream));
        launch();
        BENCH_CHECK(cudaEventRecord(b, p.stream));
        BENCH_CHECK(cudaEventSynchronize(b));
        float t = 0;
        BENCH_CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    if (std::getenv("TUNE_BATCH")) {  // back-to-back launches, nothing between them
        ms.clear();
        BENCH_CHECK(cudaEventRecord(a, p.stream));
        for (int i = 0; i < runs; ++i) launch();
        BENCH_CHECK(cudaEventRecord(b, p.stream));
        BENCH_CHECK(cudaEventSynchronize(b));
        float t = 0;
        BENCH_CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t / runs);
    }
    BENCH_CHECK(cudaEventDestroy(a));
    BENCH_CHECK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::array<int, 3>> sizes;
        for (int i = 1; i < argc; ++i) {
            int m = 0, n = 0, k = 0;
            if (std::sscanf(argv[i], "%dx%dx%d", &m, &n, &k) != 3)
                throw std::runtime_error(std::string("not MxNxK: ") + argv[i]);
            sizes.push_back({m, n, k});
        }
        if (sizes.empty()) sizes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
        cudaDeviceProp prop{};
        BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
        std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
        cudaStream_t stream;
        BENCH_CHECK(cudaStreamCreate(&stream));
        cublasHandle_t blas;
        BENCH_CHECK(cublasCreate(&blas));
        BENCH_CHECK(cublasSetStream(blas, stream));
        auto cands = sweep();
        // TUNE_ONLY=substring keeps the matching candidates (for Nsight Compute runs).
        if (const char* only = std::getenv("TUNE_ONLY"))
            cands.erase(std::remove_if(cands.begin(), cands.end(),
                                       [&](const candidate& c) {
                                           return c.name.find(only) == std::string::npos;
                                       }),
                        cands.end());
        for (auto& c : cands) {
            if (!c.kernel) continue;
            cudaFuncAttributes fa{};
            BENCH_CHECK(cudaFuncGetAttributes(&fa, c.kernel));
            std::printf("%-34s regs %3d  local %4zu B  smem %6d B\n", c.name.c_str(), fa.numRegs,
                        fa.localSizeBytes, c.smem);
        }
        for (const auto& s : sizes) {
            auto p = make_problem(s[0], s[1], s[2], stream, blas);
            std::printf("\n== %dx%dx%d (alpha %.2f, beta %.2f) ==\n", p.m, p.n, p.k, p.alpha,
                        p.beta);
            int runs = p.flop() > 5e11 ? 10 : 20;
            if (const char* r = std::getenv("TUNE_RUNS")) runs = std::atoi(r);
            auto blas_c = cublas_candidate();
            auto blas_launch = blas_c.prepare(p);
            p.restore();
            blas_launch();
            BENCH_CHECK(cudaStreamSynchronize(stream));
            const auto bv = verify(p);
            const double blas_first = median_ms(p, blas_launch, runs);
            struct row {
                std::string name;
                double ms;
                verdict v;
            };
            std::vector<row> rows;
            for (auto& c : cands) {
                std::function<void()> launch;
                try {
                    launch = c.prepare(p);
                    p.restore();
                    BENCH_CHECK(cudaStreamSynchronize(stream));
                    launch();
                    BENCH_CHECK(cudaGetLastError());
                    BENCH_CHECK(cudaStreamSynchronize(stream));
                } catch (const std::exception& e) {
                    std::printf("%-34s FAILED: %s\n", c.name.c_str(), e.what());
                    rows.push_back({c.name, NAN, {false, INFINITY, -1}});
                    continue;
                }
                const auto v = verify(p);
                const double ms = v.ok ? median_ms(p, launch, runs) : NAN;
                rows.push_back({c.name, ms, v});
                std::printf("  %-34s %s worst %.3g (%ld bad) %8.3f ms %7.1f TFLOP/s\n",
                            c.name.c_str(), v.ok ? "ok " : "BAD", v.worst, v.bad, ms,
                            p.flop() / ms / 1e9);
                std::fflush(stdout);
            }
            const double blas_last = median_ms(p, blas_launch, runs);
            const double blas_ms = 0.5 * (blas_first + blas_last);
            std::printf(
                "cublas_bf16: verify %s worst %.3g; first %.3f ms (%.1f TFLOP/s), last "
                "%.3f ms (%.1f TFLOP/s)\n",
                bv.ok ? "ok" : "BAD", bv.worst, blas_first, p.flop() / blas_first / 1e9, blas_last,
                p.flop() / blas_last / 1e9);
            std::printf("| kernel | ms | TFLOP/s | %% of cuBLAS BF16 | verified (worst/tol) |\n");
            std::printf("|---|--:|--:|--:|---|\n");
            for (const auto& r : rows)
                std::printf("| %s | %.3f | %.1f | %.1f %% | %s %.3g |\n", r.name.c_str(), r.ms,
                            p.flop() / r.ms / 1e9, 100.0 * blas_ms / r.ms, r.v.ok ? "yes" : "NO",
                            r.v.worst);
            BENCH_CHECK(cudaFree(p.a));
            BENCH_CHECK(cudaFree(p.b));
            BENCH_CHECK(cudaFree(p.c0));
            BENCH_CHECK(cudaFree(p.c));
            BENCH_CHECK(cudaFree(p.flush));
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tgemm-tune-bf16: %s\n", e.what());
        return 1;
    }
}
