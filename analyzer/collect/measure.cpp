#include "collect/measure.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>

#include "collect/counter_session.hpp"
#include "collect/cuda_check.hpp"
#include "collect/peaks_bench.hpp"
#include "collect/verify.hpp"
#include "collect/workspace.hpp"
#include "gpu/peaks.hpp"
#include "model/levels.hpp"

namespace tgemm {

std::string utc_now_iso8601() {
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

profile measured_profile_header(const local_device& device, const std::string& command) {
    profile p;
    p.source = profile_source::measured;
    p.gpu = device.info;
    p.env.tool_version = TGEMM_VERSION;
    p.env.driver = device.driver;
    p.env.cuda = device.cuda_runtime;
    p.env.command = command;
    p.env.date = utc_now_iso8601();
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) p.env.host = host;
    p.peaks = theoretical_roofs(p.gpu);
    return p;
}

namespace {

void add_counters(measurement& row, const counter_values& cv) {
    row.counters = cv.values;
    const auto ffma = row.counter(keys::ffma);
    const auto fadd = row.counter(keys::fadd);
    const auto fmul = row.counter(keys::fmul);
    if (ffma && fadd && fmul) row.counters[std::string(keys::flops)] = 2 * *ffma + *fadd + *fmul;
    row.counter_passes = cv.launches;
}

}  // namespace

measure_outcome measure(const local_device& device, const measure_options& opts) {
    TGEMM_CUDA(cudaSetDevice(device.index));
    TGEMM_CUDA(cudaFree(nullptr));  // creates the primary context CUPTI attaches to
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get()};

    measure_outcome out;
    out.result = measured_profile_header(device, opts.command);
    const model_context mc{device.info.l2_bytes, device.info.sm_count};
    const int total = static_cast<int>(opts.shapes.size() * opts.rungs.size());
    int done = 0;
    auto progress = [&](const std::string& what) {
        if (opts.on_progress) opts.on_progress({done, total, what});
    };

    // The peaks first, before the counter session attaches to the context.
    if (opts.peaks) {
        const auto measured = measure_peaks(
            device, device.info, [&](const std::string& what) { progress("peaks: " + what); });
        out.peak_warnings = merge_measured_peaks(out.result, measured);
    }

    std::unique_ptr<counter_session> counters;
    if (opts.counters) counters = std::make_unique<counter_session>(device.index);

    for (const auto& s : opts.shapes) {
        progress(fmt::format("{}: preparing inputs and the cuBLAS reference", to_string(s)));
        const workspace ws(
            s, opts.alpha, opts.beta, device.info.l2_bytes, stream.get(), cublas.get(),
            opts.seed ^
                static_cast<std::uint64_t>(s.m * 73856093 ^ s.n * 19349663 ^ s.k * 83492791));
        for (const auto* r : opts.rungs) {
            measurement row;
            row.kernel = r->id;
            row.dtype = r->dtype;
            row.size = s;
            row.alpha = opts.alpha;
            row.beta = opts.beta;
            row.model = r->model(s, mc);
            const auto label = fmt::format("{} {}", r->id, to_string(s));
            try {
                if (auto why = r->can_run(device.info, s)) {
                    row.skipped = *why;
                } else {
                    progress(label + ": verifying");
                    const auto v = verify_rung(*r, ws, ctx);
                    if (!v.ok) {
                        row.skipped = "verification failed: " + v.describe(r->id);
                        out.failures.push_back(v.describe(r->id) + " at " + to_string(s));
                    } else {
                        row.verified = true;
                        row.verify_max_error = v.worst_ratio;
                        progress(label + ": timing");
                        row.time = time_rung(*r, ws, ctx, opts.timing);
                        if (counters) {
                            progress(label + ": counters");
                            const gemm_args args{s,          opts.alpha, opts.beta,
                                                 ws.a.get(), ws.b.get(), ws.c.get()};
                            add_counters(row, counters->collect(
                                                  [&] {
                                                      ws.restore_c();
                                                      ws.flush_l2();
                                                  },
                                                  [&] {
                                                      r->launch(args, ctx);
                                                      TGEMM_CUDA(cudaGetLastError());
                                                  }));
                        }
                    }
                }
            } catch (const error& e) {
                throw error(e.kind(), fmt::format("{} (while measuring {})", e.what(), label));
            }
            out.result.measurements.push_back(std::move(row));
            ++done;
            progress(label + ": done");
        }
    }
    return out;
}

}  // namespace tgemm
