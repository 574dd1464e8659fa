#include "profile/partial_profile.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

#include "core/atomic_file.hpp"
#include "core/strings.hpp"
#include "core/throw.hpp"
#include "profile/profile_file.hpp"
#include "profile/profile_json.hpp"

namespace tgemm {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int checkpoint_format = 1;

std::string shapes_text(const std::vector<shape>& shapes) {
    std::vector<std::string> parts;
    for (const auto& s : shapes) parts.push_back(to_arg(s));
    return parts.empty() ? "none" : join(parts, ",");
}

json to_json(const run_identity& id) {
    json sizes = json::array(), tensor = json::array();
    for (const auto& s : id.sizes) sizes.push_back(to_arg(s));
    for (const auto& s : id.tensor_sizes) tensor.push_back(to_arg(s));
    return {{"kernels", id.kernels},
            {"sizes", sizes},
            {"tensor_sizes", tensor},
            {"shard", to_string(id.part)},
            {"repeat", id.repeat},
            {"counters", id.counters},
            {"cupti_ranges", id.counted_ranges},
            {"peaks", id.peaks},
            {"runs", id.min_runs},
            {"noise_target", id.noise_target},
            {"max_time_per_pair_s", id.max_time_s},
            {"gpu", id.gpu},
            {"gpu_uuid", id.gpu_uuid},
            {"tool_version", id.tool_version}};
}

// ---- reading: every access names where it was ------------------------------------------

struct reader {
    std::string origin;

    [[noreturn]] void bad(const std::string& where, std::string_view what) const {
        TGEMM_THROW(input, "{}: {}: {}", origin, where, what);
    }
    const json& need(const json& j, const char* key, const std::string& where) const {
        if (!j.is_object()) bad(where, "expected an object");
        const auto it = j.find(key);
        if (it == j.end()) bad(where, fmt::format("missing key '{}'", key));
        return *it;
    }
    std::string text(const json& j, const char* key, const std::string& where) const {
        const auto& v = need(j, key, where);
        if (!v.is_string()) bad(where + "." + key, "expected a string");
        return v.get<std::string>();
    }
    bool flag(const json& j, const char* key, const std::string& where) const {
        const auto& v = need(j, key, where);
        if (!v.is_boolean()) bad(where + "." + key, "expected true or false");
        return v.get<bool>();
    }
    int count(const json& j, const char* key, const std::string& where) const {
        const auto& v = need(j, key, where);
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1 ||
            v.get<std::int64_t>() > 1'000'000)
            bad(where + "." + key, "expected a whole number from 1 to 1000000");
        return static_cast<int>(v.get<std::int64_t>());
    }
    double positive(const json& j, const char* key, const std::string& where) const {
        const auto& v = need(j, key, where);
        if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0))
            bad(where + "." + key, "expected a positive number");
        return v.get<double>();
    }
    std::vector<std::string> strings(const json& j, const char* key,
                                     const std::string& where) const {
        const auto& v = need(j, key, where);
        if (!v.is_array()) bad(where + "." + key, "expected an array");
        std::vector<std::string> out;
        for (const auto& s : v) {
            if (!s.is_string()) bad(where + "." + key, "expected strings");
            out.push_back(s.get<std::string>());
        }
        return out;
    }
    std::vector<shape> shapes(const json& j, const char* key, const std::string& where) const {
        std::vector<shape> out;
        for (const auto& s : strings(j, key, where)) {
            try {
                out.push_back(parse_shape(s));
            } catch (const error& e) {
                bad(where + "." + key, e.what());
            }
        }
        return out;
    }

    run_identity identity(const json& j, const std::string& w) const {
        run_identity id;
        id.kernels = strings(j, "kernels", w);
        id.sizes = shapes(j, "sizes", w);
        id.tensor_sizes = shapes(j, "tensor_sizes", w);
        try {
            id.part = parse_shard(text(j, "shard", w));
        } catch (const error& e) {
            bad(w + ".shard", e.what());
        }
        id.repeat = count(j, "repeat", w);
        id.counters = flag(j, "counters", w);
        if (j.contains("cupti_ranges")) {
            id.counted_ranges = text(j, "cupti_ranges", w);
            if (id.counted_ranges != "user" && id.counted_ranges != "kernel")
                bad(w + ".cupti_ranges", "expected \"user\" or \"kernel\"");
        }
        id.peaks = flag(j, "peaks", w);
        id.min_runs = count(j, "runs", w);
        id.noise_target = positive(j, "noise_target", w);
        id.max_time_s = positive(j, "max_time_per_pair_s", w);
        id.gpu = text(j, "gpu", w);
        id.gpu_uuid = text(j, "gpu_uuid", w);
        id.tool_version = text(j, "tool_version", w);
        return id;
    }
};

}  // namespace

