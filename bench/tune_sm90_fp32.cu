// tgemm-tune: the tuning sweep of rung 12 (sm90_fp32). Instantiates the kernel template of
// kernels/sm90_fp32.cuh for every named configuration below, verifies each against cuBLAS in
// pedantic FP32, times each beside cuBLAS, and prints a table (and writes CSV) of configuration
// → TFLOP/s → % of cuBLAS. See docs/tuning.md.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_check.hpp"
#include "sm90_fp32.cuh"

namespace {

namespace sm90 = tgemm::sm90_fp32;

// ---------------------------------------------------------------------------------------------
// The sweep. Every entry is a named alias from kernels/sm90_fp32.cuh.
using launch_fn = cudaError_t (*)(int, int, int, float, const float*, const float*, float, float*,
                                  cudaStream_t);

struct candidate {
    std::string name;
    launch_fn launch;
    const void* kernel;  // the full-tile kernel: registers, spills, occupancy
    int threads;
    int smem_bytes;
    bool is_rung_config;
};

template <class Cfg>
candidate make_candidate(const char* name) {
    return {name,
            &sm90::launch<Cfg>,
            reinterpret_cast<const void*>(&sm90::sm90_fp32_kernel<Cfg, sm90::path_full>),
            Cfg::threads,
            Cfg::smem_bytes,
            std::is_same_v<Cfg, sm90::rung_config>};
}
#define TGEMM_TUNE_CANDIDATE(alias) make_candidate<sm90::alias>(#alias)

std::vector<candidate> sweep() {
    return {
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s3),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s4),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s3_p4),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s4_p4),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k64_w32x128_t8x16_s2),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k64_w32x128_t8x16_s2_p4),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w64x64_t16x8_s3),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k16_w32x128_t8x16_s3),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k16_w64x64_t8x16_s3),
        TGEMM_TUNE_CANDIDATE(cfg_128x128_k32_w32x128_t8x16_s3),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s3_p1),
        TGEMM_TUNE_CANDIDATE(cfg_128x256_k32_w32x128_t8x16_s3_p2c16),
    };
}

// ---------------------------------------------------------------------------------------------

struct gemm_shape {
    int m = 0, n = 0, k = 0;
    [[nodiscard]] std::string label() const {
        if (m == n && n == k) return std::to_string(m) + "^3";
        return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    }
};

gemm_shape parse_shape(const std::string& text) {
    std::vector<long> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto x = text.find_first_of("xX", start);
        const std::string piece = text.substr(start, x == std::string::npos ? x : x - start);
        char* end = nullptr;
        const long v = std::strtol(piece.c_str(), &end, 10);
        if (piece.empty() || *end != '\0' || v <= 0 || v > (1L << 30))
            throw std::runtime_error("bad size '" + text + "': want N or MxNxK, each 1..2^30");
        parts.push_back(v);
        if (x == std::string::npos) break;
        start = x + 1;
    }
    if (parts.size() == 1) return {int(parts[0]), int(parts[0]), int(parts[0])};
    if (parts.size() == 3) return {int(parts[0]), int(parts[1]), int(parts[2])};
    throw std::runtime_error("bad size '" + text + "': want N or MxNxK");
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const auto p = text.find(sep, start);
        out.push_back(text.substr(start, p == std::string::npos ? p : p - start));
        if (p == std::string::npos) return out;
        start = p + 1;
    }
}

struct options {
    std::vector<gemm_shape> sizes{{4096, 4096, 4096}};
    std::vector<std::string> only;  // substrings of configuration names; empty = all
    int warmup = 5;
    int runs = 30;
    float alpha = 0.5f;
    float beta = 1.0f;
    std::string csv = "tune_sm90_fp32.csv";
    bool list = false;
};

void usage(std::FILE* to) {
    std::fprintf(to,
                 "usage: tgemm-tune [--sizes LIST] [--configs LIST] [--runs N] [--warmup N]\n"
                 "                  [--alpha X] [--beta X] [--csv FILE] [--list]\n"
                 "Times every named configuration of the sm90_fp32 kernel beside cuBLAS\n"
                 "(pedantic FP32) after verifying it.\n"
                 "  --sizes LIST    comma-separated N or MxNxK (default 4096)\n"
                 "  --configs LIST  comma-separated substrings of configuration names\n"
                 "  --runs N        timed launches per configuration and size, >= 20 (default 30)\n"
                 "  --warmup N      untimed launches first (default 5)\n"
                 "  --alpha X, --beta X   C = alpha*A*B + beta*C (default 0.5, 1)\n"
                 "  --csv FILE      write the table as CSV (default tune_sm90_fp32.csv)\n"
                 "  --list          print the configuration names and exit\n");
}

