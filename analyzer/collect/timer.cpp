#include "collect/timer.hpp"

#include <chrono>

#include "collect/cuda_check.hpp"

namespace tgemm {

timing time_rung(const bound_launch& launch, const workspace& ws, const timing_policy& policy) {
    for (int i = 0; i < policy.warmup; ++i) {
        ws.restore_c();
        launch();
        TGEMM_CUDA(cudaGetLastError());
    }
    TGEMM_CUDA(cudaStreamSynchronize(ws.stream));

    cuda_event start, stop;
    const auto one_launch = [&] {
        ws.restore_c();
        ws.flush_l2();
        TGEMM_CUDA(cudaEventRecord(start.get(), ws.stream));
        launch();
        TGEMM_CUDA(cudaEventRecord(stop.get(), ws.stream));
        TGEMM_CUDA(cudaGetLastError());
        TGEMM_CUDA(cudaEventSynchronize(stop.get()));
        float t = 0;
        TGEMM_CUDA(cudaEventElapsedTime(&t, start.get(), stop.get()));
        return static_cast<double>(t);
    };
    const auto now = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    };
    auto out = sample_until_stable(one_launch, now, policy);
    out.l2_flushed = true;
    return out;
}

}  // namespace tgemm
