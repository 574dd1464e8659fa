#include "gpu/spec.hpp"

#include <fmt/format.h>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

double fp32_peak_flops(int sm_count, int lanes, double sm_clock_mhz) {
    // One FMA per lane per clock counts as 2 FLOPs.
    return static_cast<double>(sm_count) * lanes * 2.0 * sm_clock_mhz * 1e6;
}

double dram_peak_bytes_per_s(int bus_width_bits, double mem_clock_mhz, int transfers_per_clock) {
    return bus_width_bits / 8.0 * mem_clock_mhz * 1e6 * transfers_per_clock;
}

peak_rates derive_peaks(const gpu_spec& s) {
    peak_rates p;
    p.fp32_flops = fp32_peak_flops(s.sm_count, s.fp32_lanes_per_sm, s.sm_clock_mhz);
    p.dram_bytes_per_s =
        dram_peak_bytes_per_s(s.bus_width_bits, s.mem_clock_mhz, s.mem_transfers_per_clock);
    p.tensor_fp16_flops = s.sm_count * s.tensor_fp16_flop_per_clk_sm * s.sm_clock_mhz * 1e6;
    p.tensor_tf32_flops = s.sm_count * s.tensor_tf32_flop_per_clk_sm * s.sm_clock_mhz * 1e6;
    return p;
}

namespace {

std::string limits_source(std::string_view cc) {
    return std::string(sm_limits_source) + "; compute capability " + std::string(cc);
}

// `field` of the GPU with this key, or else of every known GPU of compute capability `cc` where
// they all agree; 0 when neither says.
int known_of(std::string_view key, std::string_view cc, int gpu_spec::*field) {
    const auto want = lower(key);
    for (const auto& s : gpu_specs())
        if (s.key == want) return s.*field;
    std::optional<int> found;
    for (const auto& s : gpu_specs()) {
        if (fmt::format("{}.{}", s.cc_major, s.cc_minor) != cc) continue;
        if (found && *found != s.*field) return 0;
        found = s.*field;
    }
    return found.value_or(0);
}

}  // namespace

