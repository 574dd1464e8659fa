#include "gpu/peaks.hpp"

#include <fmt/format.h>

namespace tgemm {

namespace {

// Shared memory serves one 128 B wavefront per SM per clock: 32 banks × 4 B (CUDA C++
// Programming Guide, "Shared Memory", compute capability 5.x and later).
constexpr int smem_bytes_per_clk_sm = 32 * 4;

roof make_roof(double theoretical, std::string unit, std::string method) {
    roof r;
    r.theoretical = theoretical;
    r.unit = std::move(unit);
    r.method = std::move(method);
    return r;
}

const gpu_spec* spec_for(const gpu_info& g) {
    for (const auto& s : gpu_specs())
        if (s.key == g.key) return &s;
    return nullptr;
}

}  // namespace

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
    g.limits = s.limits;
    g.limits_source = s.limits_source;
    return g;
}

std::map<std::string, roof, std::less<>> theoretical_roofs(const gpu_info& g) {
    std::map<std::string, roof, std::less<>> r;
    const double hz = g.sm_clock_mhz * 1e6;
    r[std::string(roofs::fp32)] =
        make_roof(fp32_peak_flops(g.sm_count, g.fp32_lanes_per_sm, g.sm_clock_mhz), "FLOP/s",
                  fmt::format("{} SMs x {} FP32 lanes x 2 FLOP/FMA x {:.0f} MHz", g.sm_count,
                              g.fp32_lanes_per_sm, g.sm_clock_mhz));
    const double dram = dram_peak_bytes_per_s(g.bus_width_bits, g.mem_clock_mhz, 2);
    const auto dram_method = fmt::format("{}-bit bus / 8 x {:.0f} MHz x 2 transfers/clock",
                                         g.bus_width_bits, g.mem_clock_mhz);
    r[std::string(roofs::dram)] = make_roof(dram, "B/s", dram_method);
    r[std::string(roofs::dram_copy)] =
        make_roof(dram, "B/s", dram_method + " (a copy counts its reads and its writes)");
    r[std::string(roofs::smem)] = make_roof(
        double(g.sm_count) * smem_bytes_per_clk_sm * hz, "B/s",
        fmt::format("{} SMs x 32 banks x 4 B/clock x {:.0f} MHz", g.sm_count, g.sm_clock_mhz));
    const auto* spec = spec_for(g);
    if (spec && spec->l2_bytes_per_clk > 0)
        r[std::string(roofs::l2)] =
            make_roof(spec->l2_bytes_per_clk * spec->l2_clock_mhz * 1e6, "B/s",
                      fmt::format("{:.0f} B/clock x {:.0f} MHz L2 clock ({})",
                                  spec->l2_bytes_per_clk, spec->l2_clock_mhz, spec->l2_source));
    if (spec && spec->tensor_fp16_flop_per_clk_sm > 0) {
        const double t = g.sm_count * spec->tensor_fp16_flop_per_clk_sm * hz;
        const auto m = fmt::format("{} SMs x {:.0f} dense FLOP/clock/SM x {:.0f} MHz", g.sm_count,
                                   spec->tensor_fp16_flop_per_clk_sm, g.sm_clock_mhz);
        for (const auto key :
             {roofs::tensor_fp16, roofs::tensor_bf16, roofs::tensor_fp16_mma,
              roofs::tensor_bf16_mma, roofs::tensor_fp16_cublas, roofs::tensor_bf16_cublas})
            r[std::string(key)] = make_roof(t, "FLOP/s", m);
    }
    return r;
}

}  // namespace tgemm
