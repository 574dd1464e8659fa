#include "profile/repeats_json.hpp"

#include <cmath>
#include <limits>

#include "core/strings.hpp"
#include "core/throw.hpp"

namespace tgemm {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, std::string_view what) {
    TGEMM_THROW(input, "{}: {}", where, what);
}

// A finite number no smaller than `low` (or above it, when `strict`).
double number(const json& v, const std::string& where, double low, bool strict) {
    if (!v.is_number()) bad(where, "expected a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) bad(where, "is not finite");
    if (strict ? !(d > low) : !(d >= low))
        bad(where, fmt::format("must be {} {}", strict ? "above" : "at least", low));
    return d;
}

const json* find(const json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

json to_json(const value_spread& s) {
    json j = {{"min", s.min}, {"median", s.median}, {"max", s.max}};
    // Derived, for a reader of the file; the reader recomputes it. Left out when a median of 0
    // moved, which JSON cannot write as a number.
    if (std::isfinite(s.relative())) j["spread"] = s.relative();
    return j;
}

value_spread read_spread(const json& j, const std::string& where) {
    if (!j.is_object()) bad(where, "expected an object");
    value_spread s;
    for (auto [key, field] :
         {std::pair{"min", &s.min}, std::pair{"median", &s.median}, std::pair{"max", &s.max}}) {
        const auto* v = find(j, key);
        if (!v) bad(where, fmt::format("missing key '{}'", key));
        *field = number(*v, where + "." + key, 0, false);
    }
    if (!(s.min <= s.median && s.median <= s.max)) bad(where, "expected min <= median <= max");
    return s;
}

}  // namespace

void timing_noise_to_json(json& time_ms, const timing& t) {
    if (t.noise) time_ms["noise"] = *t.noise;
    if (t.noise_target) time_ms["noise_target"] = *t.noise_target;
    if (t.noise_met) time_ms["noise_met"] = *t.noise_met;
}

void read_timing_noise(const json& time_ms, timing& t, const std::string& where) {
    if (const auto* v = find(time_ms, "noise")) t.noise = number(*v, where + ".noise", 0, false);
    if (const auto* v = find(time_ms, "noise_target"))
        t.noise_target = number(*v, where + ".noise_target", 0, true);
    if (const auto* v = find(time_ms, "noise_met")) {
        if (!v->is_boolean()) bad(where + ".noise_met", "expected true or false");
        t.noise_met = v->get<bool>();
    }
}

json to_json(const repeat_summary& r) {
    json j = {{"n", r.n}};
    if (r.median_ms) j["time_ms_median"] = to_json(*r.median_ms);
    json counters = json::object();
    for (const auto& [k, s] : r.counters) counters[k] = to_json(s);
    j["counters"] = counters;
    return j;
}

repeat_summary read_repeat_summary(const json& j, const std::string& where) {
    if (!j.is_object()) bad(where, "expected an object");
    repeat_summary r;
    const auto* n = find(j, "n");
    if (!n) bad(where, "missing key 'n'");
    if (!n->is_number_integer() || n->get<std::int64_t>() < 1 ||
        n->get<std::int64_t>() > std::numeric_limits<int>::max())
        bad(where + ".n", "expected a whole number from 1");
    r.n = static_cast<int>(n->get<std::int64_t>());
    if (const auto* t = find(j, "time_ms_median"))
        r.median_ms = read_spread(*t, where + ".time_ms_median");
    if (const auto* c = find(j, "counters")) {
        if (!c->is_object()) bad(where + ".counters", "expected an object");
        for (const auto& [k, v] : c->items())
            r.counters[k] = read_spread(v, where + ".counters." + printable(k, 60));
    }
    return r;
}

}  // namespace tgemm
