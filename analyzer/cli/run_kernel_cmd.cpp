// Launches one rung on seeded inputs and nothing else, so an external profiler (ncu) sees
// exactly the kernel(s) of that rung. No verification and no CUPTI; no L2 flush unless
// --flush (ncu flushes itself with --cache-control all).
#include <cuda_profiler_api.h>

#include <iostream>

#include "cli/commands.hpp"
#include "collect/cuda_check.hpp"
#include "collect/cuda_handles.hpp"
#include "collect/device.hpp"
#include "collect/measure.hpp"
#include "collect/workspace.hpp"

namespace tgemm::cli {

int run_kernel_once(const run_kernel_options& o, std::ostream& out) {
    const auto s = parse_shape(o.size);
    const auto& r = rung_registry::get().find(o.kernel);
    const auto dev = require_local_device();
    if (auto why = r.can_run(dev.info, s))
        TGEMM_THROW(usage, "kernel '{}' cannot run {}: {}", r.id, to_string(s), *why);
    TGEMM_CUDA(cudaSetDevice(dev.index));
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const measure_options defaults;
    const workspace inputs(s, r.types, defaults.alpha, defaults.beta,
                           o.flush ? dev.info.l2_bytes : 0, stream.get(), nullptr, defaults.seed);
    const launch_context ctx{stream.get(), cublas.get()};
    const auto launch = r.bind(inputs.args(), ctx);
    for (int i = 0; i < o.repeat; ++i) {
        inputs.restore_c();
        if (o.flush) inputs.flush_l2();
        if (o.profiler_range) TGEMM_CUDA(cudaProfilerStart());
        launch();
        TGEMM_CUDA(cudaGetLastError());
        if (o.profiler_range) TGEMM_CUDA(cudaProfilerStop());
    }
    TGEMM_CUDA(cudaStreamSynchronize(stream.get()));
    out << "launched " << r.id << " ("
        << (r.kernel_symbol.empty() ? "library kernel" : r.kernel_symbol) << ") " << o.repeat
        << "x at " << to_arg(s) << "\n";
    return 0;
}

}  // namespace tgemm::cli
