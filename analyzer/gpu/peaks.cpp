#include "gpu/peaks.hpp"

#include <fmt/format.h>

namespace tgemm {

gpu_info gpu_info_from_spec(const gpu_spec& s) {
    gpu_info g;
    g.key = s.key;
    g.name = s.name;
    g.cc = fmt::format("{}.{}", s.cc_major, s.cc_minor);
    g.sm_count = s.sm_count;
    g.fp32_lanes_per_sm = s.fp32_lanes_per_sm;
    g.sm_clock_mhz = s.sm_clock_mhz;
    g.mem_clock_mhz = s.mem_clock_mhz;
    g.bus_width_bits = s.bus_width_bits;
    g.l2_bytes = s.l2_bytes;
    g.smem_per_block_optin = static_cast<std::int64_t>(s.smem_per_block_kib) * 1024;
    return g;
}

std::map<std::string, roof, std::less<>> theoretical_roofs(const gpu_info& g) {
    std::map<std::string, roof, std::less<>> r;
    r[std::string(roofs::fp32)] = {
        .theoretical = fp32_peak_flops(g.sm_count, g.fp32_lanes_per_sm, g.sm_clock_mhz),
        .measured = std::nullopt,
        .unit = "FLOP/s",
        .method = fmt::format("{} SMs x {} FP32 lanes x 2 FLOP/FMA x {:.0f} MHz", g.sm_count,
                              g.fp32_lanes_per_sm, g.sm_clock_mhz)};
    r[std::string(roofs::dram)] = {
        .theoretical = dram_peak_bytes_per_s(g.bus_width_bits, g.mem_clock_mhz, 2),
        .measured = std::nullopt,
        .unit = "B/s",
        .method = fmt::format("{}-bit bus / 8 x {:.0f} MHz x 2 transfers/clock", g.bus_width_bits,
                              g.mem_clock_mhz)};
    return r;
}

}  // namespace tgemm
