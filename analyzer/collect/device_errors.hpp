#pragma once
// The words for what the GPU side can fail with: a CUDA or CUPTI status, a driver older than
// the runtime, a shape whose workspace does not fit in the GPU's free memory. Pure functions of
// the status and the numbers (the callers ask the runtime for those), so that every message is
// tested without a GPU (tests/cli/device_errors_test.cpp). Only cli/ turns them into output.
#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "collect/counter_session.hpp"
#include "core/error.hpp"

namespace tgemm {

// The GPU has too little free memory for what was asked: the measuring loop names the shape.
class gpu_out_of_memory : public error {
  public:
    using error::error;
};

// A failed CUPTI call: insufficient privileges (with how to grant them), another profiler
// attached, counters busy (counters_busy, which --wait-for-counters retries), a MIG instance;
// anything else is an internal error quoting `call` and CUPTI's `text`.
[[noreturn]] void throw_cupti_failure(CUptiResult status, std::string_view call,
                                      std::string_view text);

// A failed CUDA runtime call, with the runtime's words for it and the versions a driver
// problem is explained with.
struct cuda_failure {
    cudaError_t status = cudaSuccess;
    std::string call;         // the call as written, "cudaMalloc(&p, n)"
    std::string name;         // cudaGetErrorName: "cudaErrorIllegalAddress"
    std::string text;         // cudaGetErrorString
    int driver_version = 0;   // cudaDriverGetVersion: 12080 for CUDA 12.8, 0 without a driver
    int runtime_version = 0;  // cudaRuntimeGetVersion
};

// The "sticky" errors: after one, every later call of this process on the GPU fails, so the
// run cannot go on (a kernel fault, or a GPU that fell off the bus, was reset or drained).
[[nodiscard]] bool leaves_context_unusable(cudaError_t status);
// The statuses that mean the driver is older than the runtime (or than the code) needs.
[[nodiscard]] bool means_driver_too_old(cudaError_t status);

// error_kind::device for a lost GPU (leaves_context_unusable), a driver too old, a driver whose
// library and kernel module differ, no GPU; gpu_out_of_memory for cudaErrorMemoryAllocation;
// error_kind::internal quoting the call for anything else.
[[noreturn]] void throw_cuda_failure(const cuda_failure& f);

// "12.8" for 12080.
[[nodiscard]] std::string cuda_version_text(int version);
// The line for a driver older than the runtime, naming both versions; for driver_version 0,
// that no driver is loaded.
[[nodiscard]] std::string driver_too_old_message(int driver_version, int runtime_version);

// "1.50 GiB", "12.0 MiB".
[[nodiscard]] std::string bytes_text(double bytes);
// The line for a workspace that does not fit: `what` ("4096³, fp32 operands") needs `need`
// bytes and `free` are free.
[[nodiscard]] std::string out_of_memory_message(std::string_view what, std::size_t need,
                                                std::size_t free);
// Throws gpu_out_of_memory with that line when need > free.
void check_fits_in_memory(std::string_view what, std::size_t need, std::size_t free);

}  // namespace tgemm
