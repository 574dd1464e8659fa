#pragma once
// Measured machine peaks: micro-benchmarks for DRAM (read, copy), L2, shared memory and FP32,
// and cuBLAS GEMMs for the tensor cores (docs/peaks.md). Each result carries what ran, how
// often, and the SM clock it ran at where the kernel could read it. Placing the results in a
// profile is merge_measured_peaks (analysis/peak_checks.hpp).
#include <functional>
#include <string>
#include <vector>

#include "analysis/peak_checks.hpp"
#include "collect/device.hpp"
#include "profile/profile.hpp"

namespace tgemm {

struct peak_bench_policy {
    int warmup = 3;  // untimed launches before the timed ones
    int runs = 20;   // timed launches; the median is the result
};

// Called before each benchmark with its name ("DRAM read, 2 GiB").
using peak_progress = std::function<void(const std::string&)>;

// Runs every benchmark on `device` (whose figures are `gpu`) and returns one value per roof:
// dram, dram_copy, l2, smem, fp32, the tensor roofs (tensor_bf16, tensor_fp16 from a wgmma
// loop, or mma.sync without sm_90a) and their second lines (tensor_*_mma, tensor_*_cublas).
// Throws tgemm::error on a CUDA or
// cuBLAS failure.
[[nodiscard]] std::vector<measured_peak> measure_peaks(const local_device& device,
                                                       const gpu_info& gpu,
                                                       const peak_progress& progress = {},
                                                       const peak_bench_policy& policy = {});

}  // namespace tgemm
