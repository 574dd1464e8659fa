// The default command: measure when this machine has the requested GPU, otherwise render the
// stored profile, otherwise the predicted roofline.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/device_fleet.hpp"
#include "cli/profile_source.hpp"
#include "cli/progress_bar.hpp"
#include "cli/render_stored.hpp"
#include "cli/resume.hpp"
#include "cli/size_plan.hpp"
#include "collect/device.hpp"
#include "collect/measure.hpp"
#include "collect/stop_request.hpp"
#include "core/atomic_file.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "gpu/spec.hpp"
#include "ladder/predict.hpp"
#include "profile/partial_profile.hpp"
#include "profile/profile_file.hpp"
#include "render/render_all.hpp"

namespace tgemm::cli {

namespace fs = std::filesystem;

namespace {

// The GPU with no local device and no --gpu: the profile the project ships.
constexpr const char* shipped_gpu = "h100";

struct target {
    std::string key;
    std::optional<local_device> local;  // set when this machine has that GPU
    // Why this machine has no usable GPU at all (no driver, one too old for the runtime), so
    // that rendering instead of measuring says why; empty when it has one.
    std::string why_none;
};

target resolve_target(const std::string& requested, std::ostream& err) {
    const auto probe = probe_local_device();
    if (lower(requested) == "auto") {
        if (probe.device) return {probe.device->info.key, probe.device, {}};
        err << "tgemm-roofline: " << probe.why_none << "; using the shipped '" << shipped_gpu
            << "' profile (pass --gpu to choose another)\n";
        return {shipped_gpu, std::nullopt, {}};  // the reason is said above
    }
    const auto& spec = find_gpu(requested);  // throws on an unknown name, with a suggestion
    if (probe.device && probe.device->info.key == spec.key) return {spec.key, probe.device, {}};
    return {spec.key, std::nullopt, probe.why_none};
}

// The warnings and failures of a run, after its files are written.
int finish(const measure_outcome& outcome, std::ostream& err) {
    for (const auto& w : outcome.peak_warnings) err << "tgemm-roofline: " << w << "\n";
    for (const auto& f : outcome.failures) err << "tgemm-roofline: " << f << "\n";
    if (!outcome.failures.empty())
        TGEMM_THROW(verify, "{} kernel/size pair(s) failed verification and were not measured",
                    outcome.failures.size());
    return 0;
}

int measure_and_render(const local_device& dev, const main_options& o,
                       const std::vector<const rung*>& rungs, const std::vector<shape>& shapes,
                       const std::vector<shape>& tensor_only, const shard& part,
                       const fs::path& profile_path, const fs::path& out_dir,
                       const std::string& command_line, std::ostream& out, std::ostream& err) {
    measure_options mo;
    mo.rungs = rungs;
    mo.shapes = shapes;
    mo.tensor_only_shapes = tensor_only;
    mo.part = part;
    err << "tgemm-roofline: measuring on this machine's " << dev.info.name << " (" << rungs.size()
        << " kernels x " << shapes.size() << " sizes";
    if (!part.whole())
        err << "; shard " << to_string(part) << ": " << part.size_of(mo.work_list().size())
            << " of " << mo.work_list().size() << " pairs";
    err << ")\n";
    mo.counters = !o.no_counters;
    mo.wait_for_counters_s = o.wait_for_counters;
    mo.on_notice = [&](const std::string& line) { err << "tgemm-roofline: " << line << "\n"; };
    mo.peaks = !o.no_peaks;
    mo.timing.min_runs = o.runs;
    mo.timing.noise_target = o.noise_target_pct / 100;
    mo.timing.max_time_s = o.max_time_per_pair;
    mo.repeat = o.repeat;
    mo.counter_batch = static_cast<std::size_t>(o.counter_batch);
    mo.counted_ranges = o.cupti_ranges == "kernel" ? cupti_ranges::kernel : cupti_ranges::user;
    mo.command = command_line;
    // The checkpoint: written after every batch of pairs, continued by --resume, removed once the
    // profile is written.
    mo.partial_path = partial_path_for(profile_path);
    mo.resume = stopped_run_to_resume(mo.partial_path, o.resume, mo.identity(dev));
    if (mo.resume) {
        std::size_t kept = mo.resume->done.measurements.size();
        for (const auto& run : mo.resume->later_runs) kept += run.size();
        err << "tgemm-roofline: --resume: " << kept << " pair measurement(s) kept from "
            << mo.partial_path.string() << " (started " << mo.resume->done.env.date << ")\n";
    }
    measure_outcome outcome;
    {
        // Ctrl-C or SIGTERM now ends the run after the batch in flight, keeping the others.
        const stop_on_signals stop_guard;
        progress_bar bar(err);
        std::ofstream events;
        if (!o.progress_file.empty()) events.open(o.progress_file, std::ios::app);
        mo.on_progress = [&](const progress_event& e) {
            bar.update(e);
            if (events) events << e.done << " " << e.total << " " << e.what << std::endl;
        };
        outcome = measure(dev, mo);
    }
    const auto kept = write_profile(profile_path, outcome.result);
    if (kept) err << "tgemm-roofline: kept the previous profile as " << kept->string() << "\n";
    out << "wrote " << profile_path.string() << "\n";
    std::error_code ec;
    fs::remove(mo.partial_path, ec);  // the profile holds every pair now
    if (ec)
        err << "tgemm-roofline: cannot remove the finished run's checkpoint "
            << mo.partial_path.string() << ": " << ec.message() << "\n";
    if (!o.progress_file.empty()) return finish(outcome, err);  // --device's parent renders
    if (!part.whole()) {
        // One shard's report would show a fraction of the ladder as if it were the run.
        out << "a shard renders no report: merge the shards (tgemm-roofline merge ... -o OUT.json) "
               "and render that\n";
        return finish(outcome, err);
    }
    render_stored(outcome.result, out_dir, profile_path.string());
    out << "wrote " << (out_dir / "report.md").string() << " and "
        << (out_dir / "roofline.png").string() << "\n";
    return finish(outcome, err);
}

// profiles/<gpu><infix>.json, or a shard's name: a shard never takes the whole run's file.
std::string default_profile_name(const std::string& gpu, const std::string& infix,
                                 const shard& part) {
    return part.whole()
               ? gpu + infix + ".json"
               : fmt::format("{}{}.shard-{}-of-{}.json", gpu, infix, part.index, part.count);
}

// --predict: the predicted profile of the work list (or of one shard of it) is written like a
// measured one, and nothing touches a GPU. The default name keeps it apart from a measured
// profile of that GPU.
int write_prediction(const main_options& o, const std::vector<const rung*>& rungs,
                     const std::vector<shape>& shapes, const std::vector<shape>& tensor_only,
                     const shard& part, const std::string& command_line, std::ostream& out,
                     std::ostream& err) {
    const auto gpu = lower(o.gpu) == "auto" ? std::string(shipped_gpu) : o.gpu;
    const auto& spec = find_gpu(gpu);
    const fs::path profile_path =
        o.profile.empty()
            ? fs::path("profiles") / default_profile_name(spec.key, ".predicted", part)
            : fs::path(o.profile);
    ensure_writable_dir(profile_path.has_parent_path() ? profile_path.parent_path()
                                                       : fs::path("."));
    const auto p =
        predict_profile(spec, rungs, shapes, command_line, utc_now_iso8601(), tensor_only, part);
    err << "tgemm-roofline: --predict: the PREDICTED profile of " << spec.key << " ("
        << p.measurements.size() << " of " << p.env.work_list->size
        << " pairs), from the spec database and the models; no GPU is used\n";
    const auto kept = write_profile(profile_path, p);
    if (kept) err << "tgemm-roofline: kept the previous profile as " << kept->string() << "\n";
    out << "wrote " << profile_path.string() << "\n";
    return 0;
}

}  // namespace

int run_main_job(const main_options& o, const std::string& command_line, std::ostream& out,
                 std::ostream& err) {
    // Validate everything the user typed before touching the GPU or the disk.
    const auto [shapes, tensor_only] = plan_sizes(o);
    const auto rungs = rung_registry::get().select(o.kernels);
    const auto part = o.shard.empty() ? shard{} : parse_shard(o.shard);
    if (o.each_gpu && o.device.empty())
        TGEMM_THROW(usage,
                    "--each-gpu goes with --device all (or an index): it says what each "
                    "GPU of the node measures");
    if (!o.device.empty()) return run_on_devices(o, command_line, out, err);
    if (o.predict && o.resume)
        TGEMM_THROW(usage, "--resume continues a measuring run; --predict measures nothing");
    if (o.predict)
        return write_prediction(o, rungs, shapes, tensor_only, part, command_line, out, err);
    const auto t = resolve_target(o.gpu, err);
    if (!part.whole() && !(t.local && !o.offline))
        TGEMM_THROW(usage, "--shard {} measures, and there is no {} to measure on here{}",
                    to_string(part), t.key, o.offline ? " (--offline)" : "");
    if (o.resume && !(t.local && !o.offline))
        TGEMM_THROW(usage,
                    "--resume continues a measuring run, and there is no {} to measure on "
                    "here{}",
                    t.key, o.offline ? " (--offline)" : "");
    const fs::path profile_path = o.profile.empty()
                                      ? fs::path("profiles") / default_profile_name(t.key, "", part)
                                      : fs::path(o.profile);
    const fs::path out_dir = o.out.empty() ? fs::path("reports") / t.key : fs::path(o.out);
    if (part.whole()) ensure_writable_dir(out_dir);  // a shard renders no report

    if (t.local && !o.offline) {
        ensure_writable_dir(profile_path.has_parent_path() ? profile_path.parent_path()
                                                           : fs::path("."));
        return measure_and_render(*t.local, o, rungs, shapes, tensor_only, part, profile_path,
                                  out_dir, command_line, out, err);
    }

    if (const auto stored = load_stored_profile(profile_path, t.key)) {
        err << "tgemm-roofline: no " << t.key << " on this machine"
            << (o.offline            ? " used (--offline)"
                : t.why_none.empty() ? ""
                                     : " (" + t.why_none + ")")
            << "; rendering the stored profile from " << stored->origin << " (measured "
            << stored->data.env.date << ")\n";
        render_stored(stored->data, out_dir, stored->origin);
    } else {
        err << "tgemm-roofline: no " << t.key << " here and no stored profile at "
            << profile_path.string() << "; rendering the PREDICTED roofline from the spec and "
            << "the models (nothing is measured)\n";
        const auto p = predict_profile(find_gpu(t.key), rungs, shapes, command_line,
                                       utc_now_iso8601(), tensor_only);
        render_stored(p, out_dir, "prediction from the spec database and the refined models");
    }
    out << "wrote " << (out_dir / "report.md").string() << " and "
        << (out_dir / "roofline.png").string() << "\n";
    return 0;
}

}  // namespace tgemm::cli
