#pragma once
// The facts about one GPU that the models, the roofs and the report use: read from the device
// when measuring (collect/device.hpp), taken from the spec database when predicting
// (gpu/peaks.hpp). Kept apart from the profile so the kernels can ask "can this shape run on
// this GPU?" without depending on serialisation.
#include <cstdint>
#include <string>

#include "gpu/sm_limits.hpp"

namespace tgemm {

struct gpu_info {
    std::string key;
    std::string name;
    std::string cc;  // "9.0"
    int sm_count = 0;
    int fp32_lanes_per_sm = 0;
    double sm_clock_mhz = 0;   // the device's maximum SM clock
    double mem_clock_mhz = 0;  // as CUDA reports it
    int bus_width_bits = 0;
    std::int64_t l2_bytes = 0;
    // What one SM holds (gpu/occupancy.hpp): the device's attributes where CUDA reports them,
    // else the spec database's, and where they came from.
    sm_limits limits;
    std::string limits_source;
};

}  // namespace tgemm
