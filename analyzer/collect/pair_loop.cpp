#include "collect/pair_loop.hpp"

#include <csignal>

#include "analysis/repeatability.hpp"
#include "collect/stop_request.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

namespace {

constexpr std::string_view verification_prefix = "verification failed: ";

std::string signal_name(int sig) {
    if (sig == SIGINT) return "SIGINT (Ctrl-C)";
    if (sig == SIGTERM) return "SIGTERM";
    return fmt::format("signal {}", sig);
}

// "3 of 8 pairs", or with --repeat "7 of 16 pair measurements (8 pairs x --repeat 2)".
std::string count_text(std::size_t done, std::size_t pairs, int repeat) {
    if (repeat == 1) return fmt::format("{} of {} pair(s)", done, pairs);
    return fmt::format("{} of {} pair measurement(s) ({} pairs x --repeat {})", done,
                       pairs * static_cast<std::size_t>(repeat), pairs, repeat);
}

std::string kept_text(std::size_t done, std::size_t pairs, int repeat,
                      const std::filesystem::path& path) {
    const auto total = pairs * static_cast<std::size_t>(repeat);
    return fmt::format(
        "{} are kept in {}: run the same command with --resume to measure the other {}",
        count_text(done, pairs, repeat), path.string(), total - done);
}

// The rows of run r: the first run's in the header profile, the others' beside it.
std::vector<measurement>& rows_of(partial_profile& p, int r) {
    return r == 0 ? p.done.measurements : p.later_runs[static_cast<std::size_t>(r - 1)];
}

// A resumed checkpoint must hold a prefix of this run's pairs: each run whole before the next.
void check_resumed(const pair_run& run, partial_profile& p, const std::filesystem::path& path) {
    const auto n = run.items.size();
    if (p.later_runs.size() > static_cast<std::size_t>(run.repeat - 1))
        TGEMM_THROW(input, "{} holds {} runs of the work list, more than --repeat {}",
                    path.string(), p.later_runs.size() + 1, run.repeat);
    p.later_runs.resize(static_cast<std::size_t>(run.repeat - 1));
    bool open = false;  // a run before this one is incomplete
    for (int r = 0; r < run.repeat; ++r) {
        const auto& rows = rows_of(p, r);
        if (rows.size() > n || (open && !rows.empty()))
            TGEMM_THROW(input,
                        "{}: run {} holds {} rows where {} are expected: delete the file "
                        "to start again",
                        path.string(), r + 1, rows.size(), open ? 0 : n);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& item = run.items[i];
            if (rows[i].kernel != run.kernels[item.kernel] || rows[i].size != item.size)
                TGEMM_THROW(input,
                            "{}: row {} of run {} is {} at {}, but this run's pair there is {} at "
                            "{}: the file is not this command's; delete it to start again",
                            path.string(), i, r + 1, printable(rows[i].kernel, 60),
                            to_string(rows[i].size), run.kernels[item.kernel],
                            to_string(item.size));
        }
        open = open || rows.size() < n;
    }
}

// "naive 4096³", or for a batch "naive .. cublas 4096³ (12 pairs)".
std::string batch_label(const pair_run& run, std::span<const work_item> batch) {
    const auto size = to_string(batch.front().size);
    const auto& first = run.kernels[batch.front().kernel];
    if (batch.size() == 1) return fmt::format("{} {}", first, size);
    return fmt::format("{} .. {} {} ({} pairs)", first, run.kernels[batch.back().kernel], size,
                       batch.size());
}

}  // namespace

batch_measurer pair_by_pair(pair_measurer measure) {
    return [measure = std::move(measure)](std::span<const work_item> items, int run) {
        std::vector<measurement> rows;
        for (const auto& item : items) rows.push_back(measure(item, run));
        return rows;
    };
}

void checkpoint::save() const {
    if (!path.empty()) write_partial(path, content);
}

pair_run_result run_pairs(const pair_run& run, checkpoint& cp) {
    if (run.repeat < 1) TGEMM_THROW(internal, "--repeat {} is below 1", run.repeat);
    auto& p = cp.content;
    check_resumed(run, p, cp.path);
    const auto n = run.items.size();
    const auto total = n * static_cast<std::size_t>(run.repeat);
    std::size_t done = 0;
    for (int r = 0; r < run.repeat; ++r) done += rows_of(p, r).size();
    const auto progress = [&](const std::string& what) {
        if (run.on_progress)
            run.on_progress({static_cast<int>(done), static_cast<int>(total), what});
    };
    const auto signal = run.stop_signal ? run.stop_signal : [] { return stop_signal(); };

    cp.save();  // before any pair: a folder it cannot write fails now, not after an hour
    for (int r = 0; r < run.repeat; ++r) {
        auto& rows = rows_of(p, r);
        for (std::size_t i = rows.size(); i < n;) {
            if (const int sig = signal())
                TGEMM_THROW(interrupted, "stopped by {}: {}", signal_name(sig),
                            kept_text(done, n, run.repeat, cp.path));
            std::size_t end = i + 1;
            while (end < n && end - i < run.batch && run.items[end].size == run.items[i].size)
                ++end;
            const std::span<const work_item> batch(run.items.data() + i, end - i);
            const auto label = batch_label(run, batch);
            const auto pairs = end - i == 1 ? fmt::format("pair {} of {}", i + 1, n)
                                            : fmt::format("pairs {}-{} of {}", i + 1, end, n);
            const auto where = run.repeat == 1
                                   ? fmt::format("while measuring {}, {}", label, pairs)
                                   : fmt::format("while measuring {}, {} in run {} of {}", label,
                                                 pairs, r + 1, run.repeat);
            progress(label);
            std::vector<measurement> measured;
            try {
                measured = run.measure(batch, r);
            } catch (const error& e) {
                throw error(e.kind(), fmt::format("{} ({}); {}", e.what(), where,
                                                  kept_text(done, n, run.repeat, cp.path)));
            } catch (const std::exception& e) {
                throw error(error_kind::internal,
                            fmt::format("{} ({}); {}", e.what(), where,
                                        kept_text(done, n, run.repeat, cp.path)));
            }
            if (measured.size() != batch.size())
                TGEMM_THROW(internal, "{} rows came back for {} pairs ({})", measured.size(),
                            batch.size(), where);
            for (auto& row : measured) rows.push_back(std::move(row));
            done += batch.size();
            cp.save();
            progress(label + ": done");
            i = end;
        }
    }

    pair_run_result out;
    out.result = p.done;
    out.result.measurements.clear();
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<measurement> runs;
        for (int r = 0; r < run.repeat; ++r) runs.push_back(rows_of(p, r)[i]);
        out.result.measurements.push_back(with_repeats(runs));
        // One line per pair that failed verification, from the first run it failed in.
        for (const auto& m : runs)
            if (m.skipped && m.skipped->starts_with(verification_prefix)) {
                out.failures.push_back(fmt::format(
                    "{} at {}", m.skipped->substr(verification_prefix.size()), to_string(m.size)));
                break;
            }
    }
    return out;
}

}  // namespace tgemm
