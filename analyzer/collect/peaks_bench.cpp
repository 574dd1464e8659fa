#include "collect/peaks_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collect/cuda_check.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/peak_kernels.cuh"
#include "collect/tensor_peak_kernels.cuh"

namespace tgemm {

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t gib = std::size_t{1} << 30;
// The DRAM buffers: 2 GiB each (≥ 8× any current L2), less when memory is short.
constexpr std::size_t dram_bytes_max = 2 * gib;
// Bytes the L2 benchmark moves per launch: enough for a few milliseconds at L2 speed.
constexpr double l2_target_bytes = 32.0 * gib;
constexpr int l2_min_passes = 20;
constexpr int smem_iterations = 8192;
constexpr int fma_iterations = 8192;
constexpr int gemm_n = 8192;
// About 20 ms per launch at the H100's tensor rates.
constexpr int mma_iterations = 80000;
constexpr int wgmma_iterations = 20000;

std::string size_text(double bytes) {
    if (bytes >= gib && static_cast<std::size_t>(bytes) % gib == 0)
        return fmt::format("{} GiB", static_cast<std::size_t>(bytes) / gib);
    return fmt::format("{:.1f} MiB", bytes / mib);
}

std::string runs_text(const peak_bench_policy& p, const char* what) {
    return fmt::format("median of {} {} after {} warm-up", p.runs, what, p.warmup);
}

int grid_for(peak::kernel_id k, const gpu_info& gpu) {
    int per_sm = 0;
    TGEMM_CUDA(peak::resident_blocks_per_sm(k, &per_sm));
    if (per_sm < 1)
        TGEMM_THROW(internal, "a block of {} threads of a peak kernel does not fit on an SM",
                    peak::block_threads(k));
    return per_sm * gpu.sm_count;
}

// The per-block (cycles, ns) pairs the clocked kernels write, gathered over the timed launches.
class clock_log {
  public:
    explicit clock_log(int blocks)
        : m_blocks(blocks), m_device(static_cast<std::size_t>(blocks) * 4) {}  // 2 × u64 each

    [[nodiscard]] unsigned long long* get() const {
        return reinterpret_cast<unsigned long long*>(m_device.get());
    }
    void collect(cudaStream_t stream) {
        std::vector<unsigned long long> host(static_cast<std::size_t>(m_blocks) * 2);
        TGEMM_CUDA(cudaMemcpyAsync(host.data(), get(), host.size() * sizeof(host[0]),
                                   cudaMemcpyDeviceToHost, stream));
        TGEMM_CUDA(cudaStreamSynchronize(stream));
        for (std::size_t b = 0; b < host.size(); b += 2)
            m_samples.push_back({static_cast<double>(host[b]), static_cast<double>(host[b + 1])});
    }
    [[nodiscard]] std::optional<double> mhz() const { return average_clock_mhz(m_samples); }

