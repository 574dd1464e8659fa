// The only file that includes CUPTI headers.
#include "collect/counter_session.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <cmath>
#include <utility>

#include "collect/device_errors.hpp"
#include "collect/metric_table.hpp"
#include "collect/range_owners.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace {

[[noreturn]] void throw_cupti(const char* call, CUptiResult status) {
    const char* text = nullptr;
    cuptiGetResultString(status, &text);
    throw_cupti_failure(status, call, text ? text : "");
}

// Value-initialised CUPTI parameter struct with its size set, as every CUPTI call expects.
template <class T>
T cupti_params(std::size_t size) {
    T p{};
    p.structSize = size;
    return p;
}

#define TGEMM_CUPTI(call)                                                      \
    do {                                                                       \
        const CUptiResult tgemm_status_ = (call);                              \
        if (tgemm_status_ != CUPTI_SUCCESS) throw_cupti(#call, tgemm_status_); \
    } while (0)

// Owns a CUPTI host object (metric configuration and evaluation).
class host_object {
  public:
    host_object(const std::string& chip, const std::vector<std::uint8_t>& availability) {
        auto p = cupti_params<CUpti_Profiler_Host_Initialize_Params>(
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
        TGEMM_CUPTI(cuptiProfilerHostInitialize(&p));
        m_obj = p.pHostObject;
    }
    ~host_object() {
        if (!m_obj) return;
        auto p = cupti_params<CUpti_Profiler_Host_Deinitialize_Params>(
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
        p.pHostObject = m_obj;
        cuptiProfilerHostDeinitialize(&p);
    }
    host_object(const host_object&) = delete;
    host_object& operator=(const host_object&) = delete;
    [[nodiscard]] CUpti_Profiler_Host_Object* get() const { return m_obj; }

  private:
    CUpti_Profiler_Host_Object* m_obj = nullptr;
};

std::vector<const char*> c_names(const std::vector<std::string>& names) {
    std::vector<const char*> out;
    for (const auto& n : names) out.push_back(n.c_str());
    return out;
}

// A metric group made ready for collection: its host object and config image.
struct metric_group {
    std::vector<std::string> metrics;
    metric_family family = metric_family::all;
    std::unique_ptr<host_object> host;
    std::vector<std::uint8_t> config;
    std::size_t passes = 0;
};

// Whether a job (with tensor metrics or not) is counted in group g.
bool counts_job(const metric_group& g, bool tensor) {
    return g.family != metric_family::tensor || tensor;
}

metric_group configure(const std::string& chip, const std::vector<std::uint8_t>& availability,
                       const std::vector<std::string>& metrics) {
    metric_group g;
    g.metrics = metrics;
    g.host = std::make_unique<host_object>(chip, availability);
    auto names = c_names(metrics);
    auto add = cupti_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = g.host->get();
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    const auto st = cuptiProfilerHostConfigAddMetrics(&add);
    if (st == CUPTI_ERROR_INVALID_METRIC_NAME)
        TGEMM_THROW(internal, "CUPTI does not know one of the metrics {} on chip {}",
                    fmt::join(metrics, ", "), chip);
    if (st != CUPTI_SUCCESS) throw_cupti("cuptiProfilerHostConfigAddMetrics", st);
    auto size = cupti_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = g.host->get();
    TGEMM_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    g.config.resize(size.configImageSize);
    auto image = cupti_params<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = g.host->get();
    image.configImageSize = g.config.size();
    image.pConfigImage = g.config.data();
    TGEMM_CUPTI(cuptiProfilerHostGetConfigImage(&image));
    auto passes = cupti_params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = g.config.size();
    passes.pConfigImage = g.config.data();
    TGEMM_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
    g.passes = passes.numOfPasses;
    return g;
}

// First-fit packing: each metric joins the first group of its family that stays one hardware
// pass with it. Fewer groups mean fewer profiled launches per measurement; families never
// share a group, so a rung without tensor cores skips the tensor groups whole.
std::vector<metric_group> plan_groups(const std::string& chip,
                                      const std::vector<std::uint8_t>& availability) {
    std::vector<std::pair<metric_family, std::vector<std::string>>> names;
    for (const auto& t : metric_table()) {
        bool placed = false;
        for (auto& [family, group] : names) {
            if (family != t.family) continue;
            auto trial = group;
            trial.emplace_back(t.metric);
            if (configure(chip, availability, trial).passes <= 1) {
                group = std::move(trial);
                placed = true;
                break;
            }
        }
        if (!placed) names.push_back({t.family, {std::string(t.metric)}});
    }
    std::vector<metric_group> groups;
    for (const auto& [family, group] : names) {
        groups.push_back(configure(chip, availability, group));
        groups.back().family = family;
    }
    return groups;
}

CUcontext current_context() {
    using get_ctx_fn = CUresult (*)(CUcontext*);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !fn)
        TGEMM_THROW(device, "the CUDA driver does not provide cuCtxGetCurrent");
    CUcontext ctx = nullptr;
    if (reinterpret_cast<get_ctx_fn>(fn)(&ctx) != CUDA_SUCCESS || !ctx)
        TGEMM_THROW(internal, "no current CUDA context to profile");
    return ctx;
}

// Enables the Range Profiler on a context for one group's collection; disables on scope exit.
class range_profiler {
  public:
    explicit range_profiler(CUcontext ctx) {
        auto p = cupti_params<CUpti_RangeProfiler_Enable_Params>(
            CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
        p.ctx = ctx;
        TGEMM_CUPTI(cuptiRangeProfilerEnable(&p));
        m_obj = p.pRangeProfilerObject;
    }
    ~range_profiler() {
        auto p = cupti_params<CUpti_RangeProfiler_Disable_Params>(
            CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = m_obj;
        cuptiRangeProfilerDisable(&p);
    }
    range_profiler(const range_profiler&) = delete;
    range_profiler& operator=(const range_profiler&) = delete;
    [[nodiscard]] CUpti_RangeProfiler_Object* get() const { return m_obj; }

  private:
    CUpti_RangeProfiler_Object* m_obj = nullptr;
};

// Kernels one launch may contain (cuBLAS can split a GEMM); more would be dropped and caught.
constexpr std::size_t max_ranges = 16;

}  // namespace

// Wall time per phase of the collection, summed over a session; printed to stderr when
// TGEMM_CUPTI_TIMING is set (docs/benchmark.md, "Profiling cost", says where the time goes).
struct phase_times {
    static constexpr std::array<const char*, 8> names = {
        "enable/disable", "counter image",     "set config",  "prepare",
        "start",          "push, launch, pop", "stop + sync", "decode + evaluate"};
    std::array<double, names.size()> seconds{};
    int collections = 0;  // jobs
    int batches = 0;
    int groups = 0;  // group sessions
    template <class F>
    void time(std::size_t phase, F&& f) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        seconds[phase] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
};

struct counter_session::impl {
    int device = 0;
    cupti_ranges ranges = cupti_ranges::user;
    CUcontext ctx = nullptr;
    std::string chip;
    std::vector<std::uint8_t> availability;
    std::vector<metric_group> groups;
    std::vector<std::vector<std::string>> group_names;
    phase_times times;
};

counter_session::counter_session(int device_index, cupti_ranges ranges)
    : m_impl(std::make_unique<impl>()) {
    auto& m = *m_impl;
    m.device = device_index;
    m.ranges = ranges;
    m.ctx = current_context();
    auto init = cupti_params<CUpti_Profiler_Initialize_Params>(
        CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    TGEMM_CUPTI(cuptiProfilerInitialize(&init));

    auto sup = cupti_params<CUpti_Profiler_DeviceSupported_Params>(
        CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
    sup.cuDevice = device_index;
    sup.api = CUPTI_PROFILER_RANGE_PROFILING;
    TGEMM_CUPTI(cuptiProfilerDeviceSupported(&sup));
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        const char* why = sup.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                              ? "its architecture is older than compute capability 7.0"
                          : sup.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                              ? "it is a virtual GPU without profiling enabled"
                          : sup.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                              ? "confidential computing is on"
                          : sup.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                              ? "WSL does not expose the counters"
                              : "the driver reports it unsupported";
        TGEMM_THROW(device, "this GPU cannot be profiled with CUPTI: {}", why);
    }

    auto name =
        cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    name.deviceIndex = static_cast<std::size_t>(device_index);
    TGEMM_CUPTI(cuptiDeviceGetChipName(&name));
    m.chip = name.pChipName;

    auto avail = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    avail.ctx = m.ctx;
    TGEMM_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
    m.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = m.availability.data();
    TGEMM_CUPTI(cuptiProfilerGetCounterAvailability(&avail));

    m.groups = plan_groups(m.chip, m.availability);
    for (const auto& g : m.groups) m.group_names.push_back(g.metrics);
}

counter_session::~counter_session() {
    if (std::getenv("TGEMM_CUPTI_TIMING")) {
        const auto& t = m_impl->times;
        std::fprintf(stderr, "cupti timing: %d launches in %d batches, %d group sessions\n",
                     t.collections, t.batches, t.groups);
        for (std::size_t i = 0; i < t.names.size(); ++i)
            std::fprintf(stderr, "cupti timing: %-22s %8.3f s\n", t.names[i], t.seconds[i]);
    }
    m_impl->groups.clear();  // host objects go before the profiler is de-initialised
    auto p = cupti_params<CUpti_Profiler_DeInitialize_Params>(
        CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cuptiProfilerDeInitialize(&p);
}

const std::string& counter_session::chip() const {
    return m_impl->chip;
}
const std::vector<std::vector<std::string>>& counter_session::groups() const {
    return m_impl->group_names;
}
std::vector<std::vector<std::string>> counter_session::groups_counted(bool tensor) const {
    std::vector<std::vector<std::string>> out;
    for (const auto& g : m_impl->groups)
        if (counts_job(g, tensor)) out.push_back(g.metrics);
    return out;
}

namespace {

// Metric values of one job, by CUPTI metric name, as the ranges add them up.
using metric_sums = std::map<std::string, double, std::less<>>;

// One group's collection for `members` (indices into the jobs): one Range Profiler, one counter
// data image, one start/stop per pass.
class group_collection {
  public:
    group_collection(CUcontext ctx, metric_group& g, phase_times& t, cupti_ranges ranges)
        : m_g(g), m_t(t), m_kernel_ranges(ranges == cupti_ranges::kernel) {
        t.time(0, [&] { m_rp = std::make_unique<range_profiler>(ctx); });
        m_names = c_names(g.metrics);
    }
    ~group_collection() {
        m_t.time(0, [&] { m_rp.reset(); });
    }
    group_collection(const group_collection&) = delete;
    group_collection& operator=(const group_collection&) = delete;

    // Launches every member (prepared, in a range each) and adds each one's values to its sums.
    void run(const std::vector<counter_job>& jobs, const std::vector<std::size_t>& members,
             std::vector<metric_sums>& sums, std::vector<counter_values>& out) {
        const bool user_replay = m_g.passes <= 1;
        // A user range per member; under kernel replay (one member) a range per kernel; with
        // kernel ranges, each member's preparation kernels and launch kernels.
        std::size_t ranges = user_replay ? members.size() : max_ranges;
        if (user_replay && m_kernel_ranges) {
            ranges = 0;
            for (const auto i : members)
                ranges += static_cast<std::size_t>(jobs[i].prepare_kernels) + max_ranges;
        }
        configure(ranges, user_replay);
        launch_all(jobs, members, user_replay, out);
        const auto t_decode = std::chrono::steady_clock::now();
        evaluate(jobs, members, user_replay, sums, out);
        m_t.seconds[7] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t_decode).count();
    }

  private:
    void configure(std::size_t ranges, bool user_replay) {
        auto size = cupti_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
        size.pRangeProfilerObject = m_rp->get();
        size.pMetricNames = m_names.data();
        size.numMetrics = m_names.size();
        size.maxNumOfRanges = ranges;
        size.maxNumRangeTreeNodes = ranges;
        m_t.time(1, [&] {
            TGEMM_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
            m_data.resize(size.counterDataSize);
            auto init = cupti_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
                CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
            init.pRangeProfilerObject = m_rp->get();
            init.counterDataSize = m_data.size();
            init.pCounterData = m_data.data();
            TGEMM_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));
        });
        auto cfg = cupti_params<CUpti_RangeProfiler_SetConfig_Params>(
            CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
        cfg.pRangeProfilerObject = m_rp->get();
        cfg.configSize = m_g.config.size();
        cfg.pConfig = m_g.config.data();
        cfg.counterDataImageSize = m_data.size();
        cfg.pCounterDataImage = m_data.data();
        // A one-pass group is replayed by us (user replay) inside user ranges, so each
        // preparation can run after cuptiRangeProfilerStart and outside the counted ranges.
        // Starting the profiler leaves dirty lines in L2 (about 20 MB on the H100, 6-9 MB on the
        // H200, measured by Collector.KnownTrafficKernels): prepared before the start, the
        // counted kernel evicted and wrote them back. Kernel replay (more than one pass) refuses
        // user ranges (CUPTI_ERROR_INVALID_OPERATION), so those groups keep automatic ranges
        // and are prepared before the start; no DRAM or L2 metric is in such a group.
        cfg.range = user_replay && !m_kernel_ranges ? CUPTI_UserRange : CUPTI_AutoRange;
        cfg.replayMode = user_replay ? CUPTI_UserReplay : CUPTI_KernelReplay;
        cfg.maxRangesPerPass = ranges;
        cfg.numNestingLevels = 1;
        cfg.minNestingLevel = 1;
        cfg.passIndex = 0;
        cfg.targetNestingLevel = 1;
        m_t.time(2, [&] { TGEMM_CUPTI(cuptiRangeProfilerSetConfig(&cfg)); });
    }

    void prepare(const counter_job& job) {
        m_t.time(3, [&] {
            job.prepare();
            if (const auto e = cudaDeviceSynchronize(); e != cudaSuccess)
                TGEMM_THROW(internal, "preparing a profiled launch failed: {}",
                            cudaGetErrorString(e));
        });
    }

    void launch_all(const std::vector<counter_job>& jobs, const std::vector<std::size_t>& members,
                    bool user_replay, std::vector<counter_values>& out) {
        bool all_submitted = false;
        for (int pass = 0; !all_submitted; ++pass) {
            if (pass > 64) TGEMM_THROW(internal, "CUPTI asked for more than 64 replay passes");
            // Kernel replay repeats only the kernel, so only its first pass is prepared.
            if (!user_replay && pass == 0) prepare(jobs[members.front()]);
            auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(
                CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
            start.pRangeProfilerObject = m_rp->get();
            m_t.time(4, [&] { TGEMM_CUPTI(cuptiRangeProfilerStart(&start)); });
            for (std::size_t r = 0; r < members.size(); ++r) {
                const auto& job = jobs[members[r]];
                if (user_replay) prepare(job);
                const bool push_range = user_replay && !m_kernel_ranges;
                m_t.time(5, [&] {
                    if (push_range) {
                        const auto name = std::to_string(r);
                        auto push = cupti_params<CUpti_RangeProfiler_PushRange_Params>(
                            CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
                        push.pRangeProfilerObject = m_rp->get();
                        push.pRangeName = name.c_str();
                        TGEMM_CUPTI(cuptiRangeProfilerPushRange(&push));
                    }
                    job.launch();
                    if (push_range) {
                        auto pop = cupti_params<CUpti_RangeProfiler_PopRange_Params>(
                            CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
                        pop.pRangeProfilerObject = m_rp->get();
                        TGEMM_CUPTI(cuptiRangeProfilerPopRange(&pop));
                    }
                });
                ++out[members[r]].launches;
            }
            auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(
                CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
            stop.pRangeProfilerObject = m_rp->get();
            m_t.time(6, [&] { TGEMM_CUPTI(cuptiRangeProfilerStop(&stop)); });
            all_submitted = stop.isAllPassSubmitted != 0;
        }
        m_t.time(6, [&] {
            if (const auto e = cudaDeviceSynchronize(); e != cudaSuccess)
                TGEMM_THROW(internal, "a profiled kernel failed: {}", cudaGetErrorString(e));
        });
    }

    // Range r of a user-replay session is member r: the name pushed with it says so.
    void check_range_name(std::size_t r) const {
        auto info = cupti_params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
        info.pCounterDataImage = m_data.data();
        info.counterDataImageSize = m_data.size();
        info.rangeIndex = r;
        info.rangeDelimiter = "/";
        TGEMM_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&info));
        const std::string name = info.rangeName ? info.rangeName : "";
        if (name != std::to_string(r))
            TGEMM_THROW(internal,
                        "CUPTI's range {} is named '{}', not '{}': the ranges of a batch "
                        "came back out of order",
                        r, name, r);
    }

    void evaluate(const std::vector<counter_job>& jobs, const std::vector<std::size_t>& members,
                  bool user_replay, std::vector<metric_sums>& sums,
                  std::vector<counter_values>& out) {
        auto decode = cupti_params<CUpti_RangeProfiler_DecodeData_Params>(
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        decode.pRangeProfilerObject = m_rp->get();
        TGEMM_CUPTI(cuptiRangeProfilerDecodeData(&decode));
        if (decode.numOfRangeDropped != 0)
            TGEMM_THROW(internal, "CUPTI dropped {} of the profiled kernels' ranges",
                        decode.numOfRangeDropped);
        auto info = cupti_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
            CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
        info.pCounterDataImage = m_data.data();
        info.counterDataImageSize = m_data.size();
        TGEMM_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
        if (info.numTotalRanges == 0)
            TGEMM_THROW(internal, "CUPTI recorded no kernel: the launch did not reach the GPU");
        // Under kernel replay every range is a kernel of the one member's launch.
        std::vector<std::optional<std::size_t>> owner(info.numTotalRanges, std::size_t{0});
        if (user_replay) {
            std::vector<int> prepare_kernels;
            for (const auto i : members) prepare_kernels.push_back(jobs[i].prepare_kernels);
            owner = range_owners(prepare_kernels, info.numTotalRanges, m_kernel_ranges);
        }
        std::map<std::size_t, double> kernels;  // ranges per job, for the rates' mean
        for (const auto& o : owner)
            if (o) kernels[members[*o]] += 1.0;

        std::vector<double> values(m_names.size());
        for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
            if (!owner[r]) continue;  // a preparation kernel's range
            const std::size_t job = members[*owner[r]];
            if (user_replay && !m_kernel_ranges) check_range_name(r);
            out[job].ranges += 1;
            auto eval = cupti_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
            eval.pHostObject = m_g.host->get();
            eval.pCounterDataImage = m_data.data();
            eval.counterDataImageSize = m_data.size();
            eval.rangeIndex = r;
            eval.ppMetricNames = m_names.data();
            eval.numMetrics = m_names.size();
            eval.pMetricValues = values.data();
            TGEMM_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&eval));
            for (std::size_t i = 0; i < m_names.size(); ++i) {
                if (!std::isfinite(values[i]))
                    TGEMM_THROW(internal, "CUPTI returned {} for {} (a replay pass did not run)",
                                values[i], m_names[i]);
                // Sums add over kernels; a rate or a ratio (clock, IPC, % of peak) is an
                // average, kept as the mean.
                const bool rate = !m_g.metrics[i].ends_with(".sum");
                sums[job][m_g.metrics[i]] += rate ? values[i] / kernels[job] : values[i];
            }
        }
    }

    metric_group& m_g;
    phase_times& m_t;
    bool m_kernel_ranges = false;
    std::unique_ptr<range_profiler> m_rp;
    std::vector<const char*> m_names;
    std::vector<std::uint8_t> m_data;
};

// A one-pass group's batch in one profiler start. In kernel ranges a batch whose launches are
// not one kernel each cannot be told apart (collect/range_owners.hpp): it is counted again
// launch by launch, its first launches not counted.
void collect_one_pass(CUcontext ctx, phase_times& times, cupti_ranges ranges, metric_group& g,
                      const std::vector<counter_job>& jobs, const std::vector<std::size_t>& members,
                      std::vector<metric_sums>& sums, std::vector<counter_values>& out) {
    std::vector<int> launches;
    for (const auto i : members) launches.push_back(out[i].launches);
    try {
        group_collection(ctx, g, times, ranges).run(jobs, members, sums, out);
    } catch (const ranges_unmatched&) {
        if (members.size() == 1) throw;
        for (std::size_t r = 0; r < members.size(); ++r) out[members[r]].launches = launches[r];
        for (const auto i : members)
            group_collection(ctx, g, times, ranges).run(jobs, {i}, sums, out);
    }
}

}  // namespace

std::vector<counter_values> counter_session::collect(const std::vector<counter_job>& jobs) {
    auto& m = *m_impl;
    std::vector<counter_values> out(jobs.size());
    if (jobs.empty()) return out;
    std::vector<metric_sums> sums(jobs.size());
    m.times.collections += static_cast<int>(jobs.size());
    ++m.times.batches;
    for (auto& g : m.groups) {
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < jobs.size(); ++i)
            if (counts_job(g, jobs[i].tensor)) members.push_back(i);
        if (members.empty()) continue;
        ++m.times.groups;
        // One Range Profiler per group: one enabled for a session's groups in turn returned
        // NaN for every group after the first (H100, CUDA 13.0, 2026-11-25). Kernel replay
        // takes one launch per session.
        if (g.passes <= 1) {
            collect_one_pass(m.ctx, m.times, m.ranges, g, jobs, members, sums, out);
        } else {
            for (const auto i : members)
                group_collection(m.ctx, g, m.times, m.ranges).run(jobs, {i}, sums, out);
        }
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        for (const auto& t : metric_table()) {
            const auto it = sums[j].find(t.metric);
            if (it != sums[j].end()) out[j].values[std::string(t.key)] = it->second * t.scale;
        }
    }
    return out;
}

counter_values counter_session::collect(const std::function<void()>& prepare,
                                        const std::function<void()>& launch, bool tensor) {
    return collect(std::vector<counter_job>{{prepare, launch, tensor}}).front();
}
std::vector<std::vector<std::string>> plan_metric_groups(const std::string& chip) {
    std::vector<std::vector<std::string>> out;
    for (const auto& g : plan_groups(chip, {})) out.push_back(g.metrics);
    return out;
}

}  // namespace tgemm