std::optional<std::string> identity_difference(const run_identity& file, const run_identity& now) {
    const auto differ = [](std::string_view what, const std::string& a, const std::string& b) {
        return std::optional<std::string>(
            fmt::format("{}: {} in the file, {} in this command", what, a, b));
    };
    const auto number = [](double v) { return fmt::format("{:g}", v); };
    if (file.gpu != now.gpu) return differ("the GPU", file.gpu, now.gpu);
    if (file.gpu_uuid != now.gpu_uuid) return differ("the GPU card", file.gpu_uuid, now.gpu_uuid);
    if (file.tool_version != now.tool_version)
        return differ("the tool version", file.tool_version, now.tool_version);
    if (file.kernels != now.kernels)
        return differ("--kernels", join(file.kernels, ","), join(now.kernels, ","));
    if (file.sizes != now.sizes)
        return differ("--sizes", shapes_text(file.sizes), shapes_text(now.sizes));
    if (file.tensor_sizes != now.tensor_sizes)
        return differ("--tensor-sizes", shapes_text(file.tensor_sizes),
                      shapes_text(now.tensor_sizes));
    if (file.part != now.part) return differ("--shard", to_string(file.part), to_string(now.part));
    if (file.repeat != now.repeat)
        return differ("--repeat", std::to_string(file.repeat), std::to_string(now.repeat));
    if (file.counters != now.counters)
        return differ("the counters", file.counters ? "on" : "off (--no-counters)",
                      now.counters ? "on" : "off (--no-counters)");
    if (file.counted_ranges != now.counted_ranges)
        return differ("--cupti-ranges", file.counted_ranges, now.counted_ranges);
    if (file.peaks != now.peaks)
        return differ("the peaks", file.peaks ? "measured" : "skipped (--no-peaks)",
                      now.peaks ? "measured" : "skipped (--no-peaks)");
    if (file.min_runs != now.min_runs)
        return differ("--runs", std::to_string(file.min_runs), std::to_string(now.min_runs));
    if (file.noise_target != now.noise_target)
        return differ("--noise-target", number(file.noise_target * 100) + " %",
                      number(now.noise_target * 100) + " %");
    if (file.max_time_s != now.max_time_s)
        return differ("--max-time-per-pair", number(file.max_time_s) + " s",
                      number(now.max_time_s) + " s");
    return std::nullopt;
}

fs::path partial_path_for(const fs::path& profile_path) {
    auto p = profile_path;
    p += ".partial";
    return p;
}

std::string dump_partial(const partial_profile& p) {
    json j;
    to_json(j, p.done);
    json later = json::array();
    for (const auto& run : p.later_runs) {
        json rows = json::array();
        for (const auto& m : run) rows.push_back(measurement_to_json(m));
        later.push_back(rows);
    }
    j["checkpoint"] = {{"format", checkpoint_format},
                       {"identity", to_json(p.identity)},
                       {"peaks_pending", p.peaks_pending},
                       {"later_runs", later}};
    return j.dump(1) + "\n";
}

partial_profile parse_partial(std::string_view text, const std::string& origin) {
    partial_profile out;
    out.done = parse_profile(text, origin);  // the JSON and the profile, checked as a profile
    const reader r{printable(origin, 400)};
    const auto j = json::parse(text);
    const auto& cp = r.need(j, "checkpoint", "profile");
    const auto& format = r.need(cp, "format", "checkpoint");
    if (!format.is_number_integer() || format.get<std::int64_t>() != checkpoint_format)
        r.bad("checkpoint.format",
              fmt::format("is not {}: written by another version of the tool", checkpoint_format));
    out.identity = r.identity(r.need(cp, "identity", "checkpoint"), "checkpoint.identity");
    out.peaks_pending = r.flag(cp, "peaks_pending", "checkpoint");
    const auto& later = r.need(cp, "later_runs", "checkpoint");
    if (!later.is_array()) r.bad("checkpoint.later_runs", "expected an array");
    for (std::size_t i = 0; i < later.size(); ++i) {
        const auto w = fmt::format("checkpoint.later_runs[{}]", i);
        if (!later[i].is_array()) r.bad(w, "expected an array");
        std::vector<measurement> rows;
        for (std::size_t k = 0; k < later[i].size(); ++k) {
            try {
                rows.push_back(measurement_from_json(later[i][k], fmt::format("{}[{}]", w, k)));
            } catch (const error& e) {
                TGEMM_THROW(input, "{}: {}", r.origin, e.what());
            } catch (const json::exception& e) {
                r.bad(w, printable(e.what(), 300));
            }
        }
        out.later_runs.push_back(std::move(rows));
    }
    return out;
}

partial_profile read_partial(const fs::path& path) {
    return parse_partial(read_file(path), path.string());
}

void write_partial(const fs::path& path, const partial_profile& p) {
    write_file_atomic(path, dump_partial(p));
}

}  // namespace tgemm