  private:
    int m_blocks;
    device_buffer m_device;
    std::vector<clock_sample> m_samples;
};

// Times `launch` alone between two events: policy.warmup untimed launches, then policy.runs
// timed ones; `after_each` runs once each timed launch has finished. Milliseconds per launch.
template <class Launch, class After>
std::vector<double> time_launches(cudaStream_t stream, const peak_bench_policy& policy,
                                  Launch&& launch, After&& after_each) {
    for (int i = 0; i < policy.warmup; ++i) launch();
    TGEMM_CUDA(cudaStreamSynchronize(stream));
    cuda_event start, stop;
    std::vector<double> ms;
    for (int i = 0; i < policy.runs; ++i) {
        TGEMM_CUDA(cudaEventRecord(start.get(), stream));
        launch();
        TGEMM_CUDA(cudaEventRecord(stop.get(), stream));
        TGEMM_CUDA(cudaEventSynchronize(stop.get()));
        float t = 0;
        TGEMM_CUDA(cudaEventElapsedTime(&t, start.get(), stop.get()));
        ms.push_back(t);
        after_each();
    }
    return ms;
}

template <class Launch>
std::vector<double> time_launches(cudaStream_t stream, const peak_bench_policy& policy,
                                  Launch&& launch) {
    return time_launches(stream, policy, std::forward<Launch>(launch), [] {});
}

// The milliseconds per launch of a clock-logged peak kernel and the SM clock it ran at.
struct clocked_times {
    std::vector<double> ms;
    std::optional<double> mhz;
};

// time_launches for a kernel that writes a one-word sink and logs its SM clock per block:
// `launch(sink, clocks)` is one launch of `blocks` blocks; the clocks are collected after each
// timed launch.
template <class Launch>
clocked_times time_clocked(cudaStream_t stream, const peak_bench_policy& policy, int blocks,
                           Launch&& launch) {
    device_buffer sink(1);
    clock_log clocks(blocks);
    auto ms = time_launches(
        stream, policy, [&] { launch(sink, clocks); }, [&] { clocks.collect(stream); });
    return {std::move(ms), clocks.mhz()};
}

measured_peak make_peak(std::string_view key, double value, const char* unit,
                        std::string measured_by) {
    measured_peak m;
    m.key = std::string(key);
    m.value = value;
    m.unit = unit;
    m.measured_by = std::move(measured_by);
    return m;
}

// DRAM: one streaming read of a buffer ≫ L2, and a device-to-device copy of it.
void measure_dram(const gpu_info& gpu, cudaStream_t stream, const peak_bench_policy& policy,
                  const peak_progress& progress, std::vector<measured_peak>& out) {
    std::size_t free_bytes = 0, total_bytes = 0;
    TGEMM_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    // Two buffers for the copy, and half the free memory left alone.
    const std::size_t bytes = std::min(dram_bytes_max, free_bytes / 4 / (16 * mib) * (16 * mib));
    if (bytes < 64 * mib)
        TGEMM_THROW(device,
                    "only {:.0f} MiB of GPU memory is free: too little for the DRAM "
                    "benchmarks",
                    free_bytes / double(mib));
    std::string caveat;
    if (gpu.l2_bytes > 0 && bytes < 8 * static_cast<std::size_t>(gpu.l2_bytes))
        caveat = fmt::format("the buffer is only {:.1f}x the L2 (memory was short)",
                             double(bytes) / gpu.l2_bytes);
    device_buffer src(bytes / sizeof(float));
    device_buffer sink(1);
    TGEMM_CUDA(cudaMemsetAsync(src.get(), 0x3c, bytes, stream));

    progress(fmt::format("DRAM read, {}", size_text(bytes)));
    const int blocks = grid_for(peak::kernel_id::dram_read, gpu);
    const auto read_ms = time_launches(stream, policy, [&] {
        peak::launch_dram_read(src.get(), src.size(), blocks,
                               reinterpret_cast<unsigned*>(sink.get()), stream);
    });
    auto read = make_peak(
        roofs::dram, per_second(double(bytes), median(read_ms)), "B/s",
        fmt::format("tgemm_peak_dram_read: {} read once with 16 B streaming loads "
                    "(ld.global.cs), {} loads in flight per thread, {} blocks x {} threads; "
                    "bytes = buffer size; {}",
                    size_text(bytes), peak::dram_unroll, blocks, peak::dram_threads,
                    runs_text(policy, "launches")));
    read.note = caveat;
    out.push_back(std::move(read));

    progress(fmt::format("DRAM copy, {}", size_text(bytes)));
    device_buffer dst(bytes / sizeof(float));
    const auto copy_ms = time_launches(stream, policy, [&] {
        TGEMM_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
    });
    auto copy =
        make_peak(roofs::dram_copy, per_second(2.0 * double(bytes), median(copy_ms)), "B/s",
                  fmt::format("cudaMemcpyAsync device to device of {}; bytes = 2 x {} (every "
                              "byte read once and written once); {}",
                              size_text(bytes), size_text(bytes), runs_text(policy, "copies")));
    copy.note = caveat;
    out.push_back(std::move(copy));
}

// L2: a quarter of the L2 (the H100's L2 is two partitions; a quarter stays resident), swept
// many times inside one launch; the warm-up launches load it.
measured_peak measure_l2(const gpu_info& gpu, cudaStream_t stream, const peak_bench_policy& policy,
                         const peak_progress& progress) {
    if (gpu.l2_bytes <= 0) TGEMM_THROW(device, "the GPU reports no L2 size");
    const std::size_t ws = static_cast<std::size_t>(gpu.l2_bytes) / 4 / 256 * 256;
    const std::size_t count4 = ws / 16;
    const int threads = peak::l2_threads;
    const int blocks = static_cast<int>(std::min<std::size_t>(
        grid_for(peak::kernel_id::l2_read, gpu), count4 / static_cast<std::size_t>(threads)));
    const int passes =
        std::max(l2_min_passes, static_cast<int>(std::ceil(l2_target_bytes / double(ws))));
    progress(fmt::format("L2 read, {} x {}", passes, size_text(double(ws))));
    device_buffer data(ws / sizeof(float));
    device_buffer sink(1);
    TGEMM_CUDA(cudaMemsetAsync(data.get(), 0x3c, ws, stream));
    clock_log clocks(blocks);
    const auto ms = time_launches(
        stream, policy,
        [&] {
            peak::launch_l2_read(data.get(), data.size(), passes, blocks,
                                 reinterpret_cast<unsigned*>(sink.get()), clocks.get(), stream);
        },
        [&] { clocks.collect(stream); });
    auto m = make_peak(
        roofs::l2, per_second(double(passes) * double(ws), median(ms)), "B/s",
        fmt::format("tgemm_peak_l2_read: a {} working set (L2 / 4) read {} times with 16 B "
                    "loads cached in L2 only (ld.global.cg), {} blocks x {} threads; bytes = "
                    "passes x working set; {}",
                    size_text(double(ws)), passes, blocks, threads, runs_text(policy, "launches")));
    m.clock_mhz = clocks.mhz();
    return m;
}

measured_peak measure_smem(const gpu_info& gpu, cudaStream_t stream,
                           const peak_bench_policy& policy, const peak_progress& progress) {
    progress("shared memory read");
    const int blocks = grid_for(peak::kernel_id::smem_read, gpu);
    const auto t =
        time_clocked(stream, policy, blocks, [&](device_buffer& sink, clock_log& clocks) {
            peak::launch_smem_read(smem_iterations, blocks, reinterpret_cast<unsigned*>(sink.get()),
                                   clocks.get(), stream);
        });
    const double loads_per_thread = double(smem_iterations) * peak::smem_unroll;
    const double bytes = double(blocks) * peak::smem_threads * loads_per_thread * 16;
    auto m = make_peak(
        roofs::smem, per_second(bytes, median(t.ms)), "B/s",
        fmt::format("tgemm_peak_smem_read: {:.0f} conflict-free 16 B loads (ld.shared.v4; a "
                    "warp reads 512 contiguous B = 4 wavefronts) per thread, {} blocks x {} "
                    "threads; bytes = threads x loads x 16; {}",
                    loads_per_thread, blocks, peak::smem_threads, runs_text(policy, "launches")));
    m.clock_mhz = t.mhz;
    return m;
}

measured_peak measure_fp32(const gpu_info& gpu, cudaStream_t stream,
                           const peak_bench_policy& policy, const peak_progress& progress) {
    progress("FP32 FMA");
    const int blocks = grid_for(peak::kernel_id::fp32_fma, gpu);
    // a = a·0.9999 + 1e-4 converges to 1: no overflow, no denormals.
    const float mul = 0.9999f, add = 1e-4f;
    const auto t =
        time_clocked(stream, policy, blocks, [&](device_buffer& sink, clock_log& clocks) {
            peak::launch_fp32_fma(mul, add, fma_iterations, blocks, sink.get(), clocks.get(),
                                  stream);
        });
    const double fmas_per_thread = double(fma_iterations) * peak::fma_steps * peak::fma_chains;
    const double flops = 2.0 * blocks * peak::fma_threads * fmas_per_thread;
    auto m = make_peak(
        roofs::fp32, per_second(flops, median(t.ms)), "FLOP/s",
        fmt::format("tgemm_peak_fp32_fma: {} independent FMA chains per thread, {:.0f} FMAs per "
                    "thread, {} blocks x {} threads; FLOPs = 2 x threads x FMAs; {}",
                    peak::fma_chains, fmas_per_thread, blocks, peak::fma_threads,
                    runs_text(policy, "launches")));
    m.clock_mhz = t.mhz;
    return m;
}

// One tensor-core loop kernel: its grid, the FLOPs of one launch, what it is, and its launch.
struct tensor_loop {
    int blocks = 0;
    double flops = 0;
    std::string what;  // measured_by, without the timing
    std::function<void(float*, unsigned long long*)> launch;
};

measured_peak measure_tensor_loop(std::string_view key, const tensor_loop& loop,
                                  cudaStream_t stream, const peak_bench_policy& policy) {
    const auto t = time_clocked(
        stream, policy, loop.blocks,
        [&](device_buffer& sink, clock_log& clocks) { loop.launch(sink.get(), clocks.get()); });
    auto m = make_peak(key, per_second(loop.flops, median(t.ms)), "FLOP/s",
                       fmt::format("{}; {}", loop.what, runs_text(policy, "launches")));
    m.clock_mhz = t.mhz;
    return m;
}

// Tensor cores through mma.sync.m16n8k16: independent accumulator chains per warp, operands in
// registers, as many blocks as an SM holds.
measured_peak measure_mma_loop(std::string_view key, bool bf16, const gpu_info& gpu,
                               cudaStream_t stream, const peak_bench_policy& policy,
                               const peak_progress& progress) {
    const char* type = bf16 ? "BF16" : "FP16";
    progress(fmt::format("tensor {} mma.sync loop", type));
    tensor_loop loop;
    loop.blocks = peak::mma_blocks_per_sm() * gpu.sm_count;
    loop.flops = double(loop.blocks) * (peak::mma_threads / 32) * double(mma_iterations) *
                 peak::mma_chains * peak::mma_flops;
    loop.what = fmt::format(
        "tgemm_peak_mma: mma.sync.m16n8k16 {} with FP32 accumulate, {} independent accumulators "
        "per warp, {} per warp in all, operands in registers, {} blocks x {} threads; FLOPs = "
        "4096 per mma per warp",
        type, peak::mma_chains, mma_iterations * peak::mma_chains, loop.blocks, peak::mma_threads);
    loop.launch = [&](float* sink, unsigned long long* clocks) {
        peak::launch_mma_loop(bf16, mma_iterations, loop.blocks, sink, clocks, stream);
    };
    auto m = measure_tensor_loop(key, loop, stream, policy);
    if (key != roofs::tensor_bf16 && key != roofs::tensor_fp16)
        m.note =
            "mma.sync, the instruction of the mma.sync and WMMA rungs; on Hopper only wgmma "
            "reaches the tensor cores' full rate";
    return m;
}

// Tensor cores through wgmma.m64n256k16: one accumulator chain per warpgroup, three warpgroups
// per SM, operands in shared memory (sm_90a).
measured_peak measure_wgmma_loop(std::string_view key, bool bf16, const gpu_info& gpu,
                                 cudaStream_t stream, const peak_bench_policy& policy,
                                 const peak_progress& progress) {
    const char* type = bf16 ? "BF16" : "FP16";
    progress(fmt::format("tensor {} wgmma loop", type));
    tensor_loop loop;
    loop.blocks = gpu.sm_count;
    loop.flops = double(loop.blocks) * peak::wgmma_warpgroups * double(wgmma_iterations) *
                 peak::wgmma_per_iteration * peak::wgmma_flops;
    loop.what = fmt::format(
        "tgemm_peak_wgmma: wgmma.m64n256k16 {} with FP32 accumulate from shared memory, {} "
        "warpgroups per SM, {} per warpgroup, {} blocks x {} threads; FLOPs = 2 x 64 x 256 x 16 "
        "per wgmma",
        type, peak::wgmma_warpgroups, wgmma_iterations * peak::wgmma_per_iteration, loop.blocks,
        peak::wgmma_threads);
    loop.launch = [&](float* sink, unsigned long long* clocks) {
        peak::launch_wgmma_loop(bf16, wgmma_iterations, loop.blocks, sink, clocks, stream);
    };
    return measure_tensor_loop(key, loop, stream, policy);
}

// Tensor cores: cuBLAS's own best kernel for an 8192³ GEMM, FP32 accumulate.
measured_peak measure_tensor(std::string_view key, bool bf16, cudaStream_t stream,
                             const peak_bench_policy& policy, const peak_progress& progress) {
    const char* in_name = bf16 ? "BF16" : "FP16";
    const char* out_name = bf16 ? "BF16" : "FP32";
    progress(fmt::format("tensor {} GEMM {}^3 (cuBLAS)", in_name, gemm_n));
    const auto elems = static_cast<std::size_t>(gemm_n) * gemm_n;
    device_buffer a(elems / 2), b(elems / 2);  // 16-bit elements, counted in floats
    device_buffer c(bf16 ? elems / 2 : elems);
    peak::fill_half(a.get(), elems, bf16, 0x1234u, stream);
    peak::fill_half(b.get(), elems, bf16, 0xabcdu, stream);
    cublas_handle handle(stream);
    // The handle comes in pedantic FP32 mode (for the SGEMM reference); here the library may
    // pick any tensor-core kernel that keeps the FP32 compute type.
    TGEMM_CUBLAS(cublasSetMathMode(handle.get(), CUBLAS_DEFAULT_MATH));
    const float alpha = 1, beta = 0;
    const auto in_type = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    const auto out_type = bf16 ? CUDA_R_16BF : CUDA_R_32F;
    const auto ms = time_launches(stream, policy, [&] {
        TGEMM_CUBLAS(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, gemm_n, gemm_n, gemm_n,
                                  &alpha, a.get(), in_type, gemm_n, b.get(), in_type, gemm_n, &beta,
                                  c.get(), out_type, gemm_n, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT));
    });
    const double flops = 2.0 * gemm_n * double(gemm_n) * gemm_n;
    auto m = make_peak(
        key, per_second(flops, median(ms)), "FLOP/s",
        fmt::format("cuBLAS GemmEx {0}x{0}x{0}, {1} A and B, {2} C, FP32 accumulate "
                    "(CUBLAS_COMPUTE_32F), inputs uniform in [-0.5, 0.5) (the library's best "
                    "kernel, not an mma loop); FLOPs = 2 x {0}^3; {3}",
                    gemm_n, in_name, out_name, runs_text(policy, "GEMMs")));
    m.note =
        "cuBLAS's own GEMM, a second line beside the tool's loops: the SM clock cannot be read "
        "inside its kernels, so the ratio is against the theoretical at the maximum SM clock, "
        "which a tensor GEMM may not sustain";
    return m;
}

}  // namespace

