#include "cli/device_fleet.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "cli/render_stored.hpp"
#include "collect/device.hpp"
#include "core/atomic_file.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "profile/merge.hpp"
#include "profile/profile_file.hpp"

extern char** environ;

namespace tgemm::cli {

namespace fs = std::filesystem;

namespace {

struct child {
    int gpu = 0;  // index on this node
    pid_t pid = -1;
    fs::path profile, log, events;
    int status = -1;
    bool running = true;
    // The profile an earlier run left at this child's path, if any: its time, so that a child
    // that fails before writing is not credited with that file's rows.
    std::optional<fs::file_time_type> earlier;
    [[nodiscard]] bool wrote_profile() const {
        std::error_code ec;
        const auto t = fs::last_write_time(profile, ec);
        return !ec && (!earlier || t != *earlier);
    }
};

// The user's arguments without the ones each child gets its own value of.
std::vector<std::string> child_args(const std::vector<std::string>& args) {
    static const std::vector<std::string> own = {"--device", "--profile", "--shard", "--out",
                                                 "--progress-file"};
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        bool drop = a == "--each-gpu";  // the parent's mode, a flag without a value
        for (const auto& o : own) {
            if (a == o) {
                drop = true;
                ++i;  // and its value
            } else if (a.starts_with(o + "=")) {
                drop = true;
            }
        }
        if (!drop) kept.push_back(a);
    }
    return kept;
}

// The index --device names, or nothing for "all"; anything else is a usage error.
std::optional<int> device_index(const std::string& text) {
    if (lower(text) == "all") return std::nullopt;
    if (text.empty() || text.size() > 4 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        TGEMM_THROW(usage, "--device takes a GPU index (0, 1, ...) or all, not '{}'",
                    printable(text));
    return std::stoi(text);
}

pid_t spawn(const std::vector<std::string>& args, int gpu, const fs::path& log) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e; ++e)
        if (!std::string_view(*e).starts_with("CUDA_VISIBLE_DEVICES="))
            env_strings.emplace_back(*e);
    env_strings.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(gpu));
    std::vector<char*> envp, argv;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string self = "/proc/self/exe";
    argv.push_back(self.data());
    auto args_copy = args;
    for (auto& a : args_copy) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        TGEMM_THROW(internal, "cannot start the process for GPU {}: {}", gpu, std::strerror(rc));
    return pid;
}

// The last complete "done total what" line of a child's events file.
progress_event last_event(const fs::path& events) {
    progress_event e;
    std::ifstream in(events);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    std::istringstream ls(last);
    ls >> e.done >> e.total;
    std::getline(ls >> std::ws, e.what);
    return e;
}

std::string exit_text(int status) {
    if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    return "ended abnormally";
}

std::string failure_text(const child& c) {
    return fmt::format("GPU {} failed ({}){}; see {}", c.gpu, exit_text(c.status),
                       c.wrote_profile() ? ", its rows are kept" : "", c.log.string());
}

bool succeeded(const child& c) {
    return WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0;
}

// --each-gpu: every GPU measured the whole list into its own profile. Each finished GPU gets its
// report (<out>/device-<N>/), and, with two or more, the fleet report sets them side by side.
int compare_devices(const std::vector<child>& children, const fs::path& out_dir,
                    const std::string& command_line, std::ostream& out, std::ostream& err) {
    fleet_options fo;
    std::vector<std::string> failed;
    for (const auto& c : children) {
        fs::remove(c.events);
        if (!succeeded(c)) {
            failed.push_back(failure_text(c));
            continue;
        }
        const auto dir = out_dir / fmt::format("device-{}", c.gpu);
        render_stored(read_profile(c.profile), dir, c.profile.string());
        out << "wrote " << c.profile.string() << " and " << (dir / "report.md").string() << "\n";
        fo.inputs.push_back(c.profile.string());
    }
    for (const auto& f : failed) err << "tgemm-roofline: " << f << "\n";
    if (fo.inputs.size() >= 2) {
        fo.out = (out_dir / "fleet.md").string();
        run_fleet(fo, command_line, out);
    } else {
        err << "tgemm-roofline: " << fo.inputs.size()
            << " GPU(s) measured the whole list: the fleet report needs two\n";
    }
    if (!failed.empty())
        TGEMM_THROW(device, "{} of {} GPU(s) failed; the others' profiles and reports are written",
                    failed.size(), children.size());
    return 0;
}

}  // namespace

