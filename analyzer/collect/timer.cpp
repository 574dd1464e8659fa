#include "collect/timer.hpp"

#include <algorithm>

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
    std::vector<double> ms;
    double total = 0;
    while (static_cast<int>(ms.size()) < policy.max_runs && total < policy.max_total_ms &&
           (static_cast<int>(ms.size()) < policy.min_runs || total < policy.min_total_ms)) {
        ws.restore_c();
        ws.flush_l2();
        TGEMM_CUDA(cudaEventRecord(start.get(), ws.stream));
        launch();
        TGEMM_CUDA(cudaEventRecord(stop.get(), ws.stream));
        TGEMM_CUDA(cudaGetLastError());
        TGEMM_CUDA(cudaEventSynchronize(stop.get()));
        float t = 0;
        TGEMM_CUDA(cudaEventElapsedTime(&t, start.get(), stop.get()));
        ms.push_back(t);
        total += t;
    }
    std::sort(ms.begin(), ms.end());
    timing out;
    out.runs = static_cast<int>(ms.size());
    out.min_ms = ms.front();
    out.max_ms = ms.back();
    const auto n = ms.size();
    out.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    out.l2_flushed = true;
    return out;
}

}  // namespace tgemm
