#pragma once
// A small hand-made profile for the render tests: an H100, two sizes, cuBLAS + naive +
// smem_tiling, with counters close to the reference anchors and a few crafted gaps (naive at
// 1024³ has no DRAM counters; smem_tiling at 4096³ has 2-way bank conflicts; one skipped row).
// synthetic_tensor_profile adds the BF16 tensor ladder and its cuBLAS references.
#include <array>
#include <cmath>
#include <string_view>

#include "model/levels.hpp"
#include "profile/profile.hpp"

namespace tgemm::test {

inline gpu_info synthetic_h100() {
    gpu_info g;
    g.key = "h100";
    g.name = "NVIDIA H100 80GB HBM3";
    g.cc = "9.0";
    g.sm_count = 132;
    g.fp32_lanes_per_sm = 128;
    g.sm_clock_mhz = 1980;
    g.mem_clock_mhz = 2619;
    g.bus_width_bits = 5120;
    g.l2_bytes = 50LL << 20;
    return g;
}

// 132 × 128 × 2 × 1980 MHz and 5120/8 B × 2619 MHz × 2.
inline constexpr double h100_fp32 = 132.0 * 128 * 2 * 1980e6;
inline constexpr double h100_dram = 5120.0 / 8 * 2619e6 * 2;

// A median with the spread a real row has: 20 runs, 2 % below and 5 % above it.
inline timing synthetic_timing(double median_ms) {
    timing t;
    t.median_ms = median_ms;
    t.min_ms = median_ms * 0.98;
    t.max_ms = median_ms * 1.05;
    t.runs = 20;
    return t;
}

inline rung_model synthetic_model(std::string_view kernel, const shape& s) {
    rung_model m;
    const double mn = double(s.m) * double(s.n);
    m.textbook.flops = model::seed_flops(s);
    auto& r = m.refined;
    if (kernel == "cublas") {
        m.textbook.global_bytes =
            model::compulsory_read_bytes(s) + model::compulsory_write_bytes(s);
        m.textbook.formula = "compulsory: A, B, C read once, C written once, × 4 B";
        r.set(keys::dram_read_bytes, model::compulsory_read_bytes(s));
        r.set(keys::dram_write_bytes, model::compulsory_write_bytes(s));
    } else if (kernel == "naive") {
        m.textbook.global_bytes = (2.0 * mn * s.k + 2.0 * mn) * model::fp32_bytes;
        m.textbook.formula = "(2MNK + 2MN)·4 B";
        m.textbook.loads_per_output = 2.0 * s.k;
        r.set(keys::flops, model::executed_flops(s, s.k));
        // B streams from DRAM once per row of blocks once it no longer fits in L2.
        r.set(keys::dram_read_bytes, s.n >= 4096 ? 8.2e9 : model::compulsory_read_bytes(s));
        r.set(keys::dram_write_bytes, model::compulsory_write_bytes(s));
        r.set(keys::l1_global_load_bytes, mn * s.k / 32 * 160);
        r.set(keys::l1_global_store_bytes, mn * 4);
        r.notes.push_back("A is a broadcast sector per warp, B a coalesced line");
    } else {
        m.textbook.global_bytes = (2.0 * mn * s.k / 32 + 2.0 * mn) * model::fp32_bytes;
        m.textbook.formula = "(2MNK/32 + 2MN)·4 B";
        m.textbook.loads_per_output = 2.0 * s.k / 32;
        m.textbook.smem_accesses = 2.0 * mn * s.k;
        r.set(keys::flops, model::executed_flops(s, s.k));
        r.set(keys::dram_read_bytes, s.n >= 4096 ? 8.4e9 : model::compulsory_read_bytes(s));
        r.set(keys::dram_write_bytes, model::compulsory_write_bytes(s));
        r.set(keys::smem_load_wavefronts, mn * s.k / 32 * 40 / 32 * 1.5);
        r.set(keys::smem_load_bank_conflicts, 0);
        r.notes.push_back("8 LDS.128 of A (broadcast) + 32 LDS.32 of B per warp per step");
    }
    return m;
}

inline measurement synthetic_row(std::string kernel, std::int64_t n, double median_ms) {
    measurement m;
    m.kernel = std::move(kernel);
    m.size = {n, n, n};
    m.verified = true;
    m.time = synthetic_timing(median_ms);
    m.model = synthetic_model(m.kernel, m.size);
    m.counter_passes = 3;
    const double mn = double(n) * double(n);
    const double executed = model::executed_flops(m.size, n);
    m.counters[std::string(keys::flops)] = executed;
    m.counters[std::string(keys::sm_clock_hz)] = 1755e6;
    // DRAM: at 1024³ everything fits in L2 (compulsory traffic); at 4096³ the anchors' figures.
    // L1 and L2 traffic grow with N³.
    const double big = n >= 4096 ? 1.0 : 0.0;
    const double cube = double(n) * mn / (4096.0 * 4096 * 4096);
    const double compulsory_read = model::compulsory_read_bytes(m.size) * 1.03;
    const double write = model::compulsory_write_bytes(m.size) * 1.03;
    if (m.kernel == "cublas") {
        m.counters[std::string(keys::dram_read_bytes)] = compulsory_read;
        m.counters[std::string(keys::dram_write_bytes)] = model::compulsory_write_bytes(m.size);
    } else if (m.kernel == "naive") {
        m.counters[std::string(keys::dram_read_bytes)] = big ? 8.36e9 : compulsory_read;
        m.counters[std::string(keys::dram_write_bytes)] = big ? 69.6e6 : write;
        m.counters[std::string(keys::l2_bytes)] = 18.46e9 * cube;
        m.counters[std::string(keys::l1_global_load_bytes)] = mn * n / 32 * 160;
        m.counters[std::string(keys::l1_global_store_bytes)] = mn * 4;
    } else {
        m.counters[std::string(keys::dram_read_bytes)] = big ? 8.50e9 : compulsory_read;
        m.counters[std::string(keys::dram_write_bytes)] = big ? 69.4e6 : write;
        m.counters[std::string(keys::l2_bytes)] = 20.96e9 * cube;
        m.counters[std::string(keys::l1_global_load_bytes)] = 17.2e9 * cube;
        m.counters[std::string(keys::smem_load_wavefronts)] =
            *m.model.refined.get(keys::smem_load_wavefronts);
        m.counters[std::string(keys::smem_load_bank_conflicts)] = 0;
    }
    return m;
}

inline profile synthetic_profile() {
    profile p;
    p.source = profile_source::measured;
    p.gpu = synthetic_h100();
    p.env.tool_version = "0.1.0";
    p.env.driver = "580.95.05";
    p.env.cuda = "13.0";
    p.env.command = "tgemm-roofline --gpu h100";
    p.env.date = "2026-11-22T10:00:00Z";
    p.env.host = "gpu-node";
    auto& fp32 = p.peaks[std::string(roofs::fp32)];
    fp32.theoretical = h100_fp32;
    fp32.unit = "FLOP/s";
    fp32.method = "132 SMs × 128 lanes × 2 FLOP × 1980 MHz";
    auto& dram = p.peaks[std::string(roofs::dram)];
    dram.theoretical = h100_dram;
    dram.unit = "B/s";
    dram.method = "5120/8 B × 2619 MHz × 2";
    p.measurements.push_back(synthetic_row("cublas", 1024, 0.105));
    p.measurements.push_back(synthetic_row("naive", 1024, 0.36));
    p.measurements.push_back(synthetic_row("smem_tiling", 1024, 0.26));
    p.measurements.push_back(synthetic_row("cublas", 4096, 2.66));
    p.measurements.push_back(synthetic_row("naive", 4096, 21.8));
    p.measurements.push_back(synthetic_row("smem_tiling", 4096, 15.0));
    // Crafted gaps.
    auto& naive_small = p.measurements[1];
    naive_small.counters.erase(std::string(keys::dram_read_bytes));
    naive_small.counters.erase(std::string(keys::dram_write_bytes));
    auto& tiled_big = p.measurements[5];
    const double ideal = *tiled_big.counter(keys::smem_load_wavefronts);
    tiled_big.counters[std::string(keys::smem_load_wavefronts)] = 2 * ideal;
    tiled_big.counters[std::string(keys::smem_load_bank_conflicts)] = ideal;
    measurement skipped;
    skipped.kernel = "naive_uncoalesced";
    skipped.size = {4096, 4096, 4096};
    skipped.skipped = "the launcher refuses sizes above 2048 (over 10 s per launch)";
    p.measurements.push_back(skipped);
    return p;
}

// The synthetic profile with the SM limits a profile file must hold (the H100's, its opt-in
// shared memory per CTA as CUDA reports it), for tests that write it and read it back.
inline profile readable_synthetic_profile() {
    auto p = synthetic_profile();
    p.gpu.limits = sm_limits_cc90;
    p.gpu.limits.smem_per_cta_optin = 232448;
    return p;
}

// ---- tensor rows --------------------------------------------------------------------------
// The BF16 tensor ladder and its cuBLAS references (BF16, and FP16 with FP32 output) as the H100
// measured them at 2048³ (a development run of the tool, not kept in the repository; rounded to
// whole counts), scaled to n³: traffic
// inside the GEMM by (n/2048)³, DRAM and the epilogue's FP32 work by (n/2048)². The refined model
// predicts each counter exactly, so only the crafted gaps of a test show.

// The order of synthetic_tensor_counts' columns.
inline constexpr std::array<std::string_view, 19> tensor_count_keys = {
    keys::dram_read_bytes,
    keys::dram_write_bytes,
    keys::l2_bytes,
    keys::l2_requested_bytes,
    keys::l2_coalesced_bytes,
    keys::l1_global_load_bytes,
    keys::l1_global_store_bytes,
    keys::smem_load_wavefronts,
    keys::smem_store_wavefronts,
    keys::smem_load_bank_conflicts,
    keys::smem_store_bank_conflicts,
    keys::smem_ldsm_wavefronts,
    keys::smem_ldsm_bank_conflicts,
    keys::smem_stsm_wavefronts,
    keys::smem_gmma_wavefronts,
    keys::smem_ldgsts_bytes,
    keys::tma_load_bytes,
    keys::tma_multicast_bytes,
    keys::tma_store_bytes};

struct tensor_rung_data {
    std::string_view kernel;
    std::string_view dtype;
    double median_ms_2048;
    double global_bytes_2048;       // the textbook's
    double smem_accesses_2048;      // the textbook's element accesses; 0: none
    std::array<double, 19> counts;  // at 2048³, in tensor_count_keys order
};

inline constexpr std::array<tensor_rung_data, 7> tensor_rungs_2048 = {{
    {"cublas_bf16",
     "bf16",
     0.030752,
     33554432,
     0,
     {25202432, 8807424, 123593696, 142606336, 50008576, 0, 0, 251004, 84593, 0, 221, 0, 0, 65536,
      3145728, 0, 209715200, 134217728, 8388608}},
    {"cublas_fp16",
     "fp16",
     0.043520,
     50331648,
     0,
     {33611520, 19593728, 148923744, 150994944, 50078720, 16777216, 0, 116520, 152895, 0, 2063, 0,
      0, 0, 3145728, 0, 201326592, 134217728, 16777216}},
    {"bf16_wmma",
     "bf16",
     0.131664,
     285212672,
     402653184,
     {25200640, 16188672, 253154752, 276258816, 54683136, 276824064, 8388608, 6423441, 3407937, 913,
      1179713, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"bf16_mma",
     "bf16",
     0.062688,
     285212672,
     268435456,
     {25220352, 14923264, 232000832, 276824064, 95206400, 285212672, 16777216, 4194508, 0, 204, 0,
      4194304, 0, 0, 0, 208093584, 0, 0, 0}},
    {"bf16_wgmma",
     "bf16",
     0.070112,
     285212672,
     201326592,
     {25614848, 17193984, 253555264, 276825600, 82313216, 16777216, 16777216, 0, 0, 0, 0, 0, 0, 0,
      3145728, 0, 268435456, 0, 0}},
    {"bf16_ws",
     "bf16",
     0.042432,
     218103808,
     167772160,
     {25210624, 16429824, 212111232, 209733632, 54991360, 16777216, 16777216, 0, 0, 0, 0, 0, 0, 0,
      2621440, 0, 201326592, 0, 0}},
    {"bf16_cluster",
     "bf16",
     0.034272,
     150994944,
     167772160,
     {25215744, 17587968, 183596736, 142606336, 16419840, 0, 0, 67220, 67855, 0, 2261, 65536, 0,
      65536, 2621440, 0, 209715200, 134217728, 8388608}},
}};

inline measurement synthetic_tensor_row(const tensor_rung_data& t, std::int64_t n) {
    measurement m;
    m.kernel = std::string(t.kernel);
    m.dtype = std::string(t.dtype);
    m.size = {n, n, n};
    m.verified = true;
    const double volume = std::pow(double(n) / 2048, 3);
    const double area = std::pow(double(n) / 2048, 2);
    const double ms = t.median_ms_2048 * volume;
    m.time = synthetic_timing(ms);
    m.counter_passes = 12;
    m.model.textbook.flops = model::seed_flops(m.size);
    m.model.textbook.global_bytes = t.global_bytes_2048 * area;
    m.model.textbook.formula = "per rung (docs/models/13_17_tensor.md)";
    if (t.smem_accesses_2048 > 0) m.model.textbook.smem_accesses = t.smem_accesses_2048 * volume;
    const double mn = double(n) * double(n);
    const auto set = [&](std::string_view key, double v) {
        m.counters[std::string(key)] = v;
        m.model.refined.set(key, v);
    };
    set(keys::tensor_flops, 2.0 * mn * double(n));
    set(keys::ffma, mn);
    set(keys::fmul, mn);
    set(keys::fadd, 0);
    set(keys::flops, 3.0 * mn);
    for (std::size_t i = 0; i < tensor_count_keys.size(); ++i) {
        const auto key = tensor_count_keys[i];
        const bool dram = key == keys::dram_read_bytes || key == keys::dram_write_bytes;
        set(key, std::round(t.counts[i] * (dram ? area : volume)));
    }
    m.counters[std::string(keys::sm_clock_hz)] = 1755e6;
    return m;
}

// 132 SMs × 4 tensor cores × 1024 dense BF16 FLOP per clock × 1980 MHz.
inline constexpr double h100_tensor = 132.0 * 4 * 1024 * 1980e6;

inline void add_tensor_peaks(profile& p) {
    for (const auto key : {roofs::tensor_bf16, roofs::tensor_fp16}) {
        auto& r = p.peaks[std::string(key)];
        r.theoretical = h100_tensor;
        r.unit = "FLOP/s";
        r.method = "132 SMs × 4 tensor cores × 1024 FLOP × 1980 MHz";
    }
}

// The synthetic profile with the tensor rows beside the FP32 ones at both sizes, and the
// tensor roofs.
inline profile synthetic_tensor_profile() {
    auto p = synthetic_profile();
    add_tensor_peaks(p);
    for (const std::int64_t n : {1024, 4096})
        for (const auto& t : tensor_rungs_2048)
            p.measurements.push_back(synthetic_tensor_row(t, n));
    return p;
}

// The same GPU and rows with nothing measured: what `--gpu h100` prints on another machine.
inline profile synthetic_predicted_profile() {
    auto p = synthetic_profile();
    p.source = profile_source::predicted;
    p.env.driver.clear();
    p.env.cuda.clear();
    p.env.command = "tgemm-roofline --gpu h100 (no H100 here)";
    for (auto& m : p.measurements) {
        m.time.reset();
        m.counters.clear();
        m.counter_passes.reset();
        m.verified = false;
    }
    return p;
}

}  // namespace tgemm::test