options parse_options(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage(stdout);
            std::exit(0);
        } else if (a == "--sizes") {
            o.sizes.clear();
            for (const auto& s : split(value(), ',')) o.sizes.push_back(parse_shape(s));
        } else if (a == "--configs") {
            o.only = split(value(), ',');
        } else if (a == "--runs") {
            o.runs = std::stoi(value());
            if (o.runs < 20) throw std::runtime_error("--runs must be at least 20");
        } else if (a == "--warmup") {
            o.warmup = std::max(0, std::stoi(value()));
        } else if (a == "--alpha") {
            o.alpha = std::stof(value());
        } else if (a == "--beta") {
            o.beta = std::stof(value());
        } else if (a == "--csv") {
            o.csv = value();
        } else if (a == "--list") {
            o.list = true;
        } else {
            throw std::runtime_error("unknown option '" + a + "' (try --help)");
        }
    }
    return o;
}

// ---------------------------------------------------------------------------------------------
class device_floats {
  public:
    explicit device_floats(std::size_t n) : m_n(n) {
        BENCH_CHECK(cudaMalloc(&m_p, std::max<std::size_t>(n, 1) * sizeof(float)));
    }
    ~device_floats() { cudaFree(m_p); }
    device_floats(const device_floats&) = delete;
    device_floats& operator=(const device_floats&) = delete;
    [[nodiscard]] float* get() const { return m_p; }
    [[nodiscard]] std::size_t bytes() const { return m_n * sizeof(float); }
    void upload(const std::vector<float>& h) const {
        BENCH_CHECK(cudaMemcpy(m_p, h.data(), bytes(), cudaMemcpyHostToDevice));
    }
    [[nodiscard]] std::vector<float> download() const {
        std::vector<float> h(m_n);
        BENCH_CHECK(cudaMemcpy(h.data(), m_p, bytes(), cudaMemcpyDeviceToHost));
        return h;
    }

  private:
    float* m_p = nullptr;
    std::size_t m_n;
};

// Row-major C = alpha·A·B + beta·C through column-major cuBLAS: Cᵀ = Bᵀ·Aᵀ.
void cublas_gemm(cublasHandle_t h, const gemm_shape& s, float alpha, const float* a, const float* b,
                 float beta, float* c) {
    BENCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &alpha, b, s.n, a, s.k,
                            &beta, c, s.n));
}

// One problem: inputs, the cuBLAS reference and a per-element tolerance.
struct problem {
    gemm_shape size;
    device_floats a, b, c0, c;
    std::vector<float> reference;
    std::vector<float> tolerance;

    problem(const gemm_shape& s, float alpha, float beta, cublasHandle_t h, cudaStream_t stream)
        : size(s),
          a(std::size_t(s.m) * s.k),
          b(std::size_t(s.k) * s.n),
          c0(std::size_t(s.m) * s.n),
          c(std::size_t(s.m) * s.n) {
        std::mt19937_64 rng(20261122);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        const auto fill = [&](std::size_t n) {
            std::vector<float> v(n);
            for (auto& x : v) x = u(rng);
            return v;
        };
        const auto ha = fill(std::size_t(s.m) * s.k);
        const auto hb = fill(std::size_t(s.k) * s.n);
        const auto hc = fill(std::size_t(s.m) * s.n);
        c0.upload(hc);
        // The tolerance scales with Σ|a||b| per element: compute it with cuBLAS on |A|, |B|.
        std::vector<float> abs_a(ha.size()), abs_b(hb.size());
        std::transform(ha.begin(), ha.end(), abs_a.begin(), [](float x) { return std::fabs(x); });
        std::transform(hb.begin(), hb.end(), abs_b.begin(), [](float x) { return std::fabs(x); });
        a.upload(abs_a);
        b.upload(abs_b);
        BENCH_CHECK(cudaMemset(c.get(), 0, c.bytes()));
        cublas_gemm(h, s, 1.0f, a.get(), b.get(), 0.0f, c.get());
        BENCH_CHECK(cudaStreamSynchronize(stream));
        const auto sums = c.download();
        // Rounding errors of random sign grow like √K: 8·√(K+2)·2⁻²⁴ of the magnitude sum is
        // far above honest differences and far below one lost or doubled product.
        const double factor = 8.0 * std::sqrt(double(s.k) + 2.0) * std::ldexp(1.0, -24);
        tolerance.resize(sums.size());
        for (std::size_t i = 0; i < sums.size(); ++i)
            tolerance[i] = float(
                factor * (std::fabs(alpha) * sums[i] + std::fabs(beta) * std::fabs(hc[i])) + 1e-30);
        a.upload(ha);
        b.upload(hb);
        restore_c();
        cublas_gemm(h, s, alpha, a.get(), b.get(), beta, c.get());
        BENCH_CHECK(cudaStreamSynchronize(stream));
        reference = c.download();
    }
    void restore_c() const {
        BENCH_CHECK(cudaMemcpy(c.get(), c0.get(), c0.bytes(), cudaMemcpyDeviceToDevice));
    }
    // Largest |got - reference| / tolerance; above 1 fails.
    [[nodiscard]] double worst_ratio() const {
        const auto got = c.download();
        double worst = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double d = std::fabs(double(got[i]) - reference[i]) / tolerance[i];
            worst = std::isnan(got[i]) ? INFINITY : std::max(worst, d);
        }
        return worst;
    }
};