int run_on_devices(const main_options& o, const std::string& command_line, std::ostream& out,
                   std::ostream& err) {
    if (!o.shard.empty())
        TGEMM_THROW(usage,
                    "--device and --shard do not combine: --device {} makes one shard per GPU",
                    printable(o.device));
    if (o.offline || o.predict)
        TGEMM_THROW(usage, "--device measures; it does not combine with {}",
                    o.offline ? "--offline" : "--predict");
    const auto index = device_index(o.device);
    const int visible = visible_gpu_count();
    if (visible == 0)
        TGEMM_THROW(device, "--device {}: {}", printable(o.device), probe_local_device().why_none);
    if (index && *index >= visible)
        TGEMM_THROW(input, "--device {}: this node shows {} GPU(s) (indices 0 to {})", *index,
                    visible, visible - 1);
    std::vector<int> gpus;
    for (int i = 0; i < visible; ++i)
        if (!index || *index == i) gpus.push_back(i);
    const auto probe = probe_local_device();
    const auto key = lower(o.gpu) == "auto" && probe.device ? probe.device->info.key : lower(o.gpu);
    const fs::path final_profile =
        o.profile.empty() ? fs::path("profiles") / (key + ".json") : fs::path(o.profile);
    const fs::path dir = final_profile.has_parent_path() ? final_profile.parent_path() : ".";
    ensure_writable_dir(dir);
    const fs::path out_dir = o.out.empty() ? fs::path("reports") / key : fs::path(o.out);
    ensure_writable_dir(out_dir);

    const int k = static_cast<int>(gpus.size());
    const auto stem = final_profile.stem().string();
    std::vector<child> children;
    for (int i = 0; i < k; ++i) {
        child c;
        c.gpu = gpus[static_cast<std::size_t>(i)];
        const auto base = o.each_gpu
                              ? fmt::format("{}.device-{}", stem, c.gpu)
                              : fmt::format("{}.device-{}.shard-{}-of-{}", stem, c.gpu, i, k);
        c.profile = dir / (base + ".json");
        c.log = dir / (base + ".log");
        c.events = dir / (base + ".progress");
        fs::remove(c.events);
        std::error_code ec;
        if (const auto t = fs::last_write_time(c.profile, ec); !ec) c.earlier = t;
        auto args = child_args(o.args);
        if (!o.each_gpu) args.insert(args.end(), {"--shard", fmt::format("{}/{}", i, k)});
        args.insert(args.end(),
                    {"--profile", c.profile.string(), "--progress-file", c.events.string()});
        c.pid = spawn(args, c.gpu, c.log);
        err << "tgemm-roofline: GPU " << c.gpu << ": "
            << (o.each_gpu ? std::string("the whole work list") : fmt::format("shard {}/{}", i, k))
            << " (pid " << c.pid << ", log " << c.log.string() << ")\n";
        children.push_back(std::move(c));
    }
    {
        progress_bar bar(err);
        progress_event shown;
        for (bool any = true; any;) {
            any = false;
            progress_event sum;
            for (auto& c : children) {
                if (c.running && waitpid(c.pid, &c.status, WNOHANG) == c.pid) c.running = false;
                any = any || c.running;
                const auto e = last_event(c.events);
                sum.done += e.done;
                sum.total += e.total;
                if (c.running && !e.what.empty())
                    sum.what = fmt::format("GPU {}: {}", c.gpu, e.what);
            }
            // Only a change is drawn: off a terminal every update is a line of the log.
            if (sum.total > 0 && (sum.done != shown.done || sum.what != shown.what)) {
                bar.update(sum);
                shown = sum;
            }
            if (any) std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }

    if (o.each_gpu) return compare_devices(children, out_dir, command_line, out, err);

    std::vector<merge_input> inputs;
    std::vector<std::string> failed;
    for (const auto& c : children) {
        if (c.wrote_profile()) inputs.push_back({c.profile.string(), read_profile(c.profile)});
        if (!succeeded(c)) failed.push_back(failure_text(c));
        fs::remove(c.events);
    }
    for (const auto& f : failed) err << "tgemm-roofline: " << f << "\n";
    if (inputs.empty())
        TGEMM_THROW(device, "no GPU wrote its shard; the logs say why ({})",
                    children.front().log.string());
    const auto merged = merge_profiles(inputs, false);
    for (const auto& n : merged.notes) err << "tgemm-roofline: " << n << "\n";
    const auto kept = write_profile(final_profile, merged.merged);
    if (kept) err << "tgemm-roofline: kept the previous profile as " << kept->string() << "\n";
    out << "wrote " << final_profile.string() << " (" << merged.merged.measurements.size()
        << " rows from " << inputs.size() << " GPU(s))\n";
    if (!failed.empty())
        TGEMM_THROW(device,
                    "{} of {} GPU(s) failed; the merged profile holds the others' rows "
                    "and no report was rendered",
                    failed.size(), k);
    render_stored(merged.merged, out_dir, final_profile.string());
    out << "wrote " << (out_dir / "report.md").string() << " and "
        << (out_dir / "roofline.png").string() << "\n";
    return 0;
}

}  // namespace tgemm::cli
