#pragma once
// One roof of the roofline: the datasheet value and, when the tool's micro-benchmarks measured
// it, the measured value with the clock it ran at. A property of the GPU, so it lives below the
// profile that stores it.
#include <optional>
#include <string>
#include <string_view>

namespace tgemm {

struct roof {
    double theoretical = 0;  // at the GPU's maximum SM clock (gpu_info::sm_clock_mhz)
    std::optional<double> measured;
    std::string unit;         // "FLOP/s", "B/s"
    std::string method;       // how theoretical was derived
    std::string measured_by;  // the benchmark: kernel, working set, repeats
    // The average SM clock while the benchmark ran, and the theoretical value at that clock
    // (for roofs that scale with the SM clock: FP32, tensor, shared memory, L2).
    std::optional<double> clock_mhz;
    std::optional<double> theoretical_at_clock;
    std::string note;  // why a measured value exceeds its theoretical one, or other caveats

    // measured / theoretical at the measured clock when known, else / theoretical.
    [[nodiscard]] std::optional<double> ratio() const;
    [[nodiscard]] double reference() const {
        return theoretical_at_clock ? *theoretical_at_clock : theoretical;
    }
    // The roof the plots and the bound use: measured when there is one.
    [[nodiscard]] double effective() const { return measured ? *measured : theoretical; }
};

// Keys of the roofs (profile::peaks, theoretical_roofs).
namespace roofs {
inline constexpr std::string_view fp32 = "fp32";
inline constexpr std::string_view dram = "dram";
inline constexpr std::string_view dram_copy = "dram_copy";  // read + write, cudaMemcpy D2D
inline constexpr std::string_view l2 = "l2";
inline constexpr std::string_view smem = "smem";
inline constexpr std::string_view tensor_fp16 = "tensor_fp16";
inline constexpr std::string_view tensor_bf16 = "tensor_bf16";
inline constexpr std::string_view tensor_tf32 = "tensor_tf32";
// Second lines of the tensor roofs: the same hardware, measured through mma.sync (the path of
// the sm_80 and mma.sync/WMMA rungs) and through cuBLAS's own best GEMM.
inline constexpr std::string_view tensor_bf16_mma = "tensor_bf16_mma";
inline constexpr std::string_view tensor_fp16_mma = "tensor_fp16_mma";
inline constexpr std::string_view tensor_bf16_cublas = "tensor_bf16_cublas";
inline constexpr std::string_view tensor_fp16_cublas = "tensor_fp16_cublas";
}  // namespace roofs

}  // namespace tgemm