// Milliseconds since the epoch.
double wall_ms() {
    return double(std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

struct timing {
    double median_ms = 0;
    double min_ms = 0;
};

// Each launch between its own pair of events, back to back; L2 is not flushed in between.
template <class Launch>
timing time_launches(Launch&& launch_once, int warmup, int runs, cudaStream_t stream) {
    for (int i = 0; i < warmup; ++i) launch_once();
    std::vector<cudaEvent_t> start(runs), stop(runs);
    for (int i = 0; i < runs; ++i) {
        BENCH_CHECK(cudaEventCreate(&start[i]));
        BENCH_CHECK(cudaEventCreate(&stop[i]));
    }
    for (int i = 0; i < runs; ++i) {
        BENCH_CHECK(cudaEventRecord(start[i], stream));
        launch_once();
        BENCH_CHECK(cudaEventRecord(stop[i], stream));
    }
    BENCH_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms(runs);
    for (int i = 0; i < runs; ++i) {
        float t = 0;
        BENCH_CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
        ms[i] = t;
        cudaEventDestroy(start[i]);
        cudaEventDestroy(stop[i]);
    }
    std::sort(ms.begin(), ms.end());
    const double median = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
    return {median, ms.front()};
}

struct row {
    std::string size, config;
    bool is_rung_config = false;
    int threads = 0, registers = 0, local_bytes = 0, smem_bytes = 0, ctas_per_sm = 0;
    bool verified = false;
    double worst_ratio = 0;
    timing t;
    double tflops = 0, pct_cublas = 0;
    std::string note;
};

void print_row(const row& r) {
    std::printf("%-10s %-36s %1s %4d %4d %6d %7.1f %4d  %-4s %9.3f %9.3f %8.2f %7.1f%%  %s\n",
                r.size.c_str(), r.config.c_str(), r.is_rung_config ? "*" : "", r.threads,
                r.registers, r.local_bytes, r.smem_bytes / 1024.0, r.ctas_per_sm,
                r.verified ? "ok" : "FAIL", r.t.median_ms, r.t.min_ms, r.tflops, r.pct_cublas,
                r.note.c_str());
    std::fflush(stdout);
}

int run(const options& o) {
    const auto all = sweep();
    auto candidates = all;
    if (!o.only.empty())
        std::erase_if(candidates, [&](const candidate& c) {
            // A full configuration name selects that one only; anything else is a substring.
            const auto exact = [&](const std::string& s) {
                return std::any_of(all.begin(), all.end(),
                                   [&](const candidate& d) { return d.name == s; });
            };
            return std::none_of(o.only.begin(), o.only.end(), [&](const std::string& s) {
                return exact(s) ? c.name == s : c.name.find(s) != std::string::npos;
            });
        });
    if (o.list) {
        for (const auto& c : all)
            std::printf("%s%s\n", c.name.c_str(), c.is_rung_config ? "  (rung_config)" : "");
        return 0;
    }
    if (candidates.empty()) throw std::runtime_error("--configs matched no configuration");

    int device = 0;
    cudaDeviceProp prop{};
    BENCH_CHECK(cudaGetDevice(&device));
    BENCH_CHECK(cudaGetDeviceProperties(&prop, device));
    int driver = 0, runtime = 0;
    BENCH_CHECK(cudaDriverGetVersion(&driver));
    BENCH_CHECK(cudaRuntimeGetVersion(&runtime));
    std::printf("# %s, %d SMs, cc %d.%d, CUDA driver %d.%d, runtime %d.%d\n", prop.name,
                prop.multiProcessorCount, prop.major, prop.minor, driver / 1000, driver % 1000 / 10,
                runtime / 1000, runtime % 1000 / 10);
    std::printf(
        "# alpha = %g, beta = %g; %d warm-up launches, then the median of %d launches, "
        "each timed by its own event pair; L2 not flushed between launches\n",
        o.alpha, o.beta, o.warmup, o.runs);
    std::printf(
        "# TFLOP/s = 2MNK / median time; %% cuBLAS = cuBLAS median / config median; "
        "* = the rung's rung_config\n");
    std::printf("%-10s %-36s %1s %4s %4s %6s %7s %4s  %-4s %9s %9s %8s %8s\n", "size", "config", "",
                "thr", "regs", "spillB", "smemKB", "CTA", "ver", "median_ms", "min_ms", "TFLOP/s",
                "%cuBLAS");

    cudaStream_t stream = nullptr;
    BENCH_CHECK(cudaStreamCreate(&stream));
    cublasHandle_t handle = nullptr;
    BENCH_CHECK(cublasCreate(&handle));
    BENCH_CHECK(cublasSetStream(handle, stream));
    BENCH_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));

    std::vector<row> rows;
    bool all_verified = true;
    for (const auto& s : o.sizes) {
        std::fprintf(stderr, "preparing %s ...\n", s.label().c_str());
        const problem p(s, o.alpha, o.beta, handle, stream);
        const double flop = 2.0 * s.m * s.n * s.k;

        row ref;
        ref.size = s.label();
        ref.config = "cublas_pedantic_fp32";
        ref.verified = true;
        ref.t = time_launches(
            [&] { cublas_gemm(handle, s, o.alpha, p.a.get(), p.b.get(), o.beta, p.c.get()); },
            o.warmup, o.runs, stream);
        ref.tflops = flop / (ref.t.median_ms * 1e-3) / 1e12;
        ref.pct_cublas = 100.0;
        print_row(ref);
        rows.push_back(ref);

        for (const auto& c : candidates) {
            row r;
            r.size = s.label();
            r.config = c.name;
            r.is_rung_config = c.is_rung_config;
            r.threads = c.threads;
            r.smem_bytes = c.smem_bytes;
            cudaFuncAttributes attr{};
            BENCH_CHECK(cudaFuncGetAttributes(&attr, c.kernel));
            r.registers = attr.numRegs;
            r.local_bytes = int(attr.localSizeBytes);
            const auto launch_once = [&] {
                BENCH_CHECK(c.launch(s.m, s.n, s.k, o.alpha, p.a.get(), p.b.get(), o.beta,
                                     p.c.get(), stream));
            };
            p.restore_c();
            launch_once();
            BENCH_CHECK(cudaStreamSynchronize(stream));
            r.worst_ratio = p.worst_ratio();
            r.verified = r.worst_ratio <= 1.0;
            BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.ctas_per_sm, c.kernel,
                                                                      c.threads, c.smem_bytes));
            if (!r.verified) {
                all_verified = false;
                char buf[96];
                std::snprintf(buf, sizeof buf, "differs from cuBLAS: worst error %.3g x tolerance",
                              r.worst_ratio);
                r.note = buf;
            } else {
                const auto t0 = wall_ms();
                r.t = time_launches(launch_once, o.warmup, o.runs, stream);
                // On stderr, to line up with clock and power samples taken beside the run.
                std::fprintf(stderr, "timed %s %s from %.0f to %.0f ms (wall clock)\n",
                             r.size.c_str(), r.config.c_str(), t0, wall_ms());
                r.tflops = flop / (r.t.median_ms * 1e-3) / 1e12;
                r.pct_cublas = 100.0 * ref.t.median_ms / r.t.median_ms;
            }
            print_row(r);
            rows.push_back(r);
        }
    }
    cublasDestroy(handle);
    cudaStreamDestroy(stream);

    std::ofstream csv(o.csv);
    if (!csv) throw std::runtime_error("cannot write " + o.csv);
    csv << "size,config,rung_config,threads,registers,local_bytes,smem_bytes,ctas_per_sm,"
           "verified,worst_error_over_tolerance,median_ms,min_ms,tflops,pct_cublas\n";
    for (const auto& r : rows)
        csv << r.size << ',' << r.config << ',' << (r.is_rung_config ? 1 : 0) << ',' << r.threads
            << ',' << r.registers << ',' << r.local_bytes << ',' << r.smem_bytes << ','
            << r.ctas_per_sm << ',' << (r.verified ? 1 : 0) << ',' << r.worst_ratio << ','
            << r.t.median_ms << ',' << r.t.min_ms << ',' << r.tflops << ',' << r.pct_cublas << '\n';
    std::fprintf(stderr, "wrote %s\n", o.csv.c_str());
    return all_verified ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(parse_options(argc, argv));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tgemm-tune: %s\n", e.what());
        return 1;
    }
}