std::vector<measured_peak> measure_peaks(const local_device& device, const gpu_info& gpu,
                                         const peak_progress& progress,
                                         const peak_bench_policy& policy) {
    if (policy.runs < 1 || policy.warmup < 0)
        TGEMM_THROW(usage, "peak benchmarks need at least one timed launch");
    TGEMM_CUDA(cudaSetDevice(device.index));
    const peak_progress say = progress ? progress : [](const std::string&) {};
    cuda_stream stream;
    std::vector<measured_peak> out;
    measure_dram(gpu, stream.get(), policy, say, out);
    out.push_back(measure_l2(gpu, stream.get(), policy, say));
    out.push_back(measure_smem(gpu, stream.get(), policy, say));
    out.push_back(measure_fp32(gpu, stream.get(), policy, say));
    // The tensor roofs: a wgmma loop where this build and GPU have wgmma (sm_90a), else the
    // mma.sync loop; the mma.sync loop and cuBLAS as second lines.
    const bool wgmma = TGEMM_HAS_SM90A && gpu.cc == "9.0";
    for (const bool bf16 : {true, false}) {
        const auto key = bf16 ? roofs::tensor_bf16 : roofs::tensor_fp16;
        const auto mma_key = bf16 ? roofs::tensor_bf16_mma : roofs::tensor_fp16_mma;
        const auto cublas_key = bf16 ? roofs::tensor_bf16_cublas : roofs::tensor_fp16_cublas;
        if (wgmma) out.push_back(measure_wgmma_loop(key, bf16, gpu, stream.get(), policy, say));
        out.push_back(
            measure_mma_loop(wgmma ? mma_key : key, bf16, gpu, stream.get(), policy, say));
        out.push_back(measure_tensor(cublas_key, bf16, stream.get(), policy, say));
    }
    TGEMM_CUDA(cudaStreamSynchronize(stream.get()));
    return out;
}

}  // namespace tgemm
