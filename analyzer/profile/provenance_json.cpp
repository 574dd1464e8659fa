#include "profile/provenance_json.hpp"

#include <limits>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, std::string_view what) {
    TGEMM_THROW(input, "{}: {}", where, what);
}

// A non-negative integer below `limit`, or nothing when the key is absent.
std::optional<std::int64_t> opt_count(const json& j, const char* key, const std::string& where,
                                      std::int64_t limit) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer()) bad(where + "." + key, "expected a whole number");
    const auto v = it->get<std::int64_t>();
    if (v < 0 || v >= limit)
        bad(where + "." + key, fmt::format("{} is out of range (0 to {})", v, limit - 1));
    return v;
}

std::int64_t need_count(const json& j, const char* key, const std::string& where,
                        std::int64_t limit) {
    const auto v = opt_count(j, key, where, limit);
    if (!v) bad(where, fmt::format("missing key '{}'", key));
    return *v;
}

std::string opt_string(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return {};
    if (!it->is_string()) bad(where + "." + key, "expected a string");
    return it->get<std::string>();
}

constexpr std::int64_t int_limit = std::numeric_limits<int>::max();
// No run has a billion (kernel, shape) pairs; the bound keeps positions far from overflow.
constexpr std::int64_t work_limit = 1'000'000'000;

}  // namespace

void env_fleet_to_json(json& env, const env_info& e) {
    if (e.gpu_index) env["gpu_index"] = *e.gpu_index;
    if (!e.gpu_uuid.empty()) env["gpu_uuid"] = e.gpu_uuid;
    if (e.work_list) {
        json wl = {{"size", e.work_list->size}};
        if (!e.work_list->part.whole())
            wl["shard"] = {{"index", e.work_list->part.index}, {"count", e.work_list->part.count}};
        env["work_list"] = wl;
    }
}

void read_env_fleet(const json& env, env_info& e) {
    if (const auto i = opt_count(env, "gpu_index", "env", int_limit))
        e.gpu_index = static_cast<int>(*i);
    e.gpu_uuid = opt_string(env, "gpu_uuid", "env");
    const auto it = env.find("work_list");
    if (it == env.end() || it->is_null()) return;
    const std::string w = "env.work_list";
    if (!it->is_object()) bad(w, "expected an object");
    work_list_record r;
    r.size = need_count(*it, "size", w, work_limit);
    if (const auto s = it->find("shard"); s != it->end() && !s->is_null()) {
        const auto ws = w + ".shard";
        if (!s->is_object()) bad(ws, "expected an object");
        r.part.count = static_cast<int>(need_count(*s, "count", ws, int_limit));
        r.part.index = static_cast<int>(need_count(*s, "index", ws, int_limit));
        if (r.part.count < 1) bad(ws + ".count", "must be at least 1");
        if (r.part.index >= r.part.count) bad(ws, "index must be below count");
    }
    e.work_list = r;
}

json to_json(const row_provenance& p) {
    json j = {
        {"host", p.host}, {"driver", p.driver}, {"date", p.date}, {"work_index", p.work_index}};
    if (p.gpu_index) j["gpu_index"] = *p.gpu_index;
    if (!p.gpu_uuid.empty()) j["gpu_uuid"] = p.gpu_uuid;
    if (!p.shard.empty()) j["shard"] = p.shard;
    return j;
}

row_provenance read_row_provenance(const json& j, const std::string& where) {
    if (!j.is_object()) bad(where, "expected an object");
    row_provenance p;
    p.host = opt_string(j, "host", where);
    p.driver = opt_string(j, "driver", where);
    p.date = opt_string(j, "date", where);
    p.shard = opt_string(j, "shard", where);
    p.gpu_uuid = opt_string(j, "gpu_uuid", where);
    if (const auto i = opt_count(j, "gpu_index", where, int_limit))
        p.gpu_index = static_cast<int>(*i);
    p.work_index = need_count(j, "work_index", where, work_limit);
    return p;
}

}  // namespace tgemm