const std::vector<gpu_spec>& gpu_specs() {
    // Tensor FLOP/clk/SM are the dense datasheet rates divided by SMs × the quoted clock:
    // A100 312 TFLOP/s FP16 at 1410 MHz, H100 SXM 989.4 at 1830 MHz, RTX 5070 Ti 87.9 at 2452.
    static const std::vector<gpu_spec> specs = {
        {.key = "a100",
         .name = "NVIDIA A100 SXM4 80GB",
         .arch = "Ampere",
         .cc_major = 8,
         .cc_minor = 0,
         .sm_count = 108,
         .fp32_lanes_per_sm = 64,
         .sm_clock_mhz = 1410,
         .bus_width_bits = 5120,
         // 1593 MHz DDR = 3186 MT/s: the rate behind the 2,039 GB/s that seed 002 quotes.
         .mem_clock_mhz = 1593,
         .l2_bytes = 40LL << 20,
         // NVIDIA A100 whitepaper: "the L2 cache is divided into two partitions".
         .l2_partitions = 2,
         .limits = sm_limits_cc80,
         .limits_source = limits_source("8.0"),
         .tensor_fp16_flop_per_clk_sm = 2048,
         .tensor_tf32_flop_per_clk_sm = 1024,
         .l2_bytes_per_clk = 5120,
         .l2_clock_mhz = 1410,
         .l2_source = "NVIDIA A100 whitepaper: L2 read bandwidth 5120 B/clk; the clock is "
                      "taken as the 1410 MHz boost clock",
         .source = "seed 002 (108 SMs x 64 cores, 1.41 GHz, 5120-bit, 2,039 GB/s); NVIDIA A100 "
                   "datasheet (80GB SXM: 2,039 GB/s, 40 MB L2, 312 TFLOP/s FP16 dense)"},
        {.key = "h100",
         .name = "NVIDIA H100 SXM5 80GB",
         .arch = "Hopper",
         .cc_major = 9,
         .cc_minor = 0,
         .sm_count = 132,
         .fp32_lanes_per_sm = 128,
         .sm_clock_mhz = 1980,
         .bus_width_bits = 5120,
         .mem_clock_mhz = 2619,
         .l2_bytes = 50LL << 20,
         // NVIDIA H100 whitepaper: the L2 is split in two partitions like the A100's; the
         // measured L2 writes (1.5 per stored sector, docs/models/l2.md) show the second one.
         .l2_partitions = 2,
         // Measured on the H100 machine: five SMs of one domain reading a sector together get
         // two responses, eight two, nine three (tests/collect/request_coalescer_test.cpp,
         // docs/validation/h100-request-coalescer.log).
         .l2_coalescer_fanout = 4,
         // 1,692,928 B (within 64 B) in each of the 16 idle windows after the tool's preparation
         // logged on H100 boards, driver 580.159.04, 50 us and 20 ms alike: 2026-11-25
         // (h100-collector-known-traffic.log) and two sessions of 2026-11-27
         // (h100-cupti-ranges.log, h100-cupti-ranges-2.log).
         .collector_window_fabric_bytes = 1692928,
         .limits = sm_limits_cc90,
         .limits_source = limits_source("9.0"),
         .tensor_fp16_flop_per_clk_sm = 4096,
         .tensor_tf32_flop_per_clk_sm = 2048,
         .l2_bytes_per_clk = 7680,
         .l2_clock_mhz = 1709,
         .l2_source = "Nsight Compute on the H100 machine: lts__t_bytes.sum.peak_sustained = "
                      "7680 B/cycle at lts__cycles_elapsed.avg.per_second = 1709 MHz under load "
                      "(docs/peaks.md); NVIDIA publishes no L2 bandwidth for Hopper",
         .source = "device attributes read on the H100 machine (docs/anchors.md): 132 SMs, "
                   "1980 MHz, 2619 MHz x 5120-bit, 50 MB L2; NVIDIA H100 whitepaper (128 FP32 "
                   "lanes/SM, 989.4 TFLOP/s BF16 dense at 1830 MHz)"},
        {.key = "h200",
         .name = "NVIDIA H200 SXM 141GB",
         .arch = "Hopper",
         .cc_major = 9,
         .cc_minor = 0,
         .sm_count = 132,
         .fp32_lanes_per_sm = 128,
         .sm_clock_mhz = 1980,
         .bus_width_bits = 6016,
         .mem_clock_mhz = 3201,
         .l2_bytes = 60LL << 20,
         .l2_partitions = 2,  // GH100 like the H100; 1.5 writes per stored sector measured too
         .l2_coalescer_fanout = 4,  // measured as on the H100 (h200-request-coalescer.log)
         // 3,328 B in each of the 10 idle windows after the tool's preparation logged
         // (h200-collector-known-traffic.log, 2026-11-25; h200-cupti-ranges*.log, 2026-11-27).
         .collector_window_fabric_bytes = 3328,
         .limits = sm_limits_cc90,
         .limits_source = limits_source("9.0"),
         .tensor_fp16_flop_per_clk_sm = 4096,
         .tensor_tf32_flop_per_clk_sm = 2048,
         .l2_bytes_per_clk = 9024,
         .l2_clock_mhz = 1709,
         .l2_source = "Nsight Compute on the H200 machine: lts__t_bytes.sum.peak_sustained = "
                      "9024 B/cycle at lts__cycles_elapsed.avg.per_second = 1709 MHz under load "
                      "(docs/peaks.md); NVIDIA publishes no L2 bandwidth for Hopper",
         .source = "device attributes read on the H200 machine (docs/anchors.md): 132 SMs, "
                   "1980 MHz, 3201 MHz x 6016-bit as CUDA reports it, 60 MB L2"},
        {.key = "rtx5070ti",
         .name = "NVIDIA GeForce RTX 5070 Ti",
         .arch = "Blackwell",
         .cc_major = 12,
         .cc_minor = 0,
         .sm_count = 70,
         .fp32_lanes_per_sm = 128,
         .sm_clock_mhz = 2452,
         .bus_width_bits = 256,
         // GDDR7 at 28 Gbps per pin, written as 14000 MHz double data rate.
         .mem_clock_mhz = 14000,
         .l2_bytes = 48LL << 20,
         // .l2_partitions left 0: how its L2 is split is neither published nor measured here.
         .limits = sm_limits_cc120,
         .limits_source = limits_source("12.0"),
         .tensor_fp16_flop_per_clk_sm = 512,
         .tensor_tf32_flop_per_clk_sm = 256,
         .l2_source = "none published",
         .source = "seed 003 (43.9 TFLOP/s FP32, 87.9 TFLOP/s tensor, 896 GB/s); NVIDIA RTX "
                   "Blackwell architecture whitepaper (70 SMs, 2452 MHz boost, 256-bit 28 Gbps)"},
    };
    return specs;
}

std::vector<std::string> gpu_keys() {
    std::vector<std::string> keys;
    for (const auto& s : gpu_specs()) keys.push_back(s.key);
    return keys;
}

const gpu_spec& find_gpu(std::string_view key) {
    const auto want = lower(key);
    for (const auto& s : gpu_specs())
        if (s.key == want) return s;
    const auto keys = gpu_keys();
    throw error(error_kind::usage, unknown_name_message("GPU", key, keys));
}

int l2_partitions_of(std::string_view key, std::string_view cc) {
    return known_of(key, cc, &gpu_spec::l2_partitions);
}

int l2_coalescer_fanout_of(std::string_view key, std::string_view cc) {
    return known_of(key, cc, &gpu_spec::l2_coalescer_fanout);
}

std::int64_t collector_window_fabric_bytes_of(std::string_view key) {
    const auto want = lower(key);
    for (const auto& s : gpu_specs())
        if (s.key == want) return s.collector_window_fabric_bytes;
    return 0;
}

std::optional<std::string> key_for_device_name(std::string_view device_name) {
    const auto n = lower(device_name);
    if (n.find("h100") != std::string::npos) return "h100";
    if (n.find("h200") != std::string::npos) return "h200";
    if (n.find("a100") != std::string::npos) return "a100";
    if (n.find("5070 ti") != std::string::npos) return "rtx5070ti";
    return std::nullopt;
}

}  // namespace tgemm
