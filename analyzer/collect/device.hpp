#pragma once
// The GPU on this machine, as the CUDA runtime reports it. Works without a driver: then
// there is simply no local device, and `why` says so in words.
#include <optional>
#include <string>

#include "gpu/gpu_info.hpp"

namespace tgemm {

struct local_device {
    int index = 0;
    gpu_info info;             // read from the device's attributes
    std::string driver;        // kernel module version, e.g. "580.159.04", else the API version
    std::string cuda_runtime;  // "13.0"
    std::string cuda_driver_api;
    // "GPU-xxxxxxxx-xxxx-...", as nvidia-smi -L prints it: a fleet's rows name their card by it.
    std::string uuid;
};

struct device_probe {
    std::optional<local_device> device;
    std::string why_none;  // set when device is empty
};

[[nodiscard]] device_probe probe_local_device();

// How many GPUs this process sees (0 without a driver or a GPU).
[[nodiscard]] int visible_gpu_count();

// Throws error_kind::device with why_none when there is no usable GPU.
[[nodiscard]] local_device require_local_device();

}  // namespace tgemm
