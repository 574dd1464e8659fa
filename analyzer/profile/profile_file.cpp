#include "profile/profile_file.hpp"

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "profile/profile_json.hpp"

namespace tgemm {

namespace fs = std::filesystem;

profile parse_profile(std::string_view text, const std::string& origin) {
    const auto name = printable(origin, 400);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // A syntax error, or a number beyond a double ("1e999", out_of_range 406). nlohmann's
        // message carries the byte offset; keep it, drop its "[json.exception...]".
        std::string what = e.what();
        if (const auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
        TGEMM_THROW(input, "{}: not valid JSON ({})", name, printable(what, 300));
    }
    try {
        return profile_from_json(j);
    } catch (const error& e) {
        TGEMM_THROW(input, "{}: {}", name, e.what());
    } catch (const nlohmann::json::exception& e) {
        // The reader checks each value's type before it reads it: this is a gap in those checks,
        // still reported as what it is, a file this tool cannot read.
        TGEMM_THROW(input, "{}: unreadable profile ({})", name, printable(e.what(), 300));
    }
}

profile read_profile(const fs::path& path) {
    if (!fs::exists(path))
        TGEMM_THROW(input, "profile '{}' does not exist", printable(path.string(), 400));
    return parse_profile(read_file(path), path.string());
}

std::string dump_profile(const profile& p) {
    nlohmann::json j;
    to_json(j, p);
    return j.dump(2) + "\n";
}

std::optional<fs::path> write_profile(const fs::path& path, const profile& p) {
    std::optional<fs::path> kept;
    if (path.has_parent_path()) ensure_writable_dir(path.parent_path());
    if (fs::exists(path)) {
        std::string stamp = p.env.date.substr(0, 19);
        for (auto& c : stamp)
            if (c == ':') c = '-';
        fs::path backup =
            path.parent_path() / fmt::format("{}.previous-{}.json", path.stem().string(), stamp);
        for (int i = 2; fs::exists(backup); ++i)
            backup = path.parent_path() /
                     fmt::format("{}.previous-{}-{}.json", path.stem().string(), stamp, i);
        std::error_code ec;
        fs::copy_file(path, backup, ec);
        if (ec)
            TGEMM_THROW(usage, "cannot keep the previous profile '{}' as '{}': {}", path.string(),
                        backup.string(), ec.message());
        kept = backup;
    }
    write_file_atomic(path, dump_profile(p));
    return kept;
}

}  // namespace tgemm
