// The GPU side's failures a user can cause, as the mapping functions word them
// (collect/device_errors.hpp): counter permission, a driver older than the runtime, a lost GPU,
// not enough memory for a shape's workspace. Pure functions of the status, so no GPU is needed.
#include <gtest/gtest.h>

#include "collect/device_errors.hpp"
#include "collect/workspace.hpp"

using namespace tgemm;

namespace {

template <class Throw>
error caught(Throw&& f) {
    try {
        f();
    } catch (const error& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e;
    }
    ADD_FAILURE() << "did not throw";
    return error(error_kind::internal, "");
}

void expect_has(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

cuda_failure failure(cudaError_t status, const char* name) {
    cuda_failure f;
    f.status = status;
    f.call = "cudaEventSynchronize(stop.get())";
    f.name = name;
    f.text = "the runtime's words";
    f.driver_version = 12080;
    f.runtime_version = 13000;
    return f;
}

}  // namespace

TEST(DeviceErrors, NoCounterPermissionSaysHowToGrantIt) {
    for (const auto status : {CUPTI_ERROR_INSUFFICIENT_PRIVILEGES,
                              CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES}) {
        const auto e = caught([&] { throw_cupti_failure(status, "cuptiProfilerInitialize", ""); });
        EXPECT_EQ(e.kind(), error_kind::device);
        const std::string what = e.what();
        expect_has(what, "not permitted");
        expect_has(what, "run as root");
        expect_has(what, "options nvidia NVreg_RestrictProfilingToAdminUsers=0");
        expect_has(what, "/etc/modprobe.d");
        expect_has(what, "reload");
        expect_has(what, "https://developer.nvidia.com/ERR_NVGPUCTRPERM");
    }
}

TEST(DeviceErrors, CuptiBusyIsTheRetryableType) {
    EXPECT_THROW(throw_cupti_failure(CUPTI_ERROR_HARDWARE_BUSY, "x", ""), counters_busy);
    const auto other =
        caught([] { throw_cupti_failure(CUPTI_ERROR_UNKNOWN, "cuptiX(&p)", "boom"); });
    EXPECT_EQ(other.kind(), error_kind::internal);
    expect_has(other.what(), "cuptiX(&p) failed: boom");
}

TEST(DeviceErrors, ADriverOlderThanTheRuntimeNamesBothVersions) {
    EXPECT_EQ(cuda_version_text(12080), "12.8");
    EXPECT_EQ(cuda_version_text(13000), "13.0");
    const auto line = driver_too_old_message(12080, 13000);
    expect_has(line, "CUDA 12.8");
    expect_has(line, "13.0");
    expect_has(driver_too_old_message(0, 13000), "no NVIDIA driver is loaded");
    for (const auto status : {cudaErrorInsufficientDriver, cudaErrorCallRequiresNewerDriver,
                              cudaErrorUnsupportedPtxVersion}) {
        const auto e = caught([&] { throw_cuda_failure(failure(status, "cudaErrorX")); });
        EXPECT_EQ(e.kind(), error_kind::device);
        expect_has(e.what(), "supports CUDA 12.8 and this tool's CUDA runtime is 13.0");
    }
}

TEST(DeviceErrors, StickyErrorsSayTheGpuIsLost) {
    for (const auto status :
         {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorDevicesUnavailable,
          cudaErrorECCUncorrectable, cudaErrorHardwareStackError, cudaErrorUnknown}) {
        EXPECT_TRUE(leaves_context_unusable(status)) << status;
        const auto e =
            caught([&] { throw_cuda_failure(failure(status, "cudaErrorIllegalAddress")); });
        EXPECT_EQ(e.kind(), error_kind::device);
        expect_has(e.what(), "the GPU failed: cudaErrorIllegalAddress (the runtime's words)");
        expect_has(e.what(), "in cudaEventSynchronize(stop.get())");
    }
    // An ordinary failure is not one: the context still works, the message quotes the call.
    EXPECT_FALSE(leaves_context_unusable(cudaErrorInvalidValue));
    const auto e =
        caught([] { throw_cuda_failure(failure(cudaErrorInvalidValue, "cudaErrorInvalidValue")); });
    EXPECT_EQ(e.kind(), error_kind::internal);
    expect_has(e.what(), "cudaEventSynchronize(stop.get()) failed: the runtime's words");
}

TEST(DeviceErrors, AllocationFailureIsOutOfMemory) {
    EXPECT_THROW(
        throw_cuda_failure(failure(cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation")),
        gpu_out_of_memory);
}

TEST(DeviceErrors, AShapeThatDoesNotFitNamesItsBytes) {
    EXPECT_NO_THROW(check_fits_in_memory("4096³ with fp32 operands", 100, 100));
    try {
        check_fits_in_memory("16384³ with fp32 operands", std::size_t(6) << 30,
                             std::size_t(3) << 30);
        FAIL() << "fitted";
    } catch (const gpu_out_of_memory& e) {
        EXPECT_EQ(e.kind(), error_kind::device);
        const std::string what = e.what();
        expect_has(what, "not enough GPU memory for 16384³ with fp32 operands");
        expect_has(what, "need 6.00 GiB and 3.00 GiB are free");
        EXPECT_EQ(what.find('\n'), std::string::npos);
    }
}

// What the check compares: every buffer workspace.cpp allocates (A, B, C and its copy, the L2
// flush buffer of 4× L2) plus the reference's FP32 copies of A, B and C, derived by hand here.
TEST(DeviceErrors, TheWorkspacePlanCountsEveryBuffer) {
    const shape s{4096, 2048, 1024};
    const std::int64_t l2 = 50LL << 20;
    const double mk = 4096.0 * 1024, kn = 1024.0 * 2048, mn = 4096.0 * 2048;
    const double flush = 4.0 * l2;
    const auto fp32 = plan_workspace(s, {element_type::fp32, element_type::fp32}, l2, true);
    EXPECT_EQ(fp32.bytes(),
              static_cast<std::size_t>(4 * (mk + kn + 2 * mn) + flush + 4 * (mk + kn + mn)));
    const auto bf16 = plan_workspace(s, {element_type::bf16, element_type::bf16}, l2, true);
    EXPECT_EQ(bf16.bytes(),
              static_cast<std::size_t>(2 * (mk + kn + 2 * mn) + flush + 4 * (mk + kn + mn)));
    // run-kernel's workspace: no reference, no flush buffer.
    const auto bare = plan_workspace(s, {element_type::fp32, element_type::fp32}, 0, false);
    EXPECT_EQ(bare.bytes(), static_cast<std::size_t>(4 * (mk + kn + 2 * mn)));
}
