#include "cli/resume.hpp"

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm::cli {

namespace fs = std::filesystem;

namespace {

// "3 of 8 pairs measured by `tgemm-roofline …` on <date>"
std::string what_it_holds(const partial_profile& p) {
    std::size_t rows = p.done.measurements.size();
    for (const auto& run : p.later_runs) rows += run.size();
    std::size_t pairs = p.done.measurements.size();
    if (p.done.env.work_list)
        pairs = p.done.env.work_list->part.size_of(
            static_cast<std::size_t>(p.done.env.work_list->size));
    return fmt::format("{} of {} pair(s) measured by `{}` from {}", rows,
                       pairs * static_cast<std::size_t>(p.identity.repeat),
                       printable(p.done.env.command, 300), printable(p.done.env.date, 40));
}

}  // namespace

std::optional<partial_profile> stopped_run_to_resume(const fs::path& partial, bool resume,
                                                     const run_identity& now) {
    const bool exists = fs::exists(partial);
    if (!resume && !exists) return std::nullopt;
    if (!resume) {
        std::string held = "a stopped run";
        try {
            held = "a stopped run (" + what_it_holds(read_partial(partial)) + ")";
        } catch (const error&) {
            // Unreadable: still somebody's run; the refusal below stands.
        }
        TGEMM_THROW(usage,
                    "{} holds {}: add --resume to continue it, or delete the file to start again",
                    partial.string(), held);
    }
    if (!exists)
        TGEMM_THROW(usage, "--resume: there is no stopped run to continue ({} does not exist)",
                    partial.string());
    auto stored = read_partial(partial);
    if (const auto why = identity_difference(stored.identity, now))
        TGEMM_THROW(usage,
                    "--resume: {} is another run's ({}); continue it with the command that made "
                    "it, `{}` with --resume, or delete the file to start again",
                    partial.string(), *why, printable(stored.done.env.command, 300));
    return stored;
}

}  // namespace tgemm::cli
