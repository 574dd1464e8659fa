#include "collect/device_errors.hpp"

#include <algorithm>
#include <array>

#include "core/throw.hpp"

namespace tgemm {

void throw_cupti_failure(CUptiResult status, std::string_view call, std::string_view text) {
    switch (status) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            TGEMM_THROW(device,
                        "GPU performance counters are not permitted for this user "
                        "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, the driver's "
                        "NVreg_RestrictProfilingToAdminUsers): run as root, or allow every user "
                        "with the line `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in "
                        "a file in /etc/modprobe.d and a reload of the nvidia driver (or a "
                        "reboot), see https://developer.nvidia.com/ERR_NVGPUCTRPERM; "
                        "--no-counters times without counters");
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
            TGEMM_THROW(device,
                        "another profiler (Nsight Compute, Nsight Systems, ...) is attached to "
                        "this process; run without it, or profile one kernel with "
                        "`tgemm-roofline run-kernel` under ncu");
        case CUPTI_ERROR_HARDWARE_BUSY:
            throw counters_busy(error_kind::device,
                                "the GPU's performance counters are busy: another process is "
                                "profiling this GPU (CUPTI_ERROR_HARDWARE_BUSY); wait for it to "
                                "finish (--wait-for-counters SECONDS waits), or use "
                                "--no-counters to time without counters");
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
            TGEMM_THROW(device,
                        "this GPU is a MIG instance, whose performance counters CUPTI cannot "
                        "read (CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED); use --no-counters, or a "
                        "GPU without MIG");
        default:
            TGEMM_THROW(internal, "{} failed: {}", call,
                        text.empty() ? std::string_view("unknown CUPTI error") : text);
    }
}

bool leaves_context_unusable(cudaError_t status) {
    // The CUDA runtime API's documentation of each: "the process must be terminated and
    // relaunched" (or the device is gone).
    static constexpr std::array sticky = {cudaErrorIllegalAddress,
                                          cudaErrorLaunchFailure,
                                          cudaErrorLaunchTimeout,
                                          cudaErrorHardwareStackError,
                                          cudaErrorIllegalInstruction,
                                          cudaErrorMisalignedAddress,
                                          cudaErrorInvalidAddressSpace,
                                          cudaErrorInvalidPc,
                                          cudaErrorAssert,
                                          cudaErrorECCUncorrectable,
                                          cudaErrorNvlinkUncorrectable,
                                          cudaErrorContained,
                                          cudaErrorTensorMemoryLeak,
                                          cudaErrorExternalDevice,
                                          cudaErrorContextIsDestroyed,
                                          cudaErrorDevicesUnavailable,
                                          cudaErrorUnknown};
    return std::find(sticky.begin(), sticky.end(), status) != sticky.end();
}

bool means_driver_too_old(cudaError_t status) {
    return status == cudaErrorInsufficientDriver || status == cudaErrorCallRequiresNewerDriver ||
           status == cudaErrorUnsupportedPtxVersion;
}

std::string cuda_version_text(int version) {
    return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::string driver_too_old_message(int driver_version, int runtime_version) {
    if (driver_version <= 0) return "no NVIDIA driver is loaded";
    return fmt::format(
        "the NVIDIA driver supports CUDA {} and this tool's CUDA runtime is {}, newer: install a "
        "driver for CUDA {} or later, or build the tool with a CUDA {} toolkit",
        cuda_version_text(driver_version), cuda_version_text(runtime_version),
        cuda_version_text(runtime_version), cuda_version_text(driver_version));
}

void throw_cuda_failure(const cuda_failure& f) {
    if (f.status == cudaErrorMemoryAllocation)
        throw gpu_out_of_memory(error_kind::device,
                                fmt::format("the GPU is out of memory ({} failed)", f.call));
    if (means_driver_too_old(f.status))
        TGEMM_THROW(device, "{} ({} in {})",
                    driver_too_old_message(f.driver_version, f.runtime_version), f.name, f.call);
    if (f.status == cudaErrorSystemDriverMismatch)
        TGEMM_THROW(device,
                    "the NVIDIA driver's library and its kernel module are of different versions "
                    "(cudaErrorSystemDriverMismatch, after a driver update): reboot, or reload "
                    "the nvidia kernel module");
    if (f.status == cudaErrorNoDevice)
        TGEMM_THROW(device, "no CUDA GPU is visible ({} in {})", f.name, f.call);
    if (leaves_context_unusable(f.status))
        TGEMM_THROW(device,
                    "the GPU failed: {} ({}) in {}; the GPU is lost to this process (a kernel "
                    "fault, or a GPU that fell off the bus or was reset: `nvidia-smi` and the "
                    "kernel log's Xid lines tell which)",
                    f.name, f.text, f.call);
    TGEMM_THROW(internal, "{} failed: {} ({})", f.call, f.text, f.name);
}

std::string bytes_text(double bytes) {
    if (bytes >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", bytes / (1 << 30));
    return fmt::format("{:.1f} MiB", bytes / (1 << 20));
}

std::string out_of_memory_message(std::string_view what, std::size_t need, std::size_t free) {
    return fmt::format(
        "not enough GPU memory for {}: its inputs, the two copies of C, the FP32 reference and "
        "the L2 flush buffer need {} and {} are free; measure smaller --sizes, or free the GPU "
        "of other processes",
        what, bytes_text(static_cast<double>(need)), bytes_text(static_cast<double>(free)));
}

void check_fits_in_memory(std::string_view what, std::size_t need, std::size_t free) {
    if (need > free)
        throw gpu_out_of_memory(error_kind::device, out_of_memory_message(what, need, free));
}

}  // namespace tgemm
