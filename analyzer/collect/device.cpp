#include "collect/device.hpp"

#include <cuda_runtime_api.h>

#include <fstream>
#include <regex>

#include "collect/device_errors.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "gpu/spec.hpp"

namespace tgemm {

namespace {

// The 16 bytes in nvidia-smi's form: GPU-8-4-4-4-12 hex digits.
std::string uuid_string(const cudaUUID_t& u) {
    std::string s = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        s += fmt::format("{:02x}", static_cast<unsigned char>(u.bytes[i]));
    }
    return s;
}

// The kernel module's own version is what `nvidia-smi` shows; the runtime only knows the API
// level. Linux exposes it without linking NVML.
std::string kernel_module_version() {
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (!std::getline(in, line)) return {};
    static const std::regex re(R"((\d+\.\d+(\.\d+)?))");
    std::smatch m;
    if (std::regex_search(line, m, re)) return m[1];
    return {};
}

int attr(cudaDeviceAttr a, int dev) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) return 0;
    return v;
}

int fp32_lanes_for(int major, int minor, const std::optional<std::string>& key) {
    if (key) return find_gpu(*key).fp32_lanes_per_sm;
    // From the CUDA programming guide's per-architecture throughput table.
    if (major == 8 && minor == 0) return 64;
    if (major == 7) return 64;
    return 128;
}

// The SM limits: what CUDA reports for this device, and the rest (registers per thread, the
// allocation units) from the spec database's table for its compute capability.
void read_sm_limits(gpu_info& g, int major, int minor, int dev) {
    const auto table = sm_limits_for(major, minor);
    g.limits = table.value_or(sm_limits_cc90);
    const auto from = [&](int& field, cudaDeviceAttr a) {
        if (const int v = attr(a, dev); v > 0) field = v;
    };
    const auto from64 = [&](std::int64_t& field, cudaDeviceAttr a) {
        if (const int v = attr(a, dev); v > 0) field = v;
    };
    from(g.limits.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor);
    from(g.limits.ctas_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor);
    from(g.limits.registers_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor);
    from64(g.limits.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    from64(g.limits.smem_per_cta_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    from64(g.limits.smem_reserved_per_cta, cudaDevAttrReservedSharedMemoryPerBlock);
    g.limits_source = fmt::format(
        "CUDA device attributes of this GPU (threads, CTAs, registers and shared memory per SM; "
        "opt-in and reserved shared memory per CTA); registers per thread and allocation units: "
        "{}{}",
        sm_limits_source,
        table ? fmt::format("; compute capability {}.{}", major, minor)
              : fmt::format(" for compute capability 9.0, since the table has no {}.{}", major,
                            minor));
}

}  // namespace

int visible_gpu_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

device_probe probe_local_device() {
    device_probe probe;
    int count = 0;
    const auto st = cudaGetDeviceCount(&count);
    if (means_driver_too_old(st)) {
        // No driver (version 0), or one older than the runtime: the line names both versions.
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        probe.why_none = driver_too_old_message(driver, runtime);
        cudaGetLastError();
        return probe;
    }
    if (st == cudaErrorNoDevice || (st == cudaSuccess && count == 0)) {
        probe.why_none = "no CUDA GPU is visible on this machine";
        cudaGetLastError();
        return probe;
    }
    if (st != cudaSuccess) {
        probe.why_none = fmt::format("the CUDA runtime cannot start: {}", cudaGetErrorString(st));
        cudaGetLastError();
        return probe;
    }
    local_device d;
    d.index = 0;
    cudaDeviceProp prop{};
    if (const auto e = cudaGetDeviceProperties(&prop, d.index); e != cudaSuccess) {
        probe.why_none = fmt::format("cannot read GPU 0's properties: {}", cudaGetErrorString(e));
        return probe;
    }
    auto& g = d.info;
    g.name = prop.name;
    const auto key = key_for_device_name(g.name);
    g.key = key.value_or(lower(std::string(g.name)));
    g.cc = fmt::format("{}.{}", prop.major, prop.minor);
    g.sm_count = prop.multiProcessorCount;
    g.fp32_lanes_per_sm = fp32_lanes_for(prop.major, prop.minor, key);
    g.sm_clock_mhz = attr(cudaDevAttrClockRate, d.index) / 1000.0;
    g.mem_clock_mhz = attr(cudaDevAttrMemoryClockRate, d.index) / 1000.0;
    g.bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, d.index);
    g.l2_bytes = attr(cudaDevAttrL2CacheSize, d.index);
    read_sm_limits(g, prop.major, prop.minor, d.index);
    d.uuid = uuid_string(prop.uuid);
    int v = 0;
    cudaRuntimeGetVersion(&v);
    d.cuda_runtime = cuda_version_text(v);
    cudaDriverGetVersion(&v);
    d.cuda_driver_api = cuda_version_text(v);
    d.driver = kernel_module_version();
    if (d.driver.empty()) d.driver = "CUDA driver API " + d.cuda_driver_api;
    probe.device = d;
    return probe;
}

local_device require_local_device() {
    auto probe = probe_local_device();
    if (!probe.device) TGEMM_THROW(device, "cannot measure: {}", probe.why_none);
    return *probe.device;
}

}  // namespace tgemm
