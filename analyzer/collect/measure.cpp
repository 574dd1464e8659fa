#include "collect/measure.hpp"

#include <cstdlib>
#include <string_view>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "collect/counter_session.hpp"
#include "collect/cuda_check.hpp"
#include "collect/device_errors.hpp"
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

run_identity measure_options::identity(const local_device& device) const {
    run_identity id;
    for (const auto* r : rungs) id.kernels.push_back(r->id);
    id.sizes = shapes;
    id.tensor_sizes = tensor_only_shapes;
    id.part = part;
    id.repeat = repeat;
    id.counters = counters;
    id.counted_ranges = counted_ranges == cupti_ranges::kernel ? "kernel" : "user";
    id.peaks = peaks;
    id.min_runs = timing.min_runs;
    id.noise_target = timing.noise_target;
    id.max_time_s = timing.max_time_s;
    id.gpu = device.info.key;
    id.gpu_uuid = device.uuid;
    id.tool_version = TGEMM_VERSION;
    return id;
}

namespace {

// Measures a batch of pairs of one shape on the GPU: verify each against cuBLAS, time it, then
// count the batch. The workspaces of the current shape are kept between its pairs (the list is
// shape-major, so each shape's pairs are consecutive in every run of a --repeat) and dropped
// when the shape changes.
class gpu_pair_measurer {
  public:
    gpu_pair_measurer(const local_device& device, const measure_options& opts,
                      const launch_context& ctx, counter_session* counters)
        : m_device(device),
          m_opts(opts),
          m_ctx(ctx),
          m_counters(counters),
          m_mc(model_context_for(device.info)) {}

    // Sub-steps are reported with the loop's last count.
    void note(const progress_event& e) { m_last = e; }

    // Verifies and times each pair, then counts the verified ones together (one profiler start
    // per metric group for the batch, collect/counter_session.hpp).
    std::vector<measurement> operator()(std::span<const work_item> items, int /*run*/) {
        std::vector<measurement> rows;
        std::vector<counter_job> jobs;
        std::vector<std::size_t> counted;  // the row of each job
        std::vector<bound_launch> launches;
        launches.reserve(items.size());  // the jobs refer to them
        for (const auto& item : items) {
            rows.push_back(verify_and_time(item, launches));
            if (!m_counters || !rows.back().verified) continue;
            const rung* r = m_opts.rungs[item.kernel];
            const workspace& ws = space_for(item.size, r->types);
            const bound_launch& launch = launches.back();
            jobs.push_back({[&ws] {
                                ws.restore_c();
                                ws.flush_l2();
                            },
                            [&launch] {
                                launch();
                                TGEMM_CUDA(cudaGetLastError());
                            },
                            r->types.ab != element_type::fp32});
            counted.push_back(rows.size() - 1);
        }
        if (jobs.empty()) return rows;
        progress(jobs.size() == 1 ? fmt::format("{} {}: counters", rows[counted[0]].kernel,
                                                to_string(items.front().size))
                                  : fmt::format("{}: counters of {} pairs",
                                                to_string(items.front().size), jobs.size()));
        const auto values = m_counters->collect(jobs);
        for (std::size_t j = 0; j < jobs.size(); ++j) add_counters(rows[counted[j]], values[j]);
        return rows;
    }

  private:
    // The pair's row without counters: skipped, failed verification, or verified and timed (its
    // bound launch then appended to `launches`).
    measurement verify_and_time(const work_item& item, std::vector<bound_launch>& launches) {
        const rung* r = m_opts.rungs[item.kernel];
        const shape s = item.size;
        if (!(s == m_shape)) {
            m_spaces.clear();  // before the next shape's are made: both may not fit
            m_shape = s;
        }
        measurement row;
        row.kernel = r->id;
        row.dtype = r->dtype();
        row.size = s;
        row.alpha = m_opts.alpha;
        row.beta = m_opts.beta;
        const auto label = fmt::format("{} {}", r->id, to_string(s));
        if (auto why = r->can_run(m_device.info, s)) {
            // No model either: it may not place its CTAs on a GPU that cannot run it.
            row.skipped = *why;
            return row;
        }
        row.model = r->model(s, m_mc);
        const workspace& ws = space_for(s, r->types);
        progress(label + ": verifying");
        auto launch = r->bind(ws.args(), m_ctx);
        const auto v = verify_rung(launch, ws);
        if (!v.ok) {
            row.skipped = "verification failed: " + v.describe(r->id);
            return row;
        }
        row.verified = true;
        row.verify_max_error = v.worst_ratio;
        progress(label + ": timing");
        row.time = time_rung(launch, ws, m_opts.timing);
        launches.push_back(std::move(launch));
        return row;
    }

