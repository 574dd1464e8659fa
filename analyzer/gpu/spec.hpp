#pragma once
// The GPU specification database: datasheet figures, and peaks derived from them the way
// seed 002 does (cores × clock × 2 for FP32; bus bytes × transfer rate for DRAM).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/sm_limits.hpp"

namespace tgemm {

struct gpu_spec {
    std::string key;   // "h100": what --gpu takes
    std::string name;  // "NVIDIA H100 SXM5 80GB"
    std::string arch;  // "Hopper"
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int fp32_lanes_per_sm = 0;  // FP32 FMA lanes ("CUDA cores") per SM
    double sm_clock_mhz = 0;    // the clock the peak is quoted at
    int bus_width_bits = 0;
    double mem_clock_mhz = 0;         // memory clock as CUDA reports it
    int mem_transfers_per_clock = 2;  // HBM/GDDR as CUDA reports them: double data rate
    std::int64_t l2_bytes = 0;
    // Partitions the L2 is split into, each attached to part of the SMs, a line homed in one of
    // them (the L2 traffic model, docs/models/l2.md). 0: not known, and no L2 traffic is modelled.
    int l2_partitions = 0;
    // Requests for one sector, from SMs of one coalescing domain, that one response of the L2
    // request coalescer serves at most (the L2 totals' low end, docs/models/l2.md "The request
    // coalescer"). 0: not known, and the low end lets it merge all requests but one per sector.
    int l2_coalescer_fanout = 0;
    // L2 fabric bytes the collector's counted window holds with no kernel traffic in it (a 50 us
    // and a 20 ms spin count the same): the profiler's own, counted in every measurement the tool
    // makes on this GPU and not by Nsight Compute. Measured by Collector.L2PartitionsOnKnownTraffic
    // (docs/validation/<gpu>-collector-known-traffic.log); 0 where not measured.
    std::int64_t collector_window_fabric_bytes = 0;
    int smem_banks = 32;
    // Threads, CTAs, registers and shared memory one SM holds (the occupancy calculation), and
    // where they come from.
    sm_limits limits;
    std::string limits_source;
    // Dense tensor FLOP per clock per SM (FP32 accumulate).
    double tensor_fp16_flop_per_clk_sm = 0;
    double tensor_tf32_flop_per_clk_sm = 0;
    // L2 bandwidth: bytes per L2 clock and that clock, where a figure is known (0: none; the L2
    // roof is then left out), and where it comes from.
    double l2_bytes_per_clk = 0;
    double l2_clock_mhz = 0;
    std::string l2_source;
    std::string source;  // where the figures come from
};

// Peaks derived from spec figures. All rates in units/second.
struct peak_rates {
    double fp32_flops = 0;
    double dram_bytes_per_s = 0;
    double tensor_fp16_flops = 0;
    double tensor_tf32_flops = 0;
    [[nodiscard]] double ridge() const { return fp32_flops / dram_bytes_per_s; }
};

[[nodiscard]] double fp32_peak_flops(int sm_count, int lanes, double sm_clock_mhz);
[[nodiscard]] double dram_peak_bytes_per_s(int bus_width_bits, double mem_clock_mhz,
                                           int transfers_per_clock);
[[nodiscard]] peak_rates derive_peaks(const gpu_spec& spec);

[[nodiscard]] const std::vector<gpu_spec>& gpu_specs();
[[nodiscard]] std::vector<std::string> gpu_keys();
// Throws error_kind::usage naming the closest key.
[[nodiscard]] const gpu_spec& find_gpu(std::string_view key);
// The L2 partitions of the GPU with this key, or else of every known GPU of compute capability
// `cc` ("9.0") where they all agree; 0 when neither says.
[[nodiscard]] int l2_partitions_of(std::string_view key, std::string_view cc);
// The same for the L2 request coalescer's fan-out (gpu_spec::l2_coalescer_fanout).
[[nodiscard]] int l2_coalescer_fanout_of(std::string_view key, std::string_view cc);
// gpu_spec::collector_window_fabric_bytes of the GPU with this key (a measurement of that GPU
// with its driver, so no other GPU's); 0 when unknown.
[[nodiscard]] std::int64_t collector_window_fabric_bytes_of(std::string_view key);
// Maps a CUDA device name ("NVIDIA H100 80GB HBM3") to a key, if we know the GPU.
[[nodiscard]] std::optional<std::string> key_for_device_name(std::string_view device_name);

}  // namespace tgemm
