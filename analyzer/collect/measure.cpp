#include "collect/measure.hpp"

#include <cstdlib>
#include <string_view>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "collect/counter_session.hpp"
#include "collect/cuda_check.hpp"
#include "collect/peaks_bench.hpp"
#include "collect/verify.hpp"
#include "collect/wait_for_counters.hpp"
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
    // The node's index of the card: under CUDA_VISIBLE_DEVICES=N (how --device and Slurm give a
    // process one GPU) the runtime calls it 0, so N is the index that tells the cards apart.
    p.env.gpu_index = device.index;
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
        v && *v && std::string_view(v).find_first_not_of("0123456789") == std::string_view::npos &&
        std::string_view(v).size() <= 4)
        p.env.gpu_index = std::atoi(v);
    p.env.gpu_uuid = device.uuid;
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
    // The tensor paths sum; a rung without tensor cores collects none of them.
    std::optional<double> tensor;
    for (const auto key : {keys::tensor_hgmma_bf16_flops, keys::tensor_hgmma_fp16_flops,
                           keys::tensor_hmma_bf16_flops, keys::tensor_hmma_fp16_flops})
        if (const auto v = row.counter(key)) tensor = tensor.value_or(0) + *v;
    if (tensor) row.counters[std::string(keys::tensor_flops)] = *tensor;
    row.counter_passes = cv.launches;
}

}  // namespace

std::vector<work_item> measure_options::work_list() const {
    std::vector<work_kernel> kernels;
    for (const auto* r : rungs) kernels.push_back({r->id, r->types.ab != element_type::fp32});
    return make_work_list(kernels, shapes, tensor_only_shapes);
}

measure_outcome measure(const local_device& device, const measure_options& opts) {
    TGEMM_CUDA(cudaSetDevice(device.index));
    TGEMM_CUDA(cudaFree(nullptr));  // creates the primary context CUPTI attaches to
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get()};

    measure_outcome out;
    out.result = measured_profile_header(device, opts.command);
    const auto mc = model_context_for(device.info);
    const auto whole = opts.work_list();
    const auto items = shard_of(whole, opts.part);
    out.result.env.work_list = work_list_record{static_cast<std::int64_t>(whole.size()), opts.part};
    const int total = static_cast<int>(items.size());
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
    if (opts.counters)
        counters =
            open_when_counters_free([&] { return std::make_unique<counter_session>(device.index); },
                                    opts.wait_for_counters_s, system_wait_clock(), opts.on_notice);

    // The list is shape-major, and so is every shard of it: each shape's items are consecutive.
    for (std::size_t first = 0; first < items.size();) {
        const shape s = items[first].size;
        std::size_t end = first;
        while (end < items.size() && items[end].size == s) ++end;
        // One workspace per set of operand types at this shape, made when a rung first needs it.
        std::vector<std::unique_ptr<workspace>> spaces;
        const auto space_for = [&](const operand_types& types) -> const workspace& {
            for (const auto& w : spaces)
                if (w->types == types) return *w;
            progress(fmt::format("{}: preparing {} inputs and the FP32 reference", to_string(s),
                                 to_string(types.ab)));
            const auto seed = opts.seed ^ static_cast<std::uint64_t>(
                                              s.m * 73856093 ^ s.n * 19349663 ^ s.k * 83492791);
            spaces.push_back(std::make_unique<workspace>(s, types, opts.alpha, opts.beta,
                                                         device.info.l2_bytes, stream.get(),
                                                         cublas.get(), seed));
            return *spaces.back();
        };
        for (; first < end; ++first) {
            const rung* r = opts.rungs[items[first].kernel];
            measurement row;
            row.kernel = r->id;
            row.dtype = r->dtype();
            row.size = s;
            row.alpha = opts.alpha;
            row.beta = opts.beta;
            const auto label = fmt::format("{} {}", r->id, to_string(s));
            try {
                if (auto why = r->can_run(device.info, s)) {
                    // No model either: it may not place its CTAs on a GPU that cannot run it.
                    row.skipped = *why;
                } else {
                    row.model = r->model(s, mc);
                    const workspace& ws = space_for(r->types);
                    progress(label + ": verifying");
                    const auto launch = r->bind(ws.args(), ctx);
                    const auto v = verify_rung(launch, ws);
                    if (!v.ok) {
                        row.skipped = "verification failed: " + v.describe(r->id);
                        out.failures.push_back(v.describe(r->id) + " at " + to_string(s));
                    } else {
                        row.verified = true;
                        row.verify_max_error = v.worst_ratio;
                        progress(label + ": timing");
                        row.time = time_rung(launch, ws, opts.timing);
                        if (counters) {
                            progress(label + ": counters");
                            add_counters(row, counters->collect(
                                                  [&] {
                                                      ws.restore_c();
                                                      ws.flush_l2();
                                                  },
                                                  [&] {
                                                      launch();
                                                      TGEMM_CUDA(cudaGetLastError());
                                                  },
                                                  r->types.ab != element_type::fp32));
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