    void progress(const std::string& what) const {
        if (m_opts.on_progress) m_opts.on_progress({m_last.done, m_last.total, what});
    }

    // One workspace per set of operand types at this shape, made when a rung first needs it,
    // after checking that it fits in the memory the GPU has free.
    const workspace& space_for(const shape& s, const operand_types& types) {
        for (const auto& w : m_spaces)
            if (w->types == types) return *w;
        progress(fmt::format("{}: preparing {} inputs and the FP32 reference", to_string(s),
                             to_string(types.ab)));
        const auto what = fmt::format("{} with {} operands", to_string(s), to_string(types.ab));
        const auto need = plan_workspace(s, types, m_device.info.l2_bytes, true).bytes();
        std::size_t free = 0, total = 0;
        TGEMM_CUDA(cudaMemGetInfo(&free, &total));
        check_fits_in_memory(what, need, free);
        const auto seed = m_opts.seed ^ static_cast<std::uint64_t>(s.m * 73856093 ^ s.n * 19349663 ^
                                                                   s.k * 83492791);
        try {
            m_spaces.push_back(std::make_unique<workspace>(s, types, m_opts.alpha, m_opts.beta,
                                                           m_device.info.l2_bytes, m_ctx.stream,
                                                           m_ctx.cublas, seed));
        } catch (const gpu_out_of_memory&) {
            // Free memory can shrink between the check and the allocation (another process):
            // the same line, with what is free now.
            cudaMemGetInfo(&free, &total);
            throw gpu_out_of_memory(error_kind::device, out_of_memory_message(what, need, free));
        }
        return *m_spaces.back();
    }

    const local_device& m_device;
    const measure_options& m_opts;
    launch_context m_ctx;
    counter_session* m_counters;
    model_context m_mc;
    progress_event m_last;
    shape m_shape;
    std::vector<std::unique_ptr<workspace>> m_spaces;
};

}  // namespace

measure_outcome measure(const local_device& device, const measure_options& opts) {
    TGEMM_CUDA(cudaSetDevice(device.index));
    TGEMM_CUDA(cudaFree(nullptr));  // creates the primary context CUPTI attaches to
    cuda_stream stream;
    cublas_handle cublas(stream.get());
    const launch_context ctx{stream.get(), cublas.get()};

    const auto whole = opts.work_list();
    pair_run run;
    run.items = shard_of(whole, opts.part);
    for (const auto* r : opts.rungs) run.kernels.push_back(r->id);
    run.repeat = opts.repeat;

    checkpoint cp;
    cp.path = opts.partial_path;
    if (opts.resume) {
        cp.content = *opts.resume;  // its header, its peaks, its rows
    } else {
        cp.content.done = measured_profile_header(device, opts.command);
        cp.content.done.env.work_list =
            work_list_record{static_cast<std::int64_t>(whole.size()), opts.part};
        cp.content.identity = opts.identity(device);
        cp.content.peaks_pending = opts.peaks;
    }
    cp.save();  // before the peaks: a checkpoint that cannot be written fails first

    measure_outcome out;
    const int total = static_cast<int>(run.items.size()) * opts.repeat;
    // The peaks first, before the counter session attaches to the context; a resumed run has
    // them unless it stopped during them.
    if (cp.content.peaks_pending) {
        const auto measured = measure_peaks(device, device.info, [&](const std::string& what) {
            if (opts.on_progress) opts.on_progress({0, total, "peaks: " + what});
        });
        out.peak_warnings = merge_measured_peaks(cp.content.done, measured);
        cp.content.peaks_pending = false;
        cp.save();
    }

    std::unique_ptr<counter_session> counters;
    if (opts.counters)
        counters = open_when_counters_free(
            [&] { return std::make_unique<counter_session>(device.index, opts.counted_ranges); },
            opts.wait_for_counters_s, system_wait_clock(), opts.on_notice);

    gpu_pair_measurer measurer(device, opts, ctx, counters.get());
    run.measure = [&](std::span<const work_item> items, int r) { return measurer(items, r); };
    run.batch = opts.counter_batch;
    run.on_progress = [&](const progress_event& e) {
        measurer.note(e);
        if (opts.on_progress) opts.on_progress(e);
    };
    auto done = run_pairs(run, cp);
    out.result = std::move(done.result);
    out.failures = std::move(done.failures);
    return out;
}

}  // namespace tgemm
